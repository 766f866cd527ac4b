-- attempts_classified: the kept attempts (duplicates dropped) with timeout_cause and fault of attempt_faults.
-- Reads: stg_attempts, attempt_faults.
-- Not materialized: every kept attempt again, with two columns of attempt_faults: a copy would double the attempts.
create or replace view attempts_classified as
select
    s.*,
    f.timeout_cause,
    f.fault
from stg_attempts as s
join attempt_faults as f using (attempt_id);
