-- status_alias: the exact alias table of docs/metrics.md (alias -> canonical status).
-- Reads: nothing. Aliases are matched after trim and lower-case, never by substring.
-- More pairs come from --status-map FROM=TO, read through getvariable('status_map').
create or replace table status_alias as
select alias, status
from (
    values
        ('success', 'success'), ('succeeded', 'success'), ('pass', 'success'), ('passed', 'success'),
        ('resolved', 'success'), ('correct', 'success'), ('ok', 'success'),
        ('failure', 'failure'), ('fail', 'failure'), ('failed', 'failure'), ('unresolved', 'failure'),
        ('incorrect', 'failure'), ('wrong', 'failure'),
        ('timeout', 'timeout'), ('timed_out', 'timeout'), ('time_limit', 'timeout'),
        ('agent_timeout', 'timeout'), ('deadline_exceeded', 'timeout'),
        ('aborted', 'aborted'), ('error', 'aborted'), ('errored', 'aborted'), ('env_failure', 'aborted'),
        ('environment_error', 'aborted'), ('infra_error', 'aborted'), ('crashed', 'aborted'),
        ('cancelled', 'aborted'),
        ('invalid', 'invalid'), ('invalid_task', 'invalid')
) as t (alias, status);
