-- standard_errors: the task-clustered standard error of the named definitions in every scope.
-- Reads: audit_standard_errors.
select scope_by, scope_value, simplicity, tasks, trials, successes, se_clustered_by_task
from audit_standard_errors
-- a filter on the column itself (not a subquery) reaches audit_membership inside the view: only the
-- named definitions are computed
where list_contains(from_json($simplicities::VARCHAR, '["BIGINT"]'), simplicity)
order by scope_by, scope_value, simplicity
