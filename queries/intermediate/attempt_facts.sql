-- attempt_facts: one row per kept timeout attempt with the facts the timeout classifier
--   (attempt_timeout_cause, docs/metrics.md) decides on: queue wait, waiting time inside the
--   run (waiting_s) and whether the limit was a working limit, time covered by
--   queued/waiting_for_slot events, the longest run of identical consecutive calls (its length,
--   name and arguments: timeout_call_runs), gap statistics (count, mean of the first and last
--   thirds: timeout_gaps), the last agent event (type, name, status, time, whether it is a
--   request still waiting, seconds until the attempt ended), the harness's phase times, and
--   the record's own last_event/repeated_tool_calls.
-- Reads: stg_attempts, timeout_events, timeout_last_events, timeout_call_runs, timeout_gaps.
--
-- Event roles (reference/event_roles.sql): `phase` events are harness boundaries (agent
-- started, tests ended, ...; the ones that bound the agent's own phase are named in reference/phase_markers.sql, as the formats declare them) and `queue` events the
-- harness holding the attempt back; neither is a step of the agent. Gaps and the last event are judged on the
-- agent's own events only (`call`, `request`, `other`), so phases and queue events can
-- never make a run look sluggish or a wait look external; only `call` events (type
-- tool_call/tool) form a loop.
--
-- Memory: every step is a fixed-size aggregate, a window or a join, which spill past the
-- memory limit, and the ordered evidence (runs, gaps) and what is read from the events (the
-- last agent event, the longest run's first call) are taken in statements of their own
-- (timeout_call_runs, timeout_gaps, timeout_last_events). The lists per attempt this gathered
-- before did not spill: over 2 M timeout attempts they ran out of memory; one statement holding
-- both joins of the events beside the others did, over 7 M attempts (docs/benchmarks.md).
create or replace view attempt_facts as
with

timeouts as materialized (
    select
        attempt_id,
        started_at,
        ended_at,
        timeout_limit_s,
        queue_wait_s,
        -- time spent waiting inside the run (its total time minus its working time); a working
        -- limit counts working time only, so waiting never ran down its budget
        waiting_s,
        coalesce(lower(trim(status_detail)) = 'working_limit', false) as is_working_limit,
        last_event,
        last_event_ts,
        repeated_tool_calls
    from stg_attempts
    where is_kept and status = 'timeout'
),

queue_timelines as (
    -- only attempts with queued/waiting_for_slot events: every timed event in time order,
    -- with the time of the event after it
    select
        attempt_id,
        ts_s,
        role = 'queue' as is_queue,
        lead(ts_s) over (partition by attempt_id order by ts_s, seq, role = 'queue') as next_ts_s
    from timeout_events
    where ts is not null
        and attempt_id in (select attempt_id from timeout_last_events where has_queue_events)
),

queue_spans as (
    -- a queued event lasts until the next event of any kind, or until the attempt ended
    select
        q.attempt_id,
        sum(case when q.is_queue then coalesce(q.next_ts_s, epoch(t.ended_at)) - q.ts_s else 0 end) as queued_event_s
    from queue_timelines as q
    join timeouts as t using (attempt_id)
    group by q.attempt_id
),

final as (
    select
        t.attempt_id,
        t.timeout_limit_s,
        t.started_at,
        t.ended_at,
        t.queue_wait_s,
        t.waiting_s,
        t.is_working_limit,
        qs.queued_event_s,
        coalesce(p.agent_event_count, 0) as agent_event_count,
        coalesce(r.call_count, 0) as call_count,
        r.longest_run_calls,
        r.longest_run_name,
        r.longest_run_args,
        coalesce(gm.gap_count, 0) as gap_count,
        gm.first_third_gap_mean_s,
        gm.last_third_gap_mean_s,
        p.last_type as last_event_type,
        p.last_name as last_event_name,
        p.last_status as last_event_status,
        p.last_ts as last_event_at,
        -- the last agent event, so no response came after it: still waiting when its status
        -- says so (pending, waiting, or a status saying it is under way), or when it is a
        -- request with no status at all; a request whose status names an outcome (ok,
        -- error, timeout, ...) had its answer
        coalesce(lower(trim(p.last_status)) in ('pending', 'waiting', 'in_progress', 'started', 'running', 'sent'), false)
            or (p.is_request and p.last_status is null) as is_waiting_request,
        epoch(t.ended_at) - epoch(p.last_ts) as last_event_age_s,
        coalesce(p.phase_events, 0) as phase_events,
        p.agent_started_at,
        p.agent_ended_at,
        -- what a record without events carries instead (seed format)
        t.last_event as declared_last_event,
        t.last_event_ts as declared_last_event_at,
        t.repeated_tool_calls as declared_repeated_calls
    from timeouts as t
    left join timeout_last_events as p using (attempt_id)
    left join timeout_call_runs as r using (attempt_id)
    left join timeout_gaps as gm using (attempt_id)
    left join queue_spans as qs using (attempt_id)
)

select * from final;
