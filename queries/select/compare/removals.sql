-- removals: what each side's chain removed over the common tasks, by reason.
-- Reads: compare_removals, compare_pairings.
select * from compare_removals
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, side, basis, step, trials desc, reason
