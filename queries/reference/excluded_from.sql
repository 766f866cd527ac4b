-- excluded_from: the exclusion rule of every step of the denominator chain, in one place: the
--   first denominator (queries/reference/denominators.sql) that leaves out a trial whose basis
--   attempt has this fault and status (its status detail, timeout cause and task id there for a
--   rule that needs them); NULL when every denominator keeps it. A trial is in denominator d when
--   d's step comes before the step of the denominator named here (kept_in).
-- Reads: nothing; getvariable('excluded_tasks') (flag --exclude-tasks).
create or replace macro excluded_from(fault, status, status_detail, timeout_cause, task_id) as
    case
        when fault in ('task', 'unknown') then 'valid'
        -- --exclude-tasks FILE: the listed tasks (variable excluded_tasks; NULL without the flag)
        when list_contains(getvariable('excluded_tasks'), task_id) then 'validated'
        when fault = 'environment' then 'attributable'
        when status = 'timeout' then 'completable'
    end;
