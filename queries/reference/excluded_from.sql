-- excluded_from: the exclusion rule of every step of the denominator chain, in one place: the
--   first denominator (queries/reference/denominators.sql) that leaves out a trial whose basis
--   attempt has this fault and status (its status detail and timeout cause there for a rule
--   that needs them); NULL when every denominator keeps it. A trial is in denominator d when
--   d's step comes before the step of the denominator named here (kept_in).
-- Reads: nothing.
create or replace macro excluded_from(fault, status, status_detail, timeout_cause) as
    case
        when fault in ('task', 'unknown') then 'valid'
        when fault = 'environment' then 'attributable'
        when status = 'timeout' then 'completable'
    end;
