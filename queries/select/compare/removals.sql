-- removals: what each side's chain removed over the common tasks, by reason.
-- Reads: compare_removals.
select * from compare_removals order by pairing_id, side, basis, step, trials desc, reason
