-- flips: the flipped pairs of cells, the most telling first (same basis, the final basis,
--   the strictest cells first).
-- Reads: compare_flips, compare_pairings.
select * from compare_flips
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, same_basis desc, greatest(lead_basis_order, trail_basis_order) desc,
    least(lead_step, trail_step), greatest(lead_step, trail_step), lead_basis_order desc
