-- per_success: per scope and denominator of the chain, on the final basis: the spend, LLM tokens
--   and agent time of every attempt of the trials the denominator keeps (failed and retried
--   attempts included) over the final successes among those trials, each with its
--   task-clustered 95% interval (docs/metrics.md, "Per solved task").
-- Reads: trial_spend, scoped_trial_outcomes, denominators, kept_in, confidence_settings, ratio_interval.
--
-- Each figure is a ratio over the m tasks the denominator keeps a trial of: R = sum(num_i) /
-- sum(den_i), num_i the task's recorded spend (tokens, seconds), den_i its final successes.
-- Its cluster-robust standard error is sqrt(sum((num_i - R den_i)^2)) / sum(den_i) (Miller
-- 2024, "Adding Error Bars to Evals"; the delta method for a ratio, as clustered_intervals
-- gives the rates): the attempts and trials of one task enter as one residual. The interval
-- is R +- z SE, its lower end clipped at 0; none below 2 tasks (one residual is 0 by
-- construction) or without a success. A value an attempt did not record is never read as 0:
-- the sums hold what was recorded, the attempts without it are counted, and the figure is then
-- a lower bound (`*_lower_bound`); its interval is the recorded figure's.
create or replace view per_success as
with

settings as (
    select * from confidence_settings
),

trial_sums as (
    select * from trial_spend
),

trial_rows as (
    -- the final basis: the trial's outcome is its final attempt's, its spend every attempt's; an
    -- expected-but-missing trial has no attempt: nothing spent on record, nothing solved
    select
        o.scope_id,
        o.task_id,
        o.excluded_step,
        o.is_success,
        s.attempts,
        s.cost_usd,
        s.cost_missing_attempts,
        s.llm_tokens,
        s.llm_tokens_missing_attempts,
        s.agent_time_s,
        s.untimed_attempts
    from scoped_trial_outcomes as o
    left join trial_sums as s
        on s.run_key = o.run_key and s.task_id = o.task_id and s.trial = o.trial
    where o.basis = 'final'
),

by_step as (
    -- per task and the step that leaves its trials out, then summed into the denominators that
    -- keep them (as rate_cells counts)
    select
        scope_id,
        task_id,
        excluded_step,
        count(*) as trials,
        count(*) filter (where is_success) as successes,
        coalesce(sum(attempts), 0) as attempts,
        sum(cost_usd) as cost_usd,
        coalesce(sum(cost_missing_attempts), 0) as cost_missing_attempts,
        sum(llm_tokens) as llm_tokens,
        coalesce(sum(llm_tokens_missing_attempts), 0) as llm_tokens_missing_attempts,
        sum(agent_time_s) as agent_time_s,
        coalesce(sum(untimed_attempts), 0) as untimed_attempts
    from trial_rows
    group by scope_id, task_id, excluded_step
),

task_steps as (
    -- how many rows of by_step each task has in its scope: one for most tasks (the same step, or
    -- none, leaves out all its trials)
    select scope_id, task_id, count(*) as steps
    from by_step
    group by scope_id, task_id
),

by_task as (
    -- a task of one by_step row is that row in each denominator that keeps it, as it is; only the
    -- tasks of several are summed per denominator. On 1.4 M attempts (1.5 M rows here) grouping
    -- them all took half of this relation's time (docs/benchmarks.md).
    select
        b.scope_id,
        d.denominator,
        b.task_id,
        b.trials::hugeint as trials,
        b.successes::hugeint as successes,
        b.attempts,
        b.cost_usd,
        b.cost_missing_attempts,
        b.llm_tokens,
        b.llm_tokens_missing_attempts,
        b.agent_time_s,
        b.untimed_attempts
    from by_step as b
    join task_steps as t on t.scope_id = b.scope_id and t.task_id = b.task_id and t.steps = 1
    join denominators as d on kept_in(d.step, b.excluded_step)
    union all
    select
        b.scope_id,
        d.denominator,
        b.task_id,
        sum(b.trials) as trials,
        sum(b.successes) as successes,
        sum(b.attempts) as attempts,
        sum(b.cost_usd) as cost_usd,
        sum(b.cost_missing_attempts) as cost_missing_attempts,
        sum(b.llm_tokens) as llm_tokens,
        sum(b.llm_tokens_missing_attempts) as llm_tokens_missing_attempts,
        sum(b.agent_time_s) as agent_time_s,
        sum(b.untimed_attempts) as untimed_attempts
    from by_step as b
    join task_steps as t on t.scope_id = b.scope_id and t.task_id = b.task_id and t.steps > 1
    join denominators as d on kept_in(d.step, b.excluded_step)
    group by b.scope_id, d.denominator, b.task_id
),

