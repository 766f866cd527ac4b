-- several_trial_scopes: the scopes in which some task has several trials, one row each with
--   its task count: the scopes whose intervals are task-clustered (bootstrap_intervals below
--   clustered_from_tasks tasks, clustered_intervals from it on); every other scope gets the
--   Wilson interval. Often none: one trial per task.
-- Reads: pass_at_k_by_task.
create or replace view several_trial_scopes as
select scope_id, count(*) as tasks
from pass_at_k_by_task
where k = 1
group by scope_id
having max(n) > 1;
