-- inventory_runs: per run: tasks and trial slots expected against present.
-- Reads: trial_inventory; getvariable('expected_tasks'), getvariable('expected_count').
create or replace view inventory_runs as
with

inventory as (
    select * from trial_inventory
),

final as (
    select
        run_key,
        run_id,
        agent,
        model,
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
        sum(slots_missing) filter (where is_missing_task) as trials_missing,
        sum(slots_missing) filter (where not is_missing_task) as slots_missing_in_present_tasks
    from inventory
    group by run_key, run_id, agent, model
)

select * from final;