totals as (
    -- every sum is a DECIMAL: the same figures whatever order the threads add in
    select
        scope_id,
        denominator,
        count(*) as tasks,
        sum(trials) as trials,
        sum(successes) as successes,
        sum(attempts) as attempts,
        sum(cost_usd) as cost_usd,
        sum(cost_missing_attempts) as cost_missing_attempts,
        sum(llm_tokens) as llm_tokens,
        sum(llm_tokens_missing_attempts) as llm_tokens_missing_attempts,
        sum(agent_time_s) as agent_time_s,
        sum(untimed_attempts) as untimed_attempts,
        sum(cost_usd)::double / nullif(sum(successes), 0) as cost_ratio,
        sum(llm_tokens)::double / nullif(sum(successes), 0) as tokens_ratio,
        sum(agent_time_s)::double / nullif(sum(successes), 0) as time_ratio
    from by_task
    group by scope_id, denominator
),

residuals as (
    -- sum((num_i - R den_i)^2) per figure; a task that recorded none of the value adds its
    -- recorded 0 (the figure is the recorded one, a lower bound, and says so)
    select
        k.scope_id,
        k.denominator,
        sum(((coalesce(k.cost_usd, 0)::double - t.cost_ratio * k.successes) ** 2)::decimal(38, 12))::double as cost_ss,
        sum(((coalesce(k.llm_tokens, 0)::double - t.tokens_ratio * k.successes) ** 2)::decimal(38, 6))::double as tokens_ss,
        sum(((coalesce(k.agent_time_s, 0)::double - t.time_ratio * k.successes) ** 2)::decimal(38, 6))::double as time_ss
    from by_task as k
    join totals as t using (scope_id, denominator)
    group by k.scope_id, k.denominator
),

figures as (
    select
        t.*,
        st.z,
        sqrt(r.cost_ss) / t.successes as cost_se,
        sqrt(r.tokens_ss) / t.successes as tokens_se,
        sqrt(r.time_ss) / t.successes as time_se
    from totals as t
    join residuals as r using (scope_id, denominator)
    cross join settings as st
),

scopes as (
    select distinct scope_id from scoped_trial_outcomes
),

final as (
    -- every scope lists every denominator of the chain, in its order; n/a (NULL) where it keeps
    -- no trial, no success, or nothing recorded
    select
        s.scope_id,
        d.denominator,
        d.step,
        coalesce(f.tasks, 0) as tasks,
        coalesce(f.trials, 0)::bigint as trials,
        coalesce(f.successes, 0)::bigint as successes,
        coalesce(f.attempts, 0)::bigint as attempts,
        f.cost_usd::double as cost_usd,
        coalesce(f.cost_missing_attempts, 0)::bigint as cost_missing_attempts,
        f.cost_ratio as cost_per_success_usd,
        ratio_interval(f.cost_ratio, f.cost_se, f.z, f.tasks) as cost_per_success_usd_ci95,
        coalesce(f.cost_usd is not null and f.cost_missing_attempts > 0, false) as cost_lower_bound,
        f.llm_tokens::double as llm_tokens,
        coalesce(f.llm_tokens_missing_attempts, 0)::bigint as llm_tokens_missing_attempts,
        f.tokens_ratio as llm_tokens_per_success,
        ratio_interval(f.tokens_ratio, f.tokens_se, f.z, f.tasks) as llm_tokens_per_success_ci95,
        coalesce(f.llm_tokens is not null and f.llm_tokens_missing_attempts > 0, false) as llm_tokens_lower_bound,
        f.agent_time_s::double as agent_time_s,
        coalesce(f.untimed_attempts, 0)::bigint as untimed_attempts,
        f.time_ratio as agent_time_per_success_s,
        ratio_interval(f.time_ratio, f.time_se, f.z, f.tasks) as agent_time_per_success_s_ci95,
        coalesce(f.agent_time_s is not null and f.untimed_attempts > 0, false) as agent_time_lower_bound
    from scopes as s
    cross join denominators as d
    left join figures as f on f.scope_id = s.scope_id and f.denominator = d.denominator
)

select * from final;
