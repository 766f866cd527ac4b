-- attempts_classified: the kept attempts (duplicates dropped) with their timeout_cause
--   (attempt_timeout_cause, timeout attempts only) and fault class (attempt_fault); an attempt of
--   a re-run run (run_reruns) as rerun_attempts places it: in the original run's trial,
--   numbered after its attempts there (the attempt ledger).
-- Reads: stg_attempts, attempt_timeout_cause, rerun_attempts, attempt_fault.
-- Not materialized on big inputs: every kept attempt again, with the causes of its timeouts: a copy would double the attempts.
--
-- Only timeout attempts have a cause, so the join that adds it holds those alone, and the fault
-- class is computed on the row: a join of every kept attempt to a table of all kept attempts'
-- faults cost each reader of a big input a join of millions of rows by millions (docs/benchmarks.md).
create or replace view attempts_classified as
select
    s.* replace (
        coalesce(r.run_key, s.run_key) as run_key,
        case when r.attempt_id is null then s.run_id else r.run_id end as run_id,
        coalesce(r.trial, s.trial) as trial,
        coalesce(r.attempt, s.attempt) as attempt
    ),
    c.timeout_cause,
    attempt_fault(s.status, s.declared_fault, s.status_detail, c.timeout_cause) as fault
from stg_attempts as s
left join attempt_timeout_cause as c using (attempt_id)
left join rerun_attempts as r using (attempt_id)
where s.is_kept;
