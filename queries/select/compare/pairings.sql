-- pairings: which side is compared with which, one row per pairing.
-- Reads: compare_pairings.
select pairing_id, baseline_side, candidate_side from compare_pairings where versus_baseline order by pairing_id
