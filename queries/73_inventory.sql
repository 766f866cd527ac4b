-- Defines: trial_inventory (per run and task: the run's trial slots against the trials
--          present, the missing slot numbers, and whether --expect lists the task) and
--          inventory_runs (per run: tasks and trial slots expected against present),
--          inventory_totals (the complete counts behind the report's capped lists).
-- Reads: trials, missing_trials; getvariable('expected_tasks'), getvariable('expected_count').
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

tasks as (
    select distinct run_key, task_id from present
    union
    select distinct run_key, task_id from missing
),

listed as (
    select distinct unnest(getvariable('expected_tasks')) as task_id
),

absent as (
    -- slots of a task without a record, whether or not the task is expected
    select t.run_key, t.task_id, list(s.trial order by s.trial) as missing_slots
    from tasks as t
    join slots as s using (run_key)
    anti join present as p on p.run_key = t.run_key and p.task_id = t.task_id and p.trial = s.trial
    group by t.run_key, t.task_id
),

task_trials as (
    select run_key, task_id, count(*) as trials_present from present group by run_key, task_id
),

run_slots as (
    select run_key, count(*) as slots_expected from slots group by run_key
),

missing_tasks as (
    select run_key, task_id, bool_or(is_named) as is_named from missing group by run_key, task_id
),

final as (
    select
        t.run_key,
        nullif(t.run_key, '') as run_id,
        t.task_id,
        r.slots_expected,
        coalesce(tt.trials_present, 0) as trials_present,
        coalesce(a.missing_slots, []) as missing_slots,
        m.task_id is not null as is_missing_task,
        coalesce(m.is_named, true) as is_named,
        case
            when getvariable('expected_tasks') is null then null
            else l.task_id is not null
        end as is_listed
    from tasks as t
    join run_slots as r using (run_key)
    left join task_trials as tt using (run_key, task_id)
    left join absent as a using (run_key, task_id)
    left join missing_tasks as m using (run_key, task_id)
    left join listed as l using (task_id)
)

select * from final;

create or replace view inventory_runs as
with

inventory as (
    select * from trial_inventory
),

final as (
    select
        run_key,
        run_id,
        max(slots_expected) as trial_slots,
        count(*) filter (where not is_missing_task) as tasks_present,
        case
            when getvariable('expected_tasks') is not null then len(list_distinct(getvariable('expected_tasks')))
            else getvariable('expected_count')
        end as tasks_expected,
        count(*) filter (where is_missing_task) as tasks_missing,
        -- records outside the --expect list, or tasks beyond --expect-count (these have no names)
        case
            when getvariable('expected_tasks') is not null then count(*) filter (where is_listed = false)
            when getvariable('expected_count') is not null
                then greatest(count(*) filter (where not is_missing_task) - getvariable('expected_count'), 0)
        end as tasks_unexpected,
        sum(trials_present) as trials_present,
        sum(slots_expected) as trial_slots_expected,
        sum(len(missing_slots)) filter (where is_missing_task) as trials_missing,
        sum(len(missing_slots)) filter (where not is_missing_task) as slots_missing_in_present_tasks
    from inventory
    group by run_key, run_id
)

select * from final;

create or replace view inventory_totals as
-- the counts behind the lists of the report's inventory section (which show at most a
-- thousand task ids each): missing tasks and trials, how many of those have no name
-- (--expect-count), tasks outside the --expect list, tasks short of their run's slots
select
    count(*) filter (where is_missing_task) as tasks_missing,
    coalesce(sum(len(missing_slots)) filter (where is_missing_task), 0) as trials_missing,
    count(*) filter (where is_missing_task and not is_named) as tasks_missing_unnamed,
    count(*) filter (where is_listed = false) as tasks_unexpected,
    count(*) filter (where not is_missing_task and len(missing_slots) > 0) as tasks_incomplete
from trial_inventory;
