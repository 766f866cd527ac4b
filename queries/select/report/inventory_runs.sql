-- inventory_runs: per run: tasks and trial slots expected against present.
-- Reads: inventory_runs.
select run_id, agent, model, trial_slots, tasks_present, tasks_expected, tasks_missing, tasks_unexpected,
       trials_present, coalesce(trials_missing, 0) as trials_missing,
       coalesce(slots_missing_in_present_tasks, 0) as slots_missing_in_present_tasks
from inventory_runs
order by coalesce(run_id, ''), run_key
