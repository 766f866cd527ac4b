-- timeout_last_events: one row per kept timeout attempt with an event (timeout_events): its
--   agent's own events (roles call, request, other) counted, the seq of the last of them and of
--   its last request, its phase events (count, the first agent_start and agent_end times),
--   whether the harness held it in a queue (a queue event), and its last agent event read from
--   events (lower-cased type and status, name, time) with whether that event is its last
--   request (is_request); those five NULL without an agent event.
-- Reads: timeout_events, events.
-- Empty when: timeout_events is empty.
--
-- A statement of its own, not a part of attempt_facts: that statement, holding this join of
-- every event beside its other joins, ran out of memory over 7 M attempts (docs/benchmarks.md).
create or replace view timeout_last_events as
with

per_attempt as (
    -- counts and extremes per attempt: fixed-size states
    select
        attempt_id,
        count(*) filter (where role in ('call', 'request', 'other')) as agent_event_count,
        max(seq) filter (where role in ('call', 'request', 'other')) as last_event_seq,
        max(seq) filter (where role = 'request') as last_request_seq,
        count(*) filter (where role = 'phase') as phase_events,
        min(ts) filter (where role = 'phase' and phase_mark = 'agent_start') as agent_started_at,
        min(ts) filter (where role = 'phase' and phase_mark = 'agent_end') as agent_ended_at,
        bool_or(role = 'queue') as has_queue_events
    from timeout_events
    group by attempt_id
),

final as (
    select
        p.*,
        case when e.attempt_id is not null then coalesce(p.last_request_seq = p.last_event_seq, false) end as is_request,
        lower(trim(e.type)) as last_type,
        e.name as last_name,
        lower(trim(e.status)) as last_status,
        e.ts as last_ts
    from per_attempt as p
    left join events as e on e.attempt_id = p.attempt_id and e.seq = p.last_event_seq
)

select * from final;
