-- cost_cells: each pairing's cost per solved task per denominator, in chain order.
-- Reads: compare_cost_cells, compare_pairings.
select * from compare_cost_cells
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, step
