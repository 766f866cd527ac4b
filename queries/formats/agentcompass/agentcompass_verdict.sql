-- agentcompass_verdict: one row per run: AgentCompass's own verdict ("运行失败时"): a run with any
--   invalidated task has failed and has no formal value, only a reference value over the tasks
--   not invalidated. Either value is passes over evaluated trials, a pass being the benchmark's
--   own grade (`resolved`, else score >= 1), whatever denom's status: a timeout or a step limit
--   that the benchmark graded correct is a pass here. `errors` counts trials whose final
--   attempt carries an ERROR (and no FATAL), counted apart as AgentCompass does.
-- Reads: agentcompass_trials.
-- Empty when: agentcompass_trials is empty.
create or replace view agentcompass_verdict as
with

per_run as (
    select
        run_key,
        any_value(run_id) as run_id,
        count(distinct task_id) as tasks,
        count(distinct task_id) filter (where is_invalidated) as tasks_invalidated,
        count(*) as trials,
        count(*) filter (where observation = 'invalidated') as invalidated,
        count(*) filter (where observation = 'unavailable') as unavailable,
        count(*) filter (where observation = 'evaluated') as evaluated,
        count(*) filter (where severity = 'error') as errors,
        count(*) filter (where observation = 'evaluated' and is_pass) as passes
    from agentcompass_trials
    group by run_key
),

final as (
    select
        *,
        tasks_invalidated > 0 as evaluation_failed,
        case when tasks_invalidated = 0 then passes::double / nullif(evaluated, 0) end as value,
        case when tasks_invalidated > 0 then passes::double / nullif(evaluated, 0) end as reference_value
    from per_run
)

select * from final;
