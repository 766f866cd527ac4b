-- Defines: attempt_timeout_cause (attempt_id, timeout_cause), for every kept timeout attempt
--          (DESIGN section 5). Rules in order, the first that fires wins:
--          queue, external, loop, sluggish, unknown.
-- Reads: stg_attempts; thresholds getvariable('queue_share'), getvariable('loop_min').
-- NOTE: the event-based evidence (issue 3) is not here yet; this version uses the
--       attempt's own fields only (queue wait, last_event, repeated_tool_calls).
create or replace view attempt_timeout_cause as
with

timeouts as (
    select * from stg_attempts where is_kept and status = 'timeout'
),

final as (
    select
        attempt_id,
        case
            when queue_wait_s >= coalesce(getvariable('queue_share'), 0.25) * timeout_limit_s then 'queue'
            when lower(trim(last_event)) in (
                'waiting_api_response', 'api_request', 'llm_request', 'http_request', 'pending', 'waiting'
            ) then 'external'
            when repeated_tool_calls >= coalesce(getvariable('loop_min'), 5) then 'loop'
            else 'unknown'
        end as timeout_cause
    from timeouts
)

select * from final;
