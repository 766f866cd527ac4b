-- trial_inventory: per run and task: the run's trial slots against the trials present, the
--   missing slot numbers, and whether --expect lists the task.
-- Reads: trials, missing_trials, run_identities; getvariable('expected_tasks').
--
-- A run's trial slots are the trial numbers any of its tasks used. Slots that a present task
-- lacks are listed here and feed pass@k's skipped count, but do not enter `total`: only an
-- expected task with no record at all does (missing_trials, status missing).
create or replace view trial_inventory as
with

present as (
    select run_key, task_id, trial from trials
),

missing as (
    select run_key, task_id, trial, is_named from missing_trials
),

slots as (
    select distinct run_key, trial from present
    union
    select distinct run_key, trial from missing
),

task_trials as (
    select run_key, task_id, count(*) as trials_present from present group by run_key, task_id
),

tasks as (
    -- every task of a run with its trials present: those with a record, then those only missing
    select run_key, task_id, trials_present from task_trials
    union all
    select m.run_key, m.task_id, 0 as trials_present
    from (select distinct run_key, task_id from missing) as m
    anti join task_trials as t using (run_key, task_id)
),

run_slots as (
    select run_key, count(*) as slots_expected from slots group by run_key
),

listed as (
    select distinct unnest(getvariable('expected_tasks')) as task_id
),

short_tasks as (
    -- a run's slots hold every trial number its tasks used, so only a task with fewer
    -- trials than slots lacks one
    select t.run_key, t.task_id
    from tasks as t
    join run_slots as r using (run_key)
    join run_identities as i using (run_key)
    where t.trials_present < r.slots_expected
),

absent as (
    -- slots of a task without a record, whether or not the task is expected
    select t.run_key, t.task_id, list(s.trial order by s.trial) as missing_slots
    from short_tasks as t
    join slots as s using (run_key)
    anti join present as p on p.run_key = t.run_key and p.task_id = t.task_id and p.trial = s.trial
    group by t.run_key, t.task_id
),

missing_tasks as (
    select run_key, task_id, bool_or(is_named) as is_named from missing group by run_key, task_id
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
        coalesce(a.missing_slots, []) as missing_slots,
        m.task_id is not null as is_missing_task,
        coalesce(m.is_named, true) as is_named,
        case
            when getvariable('expected_tasks') is null then null
            else l.task_id is not null
        end as is_listed
    from tasks as t
    join run_slots as r using (run_key)
    join run_identities as i using (run_key)
    left join absent as a using (run_key, task_id)
    left join missing_tasks as m using (run_key, task_id)
    left join listed as l using (task_id)
)

select * from final;
