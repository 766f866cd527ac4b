-- timeout_call_runs: one row per kept timeout attempt that made a call: its calls, and the
--   longest run of identical consecutive calls (its length and the seq of its first call; on
--   a tie the earliest run), with that call's name and arguments (events). Calls are taken in
--   trajectory order (seq); any event between two calls neither extends nor breaks a run; two
--   calls are identical when their call_hash is (timeout_events).
-- Reads: timeout_events, events.
-- Empty when: timeout_events is empty.
--
-- Window functions and fixed-size aggregates only, which spill past the memory limit: the
-- lists per attempt this replaced did not (docs/benchmarks.md). A call's position among all
-- the attempt's calls minus its position among the calls with its hash is constant along a
-- run and grows across any other call, so (call_hash, island) names one run. The first call's
-- name and arguments are read here, not in attempt_facts: that statement, holding this join of
-- every event beside its other joins, ran out of memory over 7 M attempts (docs/benchmarks.md).
create or replace view timeout_call_runs as
with

numbered as (
    select
        attempt_id,
        seq,
        call_hash,
        row_number() over (partition by attempt_id order by seq, call_hash) as position
    from timeout_events
    where role = 'call'
),

islands as (
    select
        attempt_id,
        seq,
        call_hash,
        position,
        position - row_number() over (partition by attempt_id, call_hash order by seq) as island
    from numbered
),

runs as (
    select attempt_id, count(*) as calls, min(position) as first_position, min(seq) as first_seq
    from islands
    group by attempt_id, call_hash, island
),

longest as (
    select
        attempt_id,
        sum(calls)::bigint as call_count,
        max(calls) as longest_run_calls,
        arg_max(first_seq, {'calls': calls, 'earlier': -first_position}) as longest_run_first_seq
    from runs
    group by attempt_id
),

final as (
    select r.*, e.name as longest_run_name, e.args as longest_run_args
    from longest as r
    join events as e on e.attempt_id = r.attempt_id and e.seq = r.longest_run_first_seq
)

select * from final;
