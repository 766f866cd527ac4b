-- attempts_classified: the kept attempts (duplicates dropped) with timeout_cause and fault of
--   attempt_faults; an attempt of a re-run run (run_reruns) as rerun_attempts places it: in the
--   original run's trial, numbered after its attempts there (the attempt ledger).
-- Reads: stg_attempts, attempt_faults, rerun_attempts.
-- Not materialized on big inputs: every kept attempt again, with two columns of attempt_faults: a copy would double the attempts.
create or replace view attempts_classified as
select
    s.* replace (
        coalesce(r.run_key, s.run_key) as run_key,
        case when r.attempt_id is null then s.run_id else r.run_id end as run_id,
        coalesce(r.trial, s.trial) as trial,
        coalesce(r.attempt, s.attempt) as attempt
    ),
    f.timeout_cause,
    f.fault
from stg_attempts as s
join attempt_faults as f using (attempt_id)
left join rerun_attempts as r using (attempt_id);
