-- trial_scopes: the scopes: 0 = every trial, 1..n = the groups of --by.
-- Reads: trial_scopes.
select scope_id, group_value from trial_scopes order by scope_id
