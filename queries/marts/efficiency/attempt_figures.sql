-- attempt_figures: duration, agent and wall time, tokens, tool calls, cost per scope, over all
--   attempts and per attempt status.
-- Reads: scoped_attempts.
--
-- The per-attempt figures, per scope over all attempts (status NULL) and per attempt status.
-- Sums and means of fractional values go through DECIMAL: a sum of doubles depends on the
-- order the threads add them in, and the same runs must give the same figures every time.
-- Percentiles are nearest-rank: the ceil(q * n)-th smallest of the n timed durations (what
-- quantile_disc gives), found by ranking the durations in a sort, which spills past the memory
-- limit; quantile_disc holds every duration of a group in memory (on 14 M attempts its two
-- percentiles took the process from 0.6 to 1.3 GiB). The rank is worked out in whole numbers,
-- ceil(n / 2) = (n + 1) // 2 and ceil(95 n / 100) = (95 n + 99) // 100: the same ranks as
-- ceil(0.5 * n) and ceil(0.95 * n), whose DECIMAL arithmetic on every attempt took two of this
-- relation's three seconds on 1.4 M attempts (docs/benchmarks.md).
create or replace view attempt_figures as
with

figures as (
    select
        scope_id,
        status,
        grouping(status) = 1 as is_all_statuses,
        count(*) as attempts,
        count(duration_s) as timed_attempts,
        avg(duration_s::decimal(38, 6))::double as duration_mean,
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
    group by grouping sets ((scope_id), (scope_id, status))
),

ranked as (
    -- each timed attempt's rank by duration (from 1) among its scope's and among its scope and
    -- status's timed attempts, with their counts
    select
        scope_id,
        status,
        duration_s,
        row_number() over (partition by scope_id order by duration_s) as rank_in_scope,
        count(*) over (partition by scope_id) as timed_in_scope,
        row_number() over (partition by scope_id, status order by duration_s) as rank_in_status,
        count(*) over (partition by scope_id, status) as timed_in_status
    from scoped_attempts
    where duration_s is not null
),

percentiles as (
    select
        scope_id,
        status,
        grouping(status) = 1 as is_all_statuses,
        case
            when grouping(status) = 1 then max(duration_s) filter (where rank_in_scope = (timed_in_scope + 1) // 2)
            else max(duration_s) filter (where rank_in_status = (timed_in_status + 1) // 2)
        end as duration_p50,
        case
            when grouping(status) = 1 then max(duration_s) filter (where rank_in_scope = (95 * timed_in_scope + 99) // 100)
            else max(duration_s) filter (where rank_in_status = (95 * timed_in_status + 99) // 100)
        end as duration_p95
    from ranked
    group by grouping sets ((scope_id), (scope_id, status))
),

final as (
    -- no timed attempt: no percentile (NULL)
    select
        f.scope_id,
        f.status,
        f.is_all_statuses,
        f.attempts,
        f.timed_attempts,
        f.duration_mean,
        p.duration_p50,
        p.duration_p95,
        f.duration_max,
        f.agent_time_s,
        f.wall_s,
        f.llm_tokens_mean,
        f.llm_tokens_attempts,
        f.tool_calls_mean,
        f.tool_calls_attempts,
        f.cost_usd_total,
        f.cost_missing_attempts
    from figures as f
    left join percentiles as p
        on p.scope_id = f.scope_id and p.is_all_statuses = f.is_all_statuses and p.status is not distinct from f.status
)

select * from final;
