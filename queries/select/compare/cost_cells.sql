-- cost_cells: each pairing's cost per solved task per denominator, in chain order.
-- Reads: compare_cost_cells.
select * from compare_cost_cells order by pairing_id, step
