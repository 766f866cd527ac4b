-- cells: the eight cells of every pairing.
-- Reads: compare_cells, compare_pairings.
select * from compare_cells
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, basis_order, step
