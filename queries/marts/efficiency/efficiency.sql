-- efficiency: per scope: the attempt figures with the trial-level ones: cost per trial and per
--   success, retries; docs/metrics.md.
-- Reads: attempt_figures, scoped_trial_outcomes.
create or replace view efficiency as
with

attempts as (
    select * from attempt_figures where is_all_statuses
),

outcomes as not materialized (
    -- read through by each use below (its columns only), not copied whole
    select * from scoped_trial_outcomes
),

scopes as (
    select distinct scope_id from outcomes
),

per_trial as (
    -- trials with a record (expected-but-missing ones spent nothing), counted on their final
    -- row; rescued (the first attempt did not succeed, a later one did) needs the first row
    -- too, but only where the trial made more than one attempt: with one, first is final
    select
        scope_id,
        count(*) filter (where basis = 'final') as trials,
        count(*) filter (where basis = 'final' and is_success) as final_successes,
        sum(attempts_made) filter (where basis = 'final') as attempts_made,
        count(*) filter (where basis = 'final' and attempts_made > 1) as trials_retried,
        count(*) filter (where basis = 'final' and is_success and attempts_made = 1) as zero_retry_successes
    from outcomes
    where attempts > 0
    group by scope_id
),

rescued as (
    select scope_id, count(*) filter (where final_success and not first_success) as trials_rescued
    from (
        select
            scope_id,
            bool_or(basis = 'first' and is_success) as first_success,
            bool_or(basis = 'final' and is_success) as final_success
        from outcomes
        where attempts > 1
        group by scope_id, run_key, task_id, trial
    )
    group by scope_id
),

final as (
    select
        s.scope_id,
        coalesce(t.trials, 0) as trials,
        coalesce(a.attempts, 0) as attempts,
        coalesce(a.timed_attempts, 0) as timed_attempts,
        a.duration_mean,
        a.duration_p50,
        a.duration_p95,
        a.duration_max,
        a.agent_time_s,
        a.wall_s,
        a.llm_tokens_mean,
        coalesce(a.llm_tokens_attempts, 0) as llm_tokens_attempts,
        a.tool_calls_mean,
        coalesce(a.tool_calls_attempts, 0) as tool_calls_attempts,
        a.cost_usd_total,
        coalesce(a.cost_missing_attempts, 0) as cost_missing_attempts,
        a.cost_usd_total / nullif(t.trials, 0) as cost_per_trial,
        -- cost per success = all spend, retries included / final successes
        a.cost_usd_total / nullif(t.final_successes, 0) as cost_per_success,
        coalesce(t.final_successes, 0) as final_successes,
        t.attempts_made::double / nullif(t.trials, 0) as attempts_per_trial,
        coalesce(t.trials_retried, 0) as trials_retried,
        coalesce(rs.trials_rescued, 0) as trials_rescued,
        t.zero_retry_successes::double / nullif(t.final_successes, 0) as zero_retry_success_share
    from scopes as s
    left join attempts as a using (scope_id)
    left join per_trial as t using (scope_id)
    left join rescued as rs using (scope_id)
)

select * from final;
