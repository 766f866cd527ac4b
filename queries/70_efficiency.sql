-- Defines: scoped_attempts (kept attempts once per scope of their trial), attempt_figures
--          (duration, agent and wall time, tokens, tool calls, cost per scope, over all
--          attempts and per attempt status), efficiency (per scope: those figures with the
--          trial-level ones: cost per trial and per success, retries; DESIGN section 7) and
--          duration_by_status (the duration figures per attempt status).
-- Reads: attempts_classified, scoped_trial_outcomes.
--
-- Attempts per trial count the attempts a trial made by number (its final attempt number,
-- trial_outcomes.attempts_made): a per-task summary record loads attempts 1 and n only.
--
-- Duration = ended_at - started_at of one attempt (stg_attempts.duration_s), never a sum of
-- steps. Percentiles are nearest-rank: quantile_disc takes the ceil(q * n)-th smallest value.
-- A figure over values nobody recorded (no times, no cost) is NULL, and the attempts that
-- lack a value are counted, never read as 0.
create or replace view scoped_attempts as
with

attempts as (
    select * from attempts_classified
),

trial_scope_keys as (
    select scope_id, run_key, task_id, trial, attempts_made
    from scoped_trial_outcomes
    where basis = 'final' and attempts > 0
),

final as (
    select
        t.scope_id,
        a.*,
        -- an earlier attempt of a per-task summary record: the record's spend, tokens and
        -- calls are on its final attempt (formats/task-summary.ts), so none is missing here
        a.format = 'task-summary' and a.attempt < t.attempts_made as is_summary_earlier_attempt
    from attempts as a
    join trial_scope_keys as t using (run_key, task_id, trial)
)

select * from final;

create or replace view attempt_figures as
-- the per-attempt figures, per scope over all attempts (status NULL) and per attempt status.
-- Sums and means of fractional values go through DECIMAL: a sum of doubles depends on the
-- order the threads add them in, and the same runs must give the same figures every time.
select
    scope_id,
    status,
    grouping(status) = 1 as is_all_statuses,
    count(*) as attempts,
    count(duration_s) as timed_attempts,
    avg(duration_s::decimal(38, 6))::double as duration_mean,
    quantile_disc(duration_s, 0.5) as duration_p50,
    quantile_disc(duration_s, 0.95) as duration_p95,
    max(duration_s) as duration_max,
    sum(duration_s::decimal(38, 6))::double as agent_time_s,
    -- the span from first start to last end: concurrent attempts overlap in it, so it can be
    -- far below the agent time
    epoch(max(ended_at)) - epoch(min(started_at)) as wall_s,
    avg(llm_tokens::decimal(38, 6))::double as llm_tokens_mean,
    count(llm_tokens) as llm_tokens_attempts,
    avg(tool_call_count) as tool_calls_mean,
    count(tool_call_count) as tool_calls_attempts,
    -- every attempt's spend, retries included; NULL when no attempt recorded a cost
    sum(cost_usd::decimal(38, 12))::double as cost_usd_total,
    count(*) filter (where cost_usd is null and not is_summary_earlier_attempt) as cost_missing_attempts
from scoped_attempts
group by grouping sets ((scope_id), (scope_id, status));

create or replace view efficiency as
with

attempts as (
    select * from attempt_figures where is_all_statuses
),

outcomes as (
    select * from scoped_trial_outcomes
),

scopes as (
    select distinct scope_id from outcomes
),

recorded_trials as (
    -- trials with a record (expected-but-missing ones spent nothing), both bases side by side
    select
        scope_id,
        run_key,
        task_id,
        trial,
        any_value(attempts_made) as attempts_made,
        bool_or(basis = 'first' and is_success) as first_success,
        bool_or(basis = 'final' and is_success) as final_success
    from outcomes
    where attempts > 0
    group by all
),

per_trial as (
    select
        scope_id,
        count(*) as trials,
        count(*) filter (where final_success) as final_successes,
        sum(attempts_made) as attempts_made,
        count(*) filter (where attempts_made > 1) as trials_retried,
        -- rescued: the first attempt did not succeed, a later one did
        count(*) filter (where final_success and not first_success) as trials_rescued,
        count(*) filter (where final_success and attempts_made = 1) as zero_retry_successes
    from recorded_trials
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
        coalesce(t.trials_rescued, 0) as trials_rescued,
        t.zero_retry_successes::double / nullif(t.final_successes, 0) as zero_retry_success_share
    from scopes as s
    left join attempts as a using (scope_id)
    left join per_trial as t using (scope_id)
)

select * from final;

create or replace view duration_by_status as
with

figures as (
    select * from attempt_figures
),

scopes as (
    select distinct scope_id from figures
),

statuses as (
    -- the statuses seen anywhere, so that every scope lists the same rows (n/a where none)
    select distinct status from figures where not is_all_statuses
),

final as (
    select
        s.scope_id,
        st.status,
        coalesce(f.attempts, 0) as attempts,
        coalesce(f.timed_attempts, 0) as timed_attempts,
        f.duration_mean,
        f.duration_p50,
        f.duration_p95,
        f.duration_max
    from scopes as s
    cross join statuses as st
    left join figures as f on f.scope_id = s.scope_id and f.status = st.status and not f.is_all_statuses
)

select * from final;
