-- group_scopes: the groups of --by, each a side of a comparison.
-- Reads: trial_scopes.
select scope_id, group_value from trial_scopes where is_group order by scope_id
