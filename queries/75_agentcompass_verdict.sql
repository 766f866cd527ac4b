-- Defines: agentcompass_trials, one row per trial of AgentCompass attempts (format
--          'agentcompass'): its final attempt's severity and grade, and what AgentCompass
--          itself makes of it (seeds/003, "失败对分数的影响"): `invalidated` when any trial of
--          its task ended on a FATAL after retries (every observation of that task is left
--          out), else `evaluated` when the benchmark graded it, else `unavailable` (no grade:
--          AgentCompass never fills a missing observation with a failure or 0);
--          agentcompass_verdict, one row per run: AgentCompass's own verdict ("运行失败时"):
--          a run with any invalidated task has failed and has no formal value, only a
--          reference value over the tasks not invalidated. Either value is passes over
--          evaluated trials, a pass being the benchmark's own grade (`resolved`, else
--          score >= 1), whatever denom's status: a timeout or a step limit that the
--          benchmark graded correct is a pass here. `errors` counts trials whose final
--          attempt carries an ERROR (and no FATAL), counted apart as AgentCompass does.
-- Reads: trials, attempts (extra.agentcompass_severity, set by the agentcompass adapter).
create or replace view agentcompass_trials as
with

ac_attempts as (
    select
        attempt_id,
        json_extract_string(extra, '$.agentcompass_severity') as severity,
        resolved,
        score
    from attempts
    where format = 'agentcompass'
),

final_attempts as (
    select
        t.run_key,
        t.run_id,
        t.task_id,
        t.trial,
        a.severity,
        coalesce(a.resolved, a.score >= 1) as is_pass,
        a.resolved is not null or a.score is not null as is_graded
    from trials as t
    join ac_attempts as a on a.attempt_id = t.final_attempt_id
),

tasks as (
    select run_key, task_id, bool_or(severity = 'fatal') as is_invalidated
    from final_attempts
    group by run_key, task_id
),

final as (
    select
        f.*,
        k.is_invalidated,
        case
            when k.is_invalidated then 'invalidated'
            when f.is_graded then 'evaluated'
            else 'unavailable'
        end as observation
    from final_attempts as f
    join tasks as k using (run_key, task_id)
)

select * from final;

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
