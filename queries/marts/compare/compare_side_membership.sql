-- compare_side_membership: each side's trials once per basis and per denominator they are
--   kept in (rate_membership's rows; B's added like compare_side_trials').
-- Reads: rate_membership.
-- Not materialized: rate_membership read through; with two inputs compare.ts puts a table in its place.
create or replace view compare_side_membership as
-- each trial once per basis and per denominator it is kept in (rate_membership's rows)
select scope_id as side_id, run_key, task_id, trial, basis, denominator, is_success
from rate_membership;
