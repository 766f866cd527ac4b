-- rerun_attempts: the kept attempts of a re-run run (run_reruns) as further attempts of the
--   original run's trials, first try kept: the re-run's trials of a task, in trial order, meet
--   the original's trials of that task, errored ones first, then in trial order; each attempt
--   takes the original's run (run_key, run_id) and trial (task_id kept), and its attempt
--   number follows that trial's last attempt in the original. Where several re-runs reach one
--   trial of the original, each one's attempts follow the earlier re-run's (by first start,
--   then run): the trial keeps one attempt of each number, and its final attempt is the
--   latest re-run's. A re-run trial beyond the original's trials of its task is a trial whose
--   first try is gone (the original holds no record of it: deleted, or never written): its
--   attempts are numbered from 2 and is_first_gone is true.
-- Reads: stg_attempts, run_reruns, loaded_runs.
-- Empty when: run_reruns is empty.
create or replace view rerun_attempts as
with

rerun_kept as (
    select
        s.attempt_id,
        s.run_key as rerun_key,
        s.task_id,
        s.trial,
        s.attempt,
        r.original_key,
        r.original_run_id,
        -- the re-runs of one original, in the order they ran
        lr.first_started_at as rerun_started_at
    from stg_attempts as s
    join run_reruns as r on r.rerun_key = s.run_key
    join loaded_runs as lr on lr.run_key = s.run_key
    where s.is_kept
),

rerun_trials as (
    select
        rerun_key,
        original_key,
        task_id,
        trial,
        (dense_rank() over (partition by rerun_key, task_id order by trial) - 1)::integer as slot
    from (select distinct rerun_key, original_key, task_id, trial from rerun_kept)
),

original_trials as (
    select
        s.run_key as original_key,
        s.task_id,
        s.trial,
        max(s.attempt) as last_attempt,
        arg_max(s.status, s.attempt) = 'aborted' as is_errored
    from stg_attempts as s
    where s.is_kept
        and s.run_key in (select original_key from run_reruns)
        and s.task_id in (select task_id from rerun_kept)
    group by s.run_key, s.task_id, s.trial
),

original_slots as (
    select
        *,
        (row_number() over (partition by original_key, task_id order by is_errored desc, trial) - 1)::integer as slot,
        count(*) over (partition by original_key, task_id) as trials,
        max(trial) over (partition by original_key, task_id) as max_trial
    from original_trials
),

task_extent as (
    select original_key, task_id, any_value(trials) as trials, any_value(max_trial) as max_trial
    from original_slots
    group by original_key, task_id
),

placed as (
    select
        r.rerun_key,
        r.task_id,
        r.trial as rerun_trial,
        coalesce(o.trial, coalesce(e.max_trial, -1) + 1 + r.slot - coalesce(e.trials, 0))::integer as trial,
        -- the original's attempts come first; a first try that is gone still had its number
        coalesce(o.last_attempt, 1)::integer as attempt_offset,
        o.trial is null as is_first_gone
    from rerun_trials as r
    left join original_slots as o on o.original_key = r.original_key and o.task_id = r.task_id and o.slot = r.slot
    left join task_extent as e on e.original_key = r.original_key and e.task_id = r.task_id
),

final as (
    select
        k.attempt_id,
        k.rerun_key,
        k.original_key as run_key,
        k.original_run_id as run_id,
        k.task_id,
        p.trial,
        -- numbered within the original's trial (a re-run's trial reaches one of them): the
        -- re-runs that reach it in the order they ran, each one's attempts in their order
        (
            p.attempt_offset
            + dense_rank() over (
                partition by k.original_key, k.task_id, p.trial
                order by k.rerun_started_at nulls last, k.rerun_key, k.attempt
            )
        )::integer as attempt,
        p.is_first_gone
    from rerun_kept as k
    join placed as p on p.rerun_key = k.rerun_key and p.task_id = k.task_id and p.rerun_trial = k.trial
)

select * from final;
