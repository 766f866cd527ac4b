-- attempt_faults: (attempt_id, timeout_cause, fault) for every kept attempt: the fault class of
--   docs/inputs.md (attempt_fault), as attempts_classified gives it.
-- Reads: attempts_classified.
-- Not materialized: three columns of attempts_classified, which attempt_ledger counts.
create or replace view attempt_faults as
select attempt_id, timeout_cause, fault from attempts_classified;
