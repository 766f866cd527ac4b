-- trial_scopes: the scopes.
-- Reads: trial_outcomes, scoped_trial_outcomes.
--
-- Scope 0 holds every trial, so it is there when any trial is; the groups of --by are
-- found among the group rows only (none without --by).
create or replace view trial_scopes as
select 0::bigint as scope_id, false as is_group, null::varchar as group_value
where exists (select 1 from trial_outcomes)
union all
select distinct scope_id, is_group, group_value
from scoped_trial_outcomes
where is_group;
