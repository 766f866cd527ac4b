-- missing_trials: the trials an expected task owes and has no record of (--expect /
--   --expect-count).
-- Reads: trial_outcomes.
create or replace view missing_trials as
-- the expected trials with no record (attempts = 0 marks them in trial_outcomes);
-- is_named is false for the tasks --expect-count adds without knowing their names
select run_key, run_id, task_id, trial, task_named as is_named, agent, model, category, difficulty
from trial_outcomes
where basis = 'final' and attempts = 0;
