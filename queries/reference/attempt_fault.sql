-- attempt_fault: the fault class of a kept attempt (docs/inputs.md): none, task, unknown, agent
--   or environment, from its status, the `fault` its record declared, its status detail and,
--   for a timeout, the cause the classifier gave it (attempt_timeout_cause).
-- Reads: nothing.
create or replace macro attempt_fault(status, declared_fault, status_detail, timeout_cause) as
    case
        when status = 'success' then 'none'
        when status = 'invalid' then 'task'
        when status = 'unrecognized' then 'unknown'
        -- an explicit `fault` overrides the default of the three outcomes it can be argued about
        when declared_fault is not null then declared_fault
        when status = 'failure' then 'agent'
        when status = 'timeout' then
            case when timeout_cause in ('queue', 'external') then 'environment' else 'agent' end
        when status = 'aborted' then
            case
                when lower(status_detail) like 'safety%' or lower(status_detail) like 'policy%' then 'agent'
                else 'environment'
            end
    end;
