-- trial_scopes: the scopes.
-- Reads: scoped_trial_outcomes.
create or replace view trial_scopes as
select distinct
    scope_id,
    is_group,
    case when is_group then group_value end as group_value
from scoped_trial_outcomes;
