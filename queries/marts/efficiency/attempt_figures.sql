-- attempt_figures: duration, agent and wall time, tokens, tool calls, cost per scope, over all
--   attempts and per attempt status.
-- Reads: scoped_attempts.
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
