-- agentcompass_trials: one row per trial of AgentCompass attempts (the formats whose own views
--   these are: format_traits.own_views 'agentcompass'): its
--   final attempt's severity and grade, and what AgentCompass itself makes of it (its error-handling page,
--   "失败对分数的影响"): `invalidated` when any trial of its task ended on a FATAL after retries (every
--   observation of that task is left out), else `evaluated` when the benchmark graded it, else
--   `unavailable` (no grade: AgentCompass never fills a missing observation with a failure or
--   0).
-- Reads: attempts, trials, format_traits.
-- attempts.extra.agentcompass_severity is set by the agentcompass adapter.
create or replace view agentcompass_trials as
with

ac_attempts as (
    select
        attempt_id,
        json_extract_string(extra, '$.agentcompass_severity') as severity,
        resolved,
        score
    from attempts
    semi join (select format from format_traits where own_views = 'agentcompass') as f using (format)
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
