-- attempt_facts: one row per kept timeout attempt with the facts the timeout classifier
--   (attempt_timeout_cause, docs/metrics.md) decides on: queue wait, waiting time inside the
--   run (waiting_s) and whether the limit was a working limit, time covered by
--   queued/waiting_for_slot events, the longest run of identical consecutive calls (its length,
--   name and arguments), gap statistics (count, mean of the first and last thirds), the last
--   agent event (type, name, status, time, whether it is a request still waiting, seconds until
--   the attempt ended), the harness's phase times, and the record's own
--   last_event/repeated_tool_calls.
-- Reads: stg_attempts, events, event_roles, phase_markers.
--
-- Event roles (reference/event_roles.sql): `phase` events are harness boundaries (agent
-- started, tests ended, ...; the ones that bound the agent's own phase are named in reference/phase_markers.sql, as the formats declare them) and `queue` events the
-- harness holding the attempt back; neither is a step of the agent. Gaps and the last event are judged on the
-- agent's own events only (`call`, `request`, `other`), so phases and queue events can
-- never make a run look sluggish or a wait look external; only `call` events (type
-- tool_call/tool) form a loop.
--
-- Speed: ordered evidence is gathered per attempt in one aggregation as lists and
-- sorted inside each list (list_sort). DuckDB's window functions over about one
-- partition per attempt, or ordered aggregates, were 5-10x slower here (bench/
-- classify-timeouts.mjs). For the same reason two calls are compared by a 64-bit hash
-- of (name, canonical args): a false match needs two consecutive calls of one attempt
-- whose hashes collide (about 1 in 10^19 per pair); name and args shown as evidence
-- are read back from the events.
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

timeout_event_rows as materialized (
    -- the events of the timeout attempts only, taken first: the role lookup below and the
    -- reads back of single events then touch these, not every event of the input
    select e.* from events as e semi join timeouts as t using (attempt_id)
),

timeout_events as not materialized (
    select
        e.attempt_id,
        e.seq,
        e.ts,
        epoch(e.ts) as ts_s,
        e.name,
        e.args,
        coalesce(r.role, 'other') as role,
        m.marks as phase_mark
    from timeout_event_rows as e
    left join event_roles as r on r.event_type = lower(trim(e.type))
    left join phase_markers as m on m.event_name = lower(e.name)
),

per_attempt as materialized (
    -- one pass over the events of each attempt, no sort across attempts: the calls and
    -- the agent's event times as lists sorted inside each attempt
    select
        attempt_id,
        count(*) filter (where role in ('call', 'request', 'other')) as agent_event_count,
        max(seq) filter (where role in ('call', 'request', 'other')) as last_event_seq,
        max(seq) filter (where role = 'request') as last_request_seq,
        -- the calls in trajectory order; any event between two calls neither extends nor breaks a run
        list_sort(list({'seq': seq, 'call_hash': hash(name, args)}) filter (where role = 'call')) as calls,
        -- the agent's event times in time order; the trailing gap to ended_at is not between two of them
        list_sort(list(ts_s) filter (where role in ('call', 'request', 'other') and ts is not null)) as agent_times,
        count(*) filter (where role = 'phase') as phase_events,
        min(ts) filter (where role = 'phase' and phase_mark = 'agent_start') as agent_started_at,
        min(ts) filter (where role = 'phase' and phase_mark = 'agent_end') as agent_ended_at,
        bool_or(role = 'queue') as has_queue_events
    from timeout_events
    group by attempt_id
),

call_runs as (
    -- run_starts: positions (1-based) of the calls that differ from the call before
    select
        attempt_id,
        calls,
        list_filter(
            range(1, len(calls) + 1),
            lambda i: i = 1 or calls[i].call_hash <> calls[i - 1].call_hash
        ) as run_starts
    from per_attempt
),

run_lengths as (
    select
        attempt_id,
        calls,
        run_starts,
        list_transform(
            range(1, len(run_starts) + 1),
            lambda j: coalesce(run_starts[j + 1], len(calls) + 1) - run_starts[j]
        ) as lengths
    from call_runs
),

longest_runs as (
    -- the longest run; on a tie the earliest (list_position finds the first)
    select
        attempt_id,
        len(calls) as call_count,
        list_max(lengths) as longest_run_calls,
        calls[run_starts[list_position(lengths, list_max(lengths))]].seq as longest_run_first_seq
    from run_lengths
),

gap_means as (
    -- n gaps between n + 1 sorted times; the k = floor(n/3) first gaps sum to
    -- t[k+1] - t[1] and the k last to t[n+1] - t[n+1-k], so their means need no list of gaps
    select
        attempt_id,
        gap_count,
        (agent_times[third + 1] - agent_times[1]) / nullif(third, 0) as first_third_gap_mean_s,
        (agent_times[gap_count + 1] - agent_times[gap_count + 1 - third]) / nullif(third, 0) as last_third_gap_mean_s
    from (
        select
            attempt_id,
            agent_times,
            greatest(len(agent_times) - 1, 0) as gap_count,
            greatest(len(agent_times) - 1, 0) // 3 as third
        from per_attempt
    )
),

queue_timelines as (
    -- only attempts with queued/waiting_for_slot events: every timed event in time order
    select
        attempt_id,
        list_sort(list({'ts_s': ts_s, 'seq': seq, 'is_queue': role = 'queue'})) as timeline
    from timeout_events
    where ts is not null
        and attempt_id in (select attempt_id from per_attempt where has_queue_events)
    group by attempt_id
),

queue_spans as (
    -- a queued event lasts until the next event of any kind, or until the attempt ended
    select
        q.attempt_id,
        list_sum(
            list_transform(
                range(1, len(q.timeline) + 1),
                lambda i: case
                    when q.timeline[i].is_queue
                        then coalesce(q.timeline[i + 1].ts_s, epoch(t.ended_at)) - q.timeline[i].ts_s
                    else 0
                end
            )
        ) as queued_event_s
    from queue_timelines as q
    join timeouts as t using (attempt_id)
),

run_calls as (
    -- the name and arguments of each longest run, read back from its first call
    select r.attempt_id, e.name, e.args
    from longest_runs as r
    join timeout_event_rows as e on e.attempt_id = r.attempt_id and e.seq = r.longest_run_first_seq
),

last_events as (
    select
        p.attempt_id,
        coalesce(p.last_request_seq = p.last_event_seq, false) as is_request,
        lower(trim(e.type)) as type,
        e.name,
        lower(trim(e.status)) as status,
        e.ts
    from per_attempt as p
    join timeout_event_rows as e on e.attempt_id = p.attempt_id and e.seq = p.last_event_seq
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
        run_call.name as longest_run_name,
        run_call.args as longest_run_args,
        coalesce(gm.gap_count, 0) as gap_count,
        gm.first_third_gap_mean_s,
        gm.last_third_gap_mean_s,
        le.type as last_event_type,
        le.name as last_event_name,
        le.status as last_event_status,
        le.ts as last_event_at,
        -- the last agent event, so no response came after it: still waiting when its status
        -- says so (pending, waiting, or a status saying it is under way), or when it is a
        -- request with no status at all; a request whose status names an outcome (ok,
        -- error, timeout, ...) had its answer
        coalesce(lower(trim(le.status)) in ('pending', 'waiting', 'in_progress', 'started', 'running', 'sent'), false)
            or (le.is_request and le.status is null) as is_waiting_request,
        epoch(t.ended_at) - epoch(le.ts) as last_event_age_s,
        coalesce(p.phase_events, 0) as phase_events,
        p.agent_started_at,
        p.agent_ended_at,
        -- what a record without events carries instead (seed format)
        t.last_event as declared_last_event,
        t.last_event_ts as declared_last_event_at,
        t.repeated_tool_calls as declared_repeated_calls
    from timeouts as t
    left join per_attempt as p using (attempt_id)
    left join last_events as le using (attempt_id)
    left join longest_runs as r using (attempt_id)
    left join run_calls as run_call using (attempt_id)
    left join gap_means as gm using (attempt_id)
    left join queue_spans as qs using (attempt_id)
)

select * from final;
