-- compare_pairings: which side is compared with which: with --by FIELD --baseline VALUE the
--   baseline group against each other group, in value order (two inputs: side 0 against 1).
-- Reads: trial_scopes; getvariable('compare_baseline').
-- Not materialized: a few rows; with two inputs compare.ts puts a table in its place.
create or replace view compare_pairings as
-- --by FIELD --baseline VALUE: the baseline group against each other group, in value order
with

groups as (
    select scope_id, group_value from trial_scopes where is_group
),

baseline as (
    select scope_id from groups where group_value is not distinct from getvariable('compare_baseline')
)

select
    row_number() over (order by c.scope_id)::bigint as pairing_id,
    b.scope_id as baseline_side,
    c.scope_id as candidate_side
from baseline as b
join groups as c on c.scope_id <> b.scope_id;
