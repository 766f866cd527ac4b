-- standard_errors: the task-clustered standard error of the named definitions in every scope.
-- Reads: audit_standard_errors.
select scope_by, scope_value, simplicity, tasks, trials, successes, se_clustered_by_task
from audit_standard_errors
where simplicity in (select unnest(from_json($simplicities::VARCHAR, '["BIGINT"]')))
order by scope_by, scope_value, simplicity
