-- compare_pairings: which side is compared with which: with --by FIELD --baseline VALUE the
--   baseline group against each other group, in value order (versus_baseline: what compare
--   prints), and, with three groups or more, every other pair of groups too, for the tie
--   groups (compare_tie_groups); two inputs: side 0 against 1.
-- Reads: trial_scopes; getvariable('compare_baseline').
-- Not materialized: a few rows; with two inputs compare.ts puts a table in its place.
create or replace view compare_pairings as
with

groups as (
    select scope_id, group_value from trial_scopes where is_group
),

baseline as (
    select scope_id from groups where group_value is not distinct from getvariable('compare_baseline')
),

versus_baseline as (
    -- the baseline group against each other group, numbered first (1, 2, ... in scope order)
    select b.scope_id as baseline_side, c.scope_id as candidate_side
    from baseline as b
    join groups as c on c.scope_id <> b.scope_id
),

other_pairs as (
    -- the pairs of candidates (lower scope first), only when there are two candidates or more
    select a.scope_id as baseline_side, c.scope_id as candidate_side
    from groups as a
    join groups as c on a.scope_id < c.scope_id
    where (select count(*) from groups) >= 3
      and a.scope_id not in (select scope_id from baseline)
      and c.scope_id not in (select scope_id from baseline)
),

final as (
    select
        row_number() over (order by not versus_baseline, baseline_side, candidate_side)::bigint as pairing_id,
        baseline_side,
        candidate_side,
        versus_baseline
    from (
        select *, true as versus_baseline from versus_baseline
        union all
        select *, false from other_pairs
    )
)

select * from final;
