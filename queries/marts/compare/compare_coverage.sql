-- compare_coverage: per pairing, tasks on both sides, only on the baseline, only on the
--   candidate, and their trials.
-- Reads: compare_pairings, compare_task_presence.
-- Not materialized: one row per pairing, read once.
create or replace view compare_coverage as
select
    p.pairing_id,
    count(t.task_id) filter (where t.is_common) as common_tasks,
    count(t.task_id) filter (where t.candidate_trials is null) as only_baseline,
    count(t.task_id) filter (where t.baseline_trials is null) as only_candidate,
    coalesce(sum(t.baseline_trials), 0) as baseline_trials,
    coalesce(sum(t.candidate_trials), 0) as candidate_trials,
    coalesce(sum(t.baseline_trials) filter (where t.is_common), 0) as baseline_trials_paired,
    coalesce(sum(t.candidate_trials) filter (where t.is_common), 0) as candidate_trials_paired
from compare_pairings as p
left join compare_task_presence as t using (pairing_id)
group by all;
