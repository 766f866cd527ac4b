-- compare_pairing_sides: each pairing's two sides, named baseline and candidate.
-- Reads: compare_pairings.
-- Not materialized: two rows per pairing.
create or replace view compare_pairing_sides as
-- each pairing's two sides, named
select pairing_id, baseline_side as side_id, 'baseline' as side from compare_pairings
union all
select pairing_id, candidate_side as side_id, 'candidate' as side from compare_pairings;
