-- attempt_timeout_cause: one row per kept timeout attempt: its timeout_cause (docs/metrics.md)
--   and the evidence behind it. Rules in order, the first that fires wins:
--     queue     queue wait (started_at - submitted_at) >= queue_share x timeout_limit_s,
--               or queued/waiting_for_slot events cover that share, or the time spent
--               waiting inside the run (waiting_s: rate limits, shared resources) does,
--               unless the limit was a working limit (its budget excludes waiting), or the harness's
--               phases show the agent phase never started (no agent_started or
--               agent_ended phase, and no event of the agent)
--     external  the last agent event is a request still waiting (status pending or
--               waiting, or an api/llm/http request or waiting_api_response with no
--               status saying it ended); without events, `last_event` names such a wait
--     loop      longest run of identical consecutive calls >= loop_min; without events,
--               `repeated_tool_calls` stands in
--     sluggish  >= 4 gaps (n) and the mean of the last floor(n/3) gaps >= sluggish_ratio x
--               the mean of the first floor(n/3) (and above 0)
--     unknown   none of the above, no events at all included
--   is_queue .. is_sluggish (and rules_fired) say which rules fired, so that a reader
--   sees a lower rule that lost on order; queue_reason says which queue condition
--   held; cause_order is the rule's place (1..5).
-- Reads: attempt_facts, event_roles; getvariable('queue_share'), getvariable('loop_min'),
--   getvariable('sluggish_ratio') (flags --queue-share, --loop-min, --sluggish-ratio).
create or replace view attempt_timeout_cause as
with

facts as (
    select *, agent_event_count > 0 as has_agent_events from attempt_facts
),

thresholds as (
    select
        coalesce(getvariable('queue_share'), 0.25)::double as queue_share,
        coalesce(getvariable('loop_min'), 5)::bigint as loop_min,
        coalesce(getvariable('sluggish_ratio'), 2)::double as sluggish_ratio
),

evidence as (
    -- events decide when the attempt has any agent event; the record's own fields
    -- (last_event, repeated_tool_calls) stand in only when it has none
    select
        attempt_id,
        timeout_limit_s,
        case
            when has_agent_events then 'events'
            when declared_last_event is not null or declared_repeated_calls is not null then 'fields'
            else 'none'
        end as evidence_source,
        agent_event_count,
        queue_wait_s,
        queue_wait_s / timeout_limit_s as queue_wait_share,
        queued_event_s,
        queued_event_s / timeout_limit_s as queued_event_share,
        waiting_s,
        -- a working limit's budget excludes waiting: no share of it
        case when not is_working_limit then waiting_s / timeout_limit_s end as waiting_share,
        -- the harness recorded its phases, but neither an agent phase nor any event of the agent
        phase_events > 0 and agent_started_at is null and agent_ended_at is null and not has_agent_events
            as agent_never_started,
        agent_started_at,
        agent_ended_at,
        epoch(agent_started_at) - epoch(started_at) as setup_s,
        epoch(agent_ended_at) - epoch(agent_started_at) as agent_phase_s,
        case when has_agent_events then last_event_type else declared_last_event end as last_event_type,
        case when has_agent_events then last_event_name end as last_event_name,
        case when has_agent_events then last_event_status end as last_event_status,
        case when has_agent_events then last_event_at else declared_last_event_at end as last_event_at,
        case
            when has_agent_events then is_waiting_request
            -- without events, `last_event` names the wait: a request type, or pending/waiting
            else lower(trim(declared_last_event)) in (select event_type from event_roles where role = 'request')
                or lower(trim(declared_last_event)) in ('pending', 'waiting')
        end as is_waiting_request,
        case
            when has_agent_events then last_event_age_s
            else epoch(ended_at) - epoch(declared_last_event_at)
        end as last_event_age_s,
        case when has_agent_events then coalesce(longest_run_calls, 0) else declared_repeated_calls end as repeated_call_count,
        case when has_agent_events then longest_run_name end as repeated_call_name,
        case when has_agent_events then longest_run_args end as repeated_call_args,
        gap_count,
        first_third_gap_mean_s,
        last_third_gap_mean_s,
        last_third_gap_mean_s / nullif(first_third_gap_mean_s, 0) as gap_ratio
    from facts
),

rules as (
    select
        e.*,
        -- which of the four queue conditions holds (the first, when several do)
        case
            when e.queue_wait_share >= t.queue_share then 'queue_wait'
            when e.queued_event_share >= t.queue_share then 'queued_events'
            when e.waiting_share >= t.queue_share then 'waiting'
            when e.agent_never_started then 'agent_never_started'
        end as queue_reason,
        coalesce(e.is_waiting_request, false) as is_external,
        coalesce(e.repeated_call_count >= t.loop_min, false) as is_loop,
        coalesce(
            e.gap_count >= 4
            and e.last_third_gap_mean_s > 0
            and e.last_third_gap_mean_s >= t.sluggish_ratio * e.first_third_gap_mean_s,
            false
        ) as is_sluggish
    from evidence as e
    cross join thresholds as t
),

fired as (
    select *, queue_reason is not null as is_queue from rules
),

causes as (
    select * from (values (1, 'queue'), (2, 'external'), (3, 'loop'), (4, 'sluggish'), (5, 'unknown'))
        as t (cause_order, timeout_cause)
),

named as (
    select
        *,
        case
            when is_queue then 'queue'
            when is_external then 'external'
            when is_loop then 'loop'
            when is_sluggish then 'sluggish'
            else 'unknown'
        end as timeout_cause,
        list_filter(
            [
                case when is_queue then 'queue' end,
                case when is_external then 'external' end,
                case when is_loop then 'loop' end,
                case when is_sluggish then 'sluggish' end
            ],
            lambda rule: rule is not null
        ) as rules_fired
    from fired
),

final as (
    select
        n.attempt_id,
        n.timeout_cause,
        c.cause_order,
        n.* exclude (attempt_id, timeout_cause)
    from named as n
    join causes as c using (timeout_cause)
)

select * from final;
