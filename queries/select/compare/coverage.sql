-- coverage: tasks on both sides, only on one, per pairing.
-- Reads: compare_coverage.
select * from compare_coverage order by pairing_id
