-- compare_side_spend: each side's trials with what their attempts spent (trial_spend's rows
--   in each scope holding the trial; B's added like compare_side_trials').
-- Reads: trial_spend, scoped_trial_outcomes.
-- Not materialized: trial_spend read through; with two inputs compare.ts puts a table in its place.
create or replace view compare_side_spend as
-- one row per trial with a kept attempt and scope: its recorded spend and its attempts without a cost
select o.scope_id as side_id, s.run_key, s.task_id, s.trial, s.cost_usd, s.cost_missing_attempts
from scoped_trial_outcomes as o
join trial_spend as s on s.run_key = o.run_key and s.task_id = o.task_id and s.trial = o.trial
where o.basis = 'final';
