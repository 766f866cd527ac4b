-- scope_groups: the scopes of the groups, one row each: scope i (from 1) holds the i-th group
--   value of the trials (the --by field's value; without --by, the runs' identity groups,
--   run_groups), NULL last; none when there is no --by and no identity group.
-- Reads: trial_outcomes; getvariable('group_by').
--
-- A relation of its own so that scoped_trial_outcomes, which joins every trial to its group,
-- is planned on the true number of groups (a few): as a CTE estimated at a row per trial, the
-- plan built a hash table of every trial and ran out of memory on 7.9 M trials
-- (docs/benchmarks.md, "Lakes").
create or replace view scope_groups as
with

final as (
    select dense_rank() over (order by group_value nulls last) as scope_id, group_value as scope_value
    from (select distinct group_value from trial_outcomes where getvariable('group_by') is not null or group_value is not null)
)

select * from final;
