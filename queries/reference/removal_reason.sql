-- removal_reason: why a step of the denominator chain removed a trial, in words (shown by the
--   report's removals and by compare): "invalid task (broken_fixture)", "unrecognized status
--   \"weird\"", "timeout, cause loop", "aborted (external_api_error)".
-- Reads: nothing.
create or replace macro removal_reason(fault, status, status_detail, timeout_cause, raw_status) as
    case
        when fault = 'task' then 'invalid task' || coalesce(' (' || status_detail || ')', '')
        when fault = 'unknown' then 'unrecognized status "' || raw_status || '"'
        when status = 'timeout' then 'timeout, cause ' || coalesce(timeout_cause, 'unknown')
        else status || coalesce(' (' || status_detail || ')', '')
    end;
