-- compare_side_spend: each side's trials with what their attempts spent (trial_spend's rows;
--   B's added like compare_side_trials').
-- Reads: trial_spend.
-- Not materialized: trial_spend read through; with two inputs compare.ts puts a table in its place.
create or replace view compare_side_spend as
-- one row per trial with a kept attempt: its recorded spend and its attempts without a cost
select scope_id as side_id, run_key, task_id, trial, cost_usd, cost_missing_attempts
from trial_spend;
