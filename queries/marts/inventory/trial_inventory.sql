-- trial_inventory: per run and task: the run's trial slots against the trials present, how
--   many slots the task lacks, and whether --expect lists the task.
-- Reads: trials, missing_trials, trial_slots, run_identities; getvariable('expected_tasks').
--
-- A run's trial slots are the trial numbers any of its tasks used (trial_slots), so a task
-- lacks as many as it has fewer trials present; which ones, select/report/incomplete_tasks
-- finds for the tasks it lists (a list per task, gathered here for every task, ran out of
-- memory on 4 M tasks). Slots that a present task lacks feed pass@k's skipped count, but do
-- not enter `total`: only an expected task with no record at all does (missing_trials, status
-- missing).
create or replace view trial_inventory as
with

tasks as (
    -- every task of a run: its trials present, and whether it is expected to hold more (a trial
    -- of missing_trials) and is named; one aggregate over both, which spills past the memory limit
    select
        run_key,
        task_id,
        count(*) filter (where is_present) as trials_present,
        bool_or(not is_present) as is_missing_task,
        coalesce(bool_or(is_named) filter (where not is_present), true) as is_named
    from (
        select run_key, task_id, true as is_present, null::boolean as is_named from trials
        union all
        select run_key, task_id, false as is_present, is_named from missing_trials
    )
    group by run_key, task_id
),

run_slots as (
    select run_key, count(*) as slots_expected from trial_slots group by run_key
),

listed as (
    select distinct unnest(getvariable('expected_tasks')) as task_id
),

final as (
    select
        t.run_key,
        i.run_id,
        i.agent,
        i.model,
        t.task_id,
        r.slots_expected,
        t.trials_present,
        r.slots_expected - t.trials_present as slots_missing,
        t.is_missing_task,
        t.is_named,
        case
            when getvariable('expected_tasks') is null then null
            else l.task_id is not null
        end as is_listed
    from tasks as t
    join run_slots as r using (run_key)
    join run_identities as i using (run_key)
    left join listed as l using (task_id)
)

select * from final;
