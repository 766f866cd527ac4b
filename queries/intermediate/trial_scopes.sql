-- trial_scopes: the scopes.
-- Reads: trial_outcomes, scope_groups.
--
-- Scope 0 holds every trial, so it is there when any trial is; each group's scope holds the
-- trials of its value (scope_groups, found among the trials: none is empty).
create or replace view trial_scopes as
select 0::bigint as scope_id, false as is_group, null::varchar as group_value
where exists (select 1 from trial_outcomes)
union all
select scope_id, true as is_group, scope_value as group_value
from scope_groups;
