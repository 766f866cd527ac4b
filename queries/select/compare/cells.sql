-- cells: the eight cells of every pairing.
-- Reads: compare_cells.
select * from compare_cells order by pairing_id, basis_order, step
