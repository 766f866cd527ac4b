-- scoped_trial_outcomes: the trials once overall (scope 0) and once more per group of --by
--   (scopes 1..n).
-- Reads: trial_outcomes, scope_groups.
-- Without --by, the groups are the runs' identity groups (run_groups), when there are any.
-- Not materialized on big inputs: trial_outcomes once more per --by group: read through, not copied.
create or replace view scoped_trial_outcomes as
with

outcomes as not materialized (
    -- read through by each branch, so that a reader's few columns are all that is scanned:
    -- a copy of every column, which DuckDB makes of a CTE read twice, cost the rate cells
    -- of 1 GB of JSONL three times their aggregate
    select * from trial_outcomes
),

final as (
    select 0::bigint as scope_id, false as is_group, o.* from outcomes as o
    union all
    select s.scope_id, true as is_group, o.*
    from outcomes as o
    join scope_groups as s on s.scope_value is not distinct from o.group_value
)

select * from final;
