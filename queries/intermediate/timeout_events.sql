-- timeout_events: one row per event of a kept timeout attempt, with its role for the timeout
--   classifier (reference/event_roles.sql: call, request, other, phase, queue), the phase it
--   marks (reference/phase_markers.sql: agent_start, agent_end), its time in epoch seconds
--   and, for a call, a 64-bit hash of (name, canonical args). Two calls compare equal when
--   their hashes do (a false match needs two calls of one attempt whose hashes collide, about
--   1 in 10^19 per pair); the names, arguments and statuses shown as evidence are read back
--   from events by (attempt_id, seq).
-- Reads: stg_attempts, events, event_roles, phase_markers.
-- Empty when: events is empty.
--
-- Taken once, so that the relations over it (timeout_call_runs, timeout_gaps, attempt_facts)
-- each touch the timeout attempts' events only, not every event of the input, and each runs
-- as a statement of its own: one statement holding all of their sorts and hash tables at once
-- ran out of memory over 2 M timeout attempts (docs/benchmarks.md).
create or replace view timeout_events as
select
    e.attempt_id,
    e.seq,
    e.ts,
    epoch(e.ts) as ts_s,
    coalesce(r.role, 'other') as role,
    m.marks as phase_mark,
    case when coalesce(r.role, 'other') = 'call' then hash(e.name, e.args) end as call_hash
from events as e
semi join (select attempt_id from stg_attempts where is_kept and status = 'timeout') as t using (attempt_id)
left join event_roles as r on r.event_type = lower(trim(e.type))
left join phase_markers as m on m.event_name = lower(e.name);
