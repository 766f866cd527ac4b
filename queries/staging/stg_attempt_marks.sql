-- stg_attempt_marks: the few loaded attempts whose row in stg_attempts is not read off the
--   attempt alone: the trials of a format whose records carry no trial index
--   (format_traits.trial_numbering 'start_order'), numbered per task and run in
--   started_at order; the attempts of a trial holding one of a format whose records are
--   attempts another format grades (format_traits.attempt_numbering 'start_order':
--   a harness's passes), numbered in started_at order, one without a start last; and the
--   attempts that may be duplicates (docs/metrics.md), each with
--   whether it is the copy kept and the last copy of its line. Every other attempt is the one
--   copy of its key, kept, with its own trial. A run is its run_id, agent and model (run_key;
--   an attempt naming no agent or model takes its run's metadata's, stg_run_defaults).
-- Reads: attempts, format_traits, stg_run_defaults, stg_mark_reasons, run_key.
-- Empty when: stg_mark_reasons is empty.
--
-- Narrow on purpose: stg_attempts reads the attempts through and joins these marks, instead of
-- a copy of every attempt's 48 columns (on 1 GB of JSONL, 954,125 attempts: about 350 MiB of
-- TEMP table, more than half of it spilled past the session's memory limit).
create or replace view stg_attempt_marks as
with

start_ordered as (
    -- the formats that write no trial index (their repeats of a task are exchangeable), with
    -- the raw field that breaks a tie of starts (format_traits.trial_tiebreak)
    select format, trial_tiebreak from format_traits where trial_numbering = 'start_order'
),

start_trials as materialized (
    -- such a format's trials of a task in one run are numbered 0, 1, ... in started_at order,
    -- then by the tie-break field; two copies of one trial (same start and field) keep one
    -- number, so they collapse as duplicates
    select
        a.attempt_id,
        (dense_rank() over (
            partition by a.format, run_key(a.run_id, coalesce(a.agent, d.agent), coalesce(a.model, d.model)), a.task_id
            order by a.started_at nulls last, json_extract_string(a.extra, '$.' || o.trial_tiebreak) nulls last
        ) - 1)::integer as trial
    from attempts as a
    join start_ordered as o using (format)
    left join stg_run_defaults as d on d.run_id = a.run_id
),

recorded_keys as not materialized (
    -- read through by each use below (its columns only), not copied whole
    select
        a.attempt_id,
        a.format,
        run_key(a.run_id, coalesce(a.agent, d.agent), coalesce(a.model, d.model)) as run_key,
        a.task_id,
        coalesce(st.trial, a.trial) as trial,
        a.attempt,
        a.started_at,
        a.ended_at,
        a.line_hash
    from attempts as a
    left join stg_run_defaults as d on d.run_id = a.run_id
    left join start_trials as st using (attempt_id)
),

start_ordered_attempts as (
    -- the formats whose records are attempts of trials another format grades (a harness's
    -- passes, an evaluation report grading the last)
    select format from format_traits where attempt_numbering = 'start_order'
),

start_attempt_trials as (
    select distinct run_key, task_id, trial
    from recorded_keys
    where format in (select format from start_ordered_attempts)
),

start_attempts as materialized (
    -- a trial holding such an attempt: its attempts numbered 1, 2, ... by start, one without a
    -- start (the verdict) last, then as recorded; two copies of one attempt keep one number
    select
        k.attempt_id,
        (dense_rank() over (
            partition by k.run_key, k.task_id, k.trial
            order by k.started_at nulls last, k.attempt
        ))::integer as attempt
    from recorded_keys as k
    join start_attempt_trials as t using (run_key, task_id, trial)
),

keys as not materialized (
    select k.* exclude (attempt, format, started_at), coalesce(sa.attempt, k.attempt) as attempt
    from recorded_keys as k
    left join start_attempts as sa using (attempt_id)
),

-- duplicates: the same (run, task, trial, attempt); keep the latest ended_at, else
-- the later line. Aggregates, not window functions: a window over millions of
-- one-row partitions is far slower than a hash aggregate and a join. Only the attempts
-- whose key shares its hash with another attempt's are grouped by the key itself:
-- equal keys hash equal, so every duplicate is among them (a collision of two
-- different keys only adds attempts to that exact grouping), and the rest, nearly
-- every attempt, are each the one copy of their key.
repeated_hashes as (
    -- keys as recorded: stg_mark_reasons counted them; renumbered by start, counted here
    select key_hash
    from stg_mark_reasons
    where reason = 'repeated_key' and not exists (select 1 from stg_mark_reasons where reason = 'start_order')
    union all
    select hash(run_key, task_id, trial, attempt) as key_hash
    from keys
    where exists (select 1 from stg_mark_reasons where reason = 'start_order')
    group by key_hash
    having count(*) > 1
),

repeated as materialized (
    select attempt_id, run_key, task_id, trial, attempt, ended_at, line_hash
    from keys
    where hash(run_key, task_id, trial, attempt) in (select key_hash from repeated_hashes)
),

kept_ids as (
    select
        max_by(attempt_id, [coalesce(epoch_us(ended_at), -9223372036854775807), attempt_id]) as kept_id
    from repeated
    group by run_key, task_id, trial, attempt
),

last_copies as (
    select max(attempt_id) as last_copy_id
    from repeated
    group by run_key, task_id, trial, attempt, line_hash
),

copy_marks as (
    select
        r.attempt_id,
        k.kept_id is not null as is_kept_copy,
        c.last_copy_id is not null as is_last_copy
    from repeated as r
    left join kept_ids as k on k.kept_id = r.attempt_id
    left join last_copies as c on c.last_copy_id = r.attempt_id
),

final as (
    select
        attempt_id,
        st.trial,
        sa.attempt,
        m.is_kept_copy,
        m.is_last_copy
    from start_trials as st
    full join copy_marks as m using (attempt_id)
    full join start_attempts as sa using (attempt_id)
)

select * from final;
