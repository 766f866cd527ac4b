-- coverage: tasks on both sides, only on one, per pairing.
-- Reads: compare_coverage, compare_pairings.
select * from compare_coverage
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id
