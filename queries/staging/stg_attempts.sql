-- stg_attempts: one row per loaded attempt: status mapped (DESIGN section 3), duplicates marked
--   (section 4), durations in seconds (section 6); `agent` and `model` default to the run's
--   metadata (Terminal-Bench's run_metadata.json) when the record names none; the trials of a
--   format whose records carry no trial index (format_traits.trial_numbering 'start_order':
--   Harbor) numbered per task and run in started_at order.
-- Reads: run_metadata, attempts, status_alias, format_traits; getvariable('status_map').
-- status_map holds the --status-map pairs.
create or replace view stg_attempts as
with

metadata as (
    select * from run_metadata
),

run_defaults as (
    -- one row per run; two metadata records of one run: the first loaded that names each
    select
        run_id,
        min_by(agent, source_id) filter (where agent is not null) as agent,
        min_by(model, source_id) filter (where model is not null) as model
    from metadata
    where run_id is not null
    group by run_id
),

start_ordered as (
    -- the formats that write no trial index (Harbor: its n_attempts repeats are exchangeable),
    -- with the raw field that breaks a tie of starts (Harbor's trial_name)
    select format, trial_tiebreak from format_traits where trial_numbering = 'start_order'
),

start_trials as materialized (
    -- such a format's trials of a task in one run are numbered 0, 1, ... in started_at order,
    -- then by the tie-break field; two copies of one trial (same start and field) keep one
    -- number, so they collapse as duplicates (formats/harbor.ts)
    select
        a.attempt_id,
        (dense_rank() over (
            partition by a.format, a.run_id, a.task_id
            order by a.started_at nulls last, json_extract_string(a.extra, '$.' || o.trial_tiebreak) nulls last
        ) - 1)::integer as trial
    from attempts as a
    join start_ordered as o using (format)
),

loaded as not materialized (
    -- read through by each use below (its columns only), not copied whole
    select
        a.* exclude (fault, status_detail, extra) replace (
            coalesce(st.trial, a.trial) as trial,
            coalesce(a.agent, d.agent) as agent,
            coalesce(a.model, d.model) as model
        ),
        a.fault as declared_fault,
        a.status_detail as raw_status_detail,
        coalesce(a.run_id, '') as run_key,
        lower(trim(a.raw_status)) as status_key
    from attempts as a
    left join start_trials as st using (attempt_id)
    left join run_defaults as d on d.run_id = a.run_id
),

-- duplicates: the same (run, task, trial, attempt); keep the latest ended_at, else
-- the later line. Aggregates, not window functions: a window over millions of
-- one-row partitions is far slower than a hash aggregate and a join. Only the attempts
-- whose key shares its hash with another attempt's are grouped by the key itself:
-- equal keys hash equal, so every duplicate is among them (a collision of two
-- different keys only adds attempts to that exact grouping), and the rest, nearly
-- every attempt, are each the one copy of their key.
repeated_hashes as (
    select hash(run_key, task_id, trial, attempt) as key_hash
    from loaded
    group by key_hash
    having count(*) > 1
),

repeated as materialized (
    select attempt_id, run_key, task_id, trial, attempt, ended_at, line_hash
    from loaded
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

keyed as (
    select
        l.*,
        coalesce(m.is_kept_copy, true) as is_kept_copy,
        coalesce(m.is_last_copy, true) as is_last_copy
    from loaded as l
    left join copy_marks as m using (attempt_id)
),

mapped as (
    select
        k.*,
        coalesce(getvariable('status_map')[k.status_key], sa.status) as mapped_status,
        nullif(trim(k.grader_error), '') is not null as has_grader_error
    from keyed as k
    left join status_alias as sa on sa.alias = k.status_key
),

final as (
    select
        * exclude (is_kept_copy, is_last_copy, mapped_status),
        is_kept_copy as is_kept,
        case
            when is_kept_copy then null
            when not is_last_copy then 'identical'
            else 'differing'
        end as duplicate_kind,
        -- precedence: a grader failure makes the attempt aborted; a violated hard
        -- constraint turns a success into a failure; the status decides the rest
        case
            when has_grader_error then 'aborted'
            when mapped_status is null then 'unrecognized'
            when mapped_status = 'success' and constraint_ok = false then 'failure'
            else mapped_status
        end as status,
        case
            when has_grader_error then 'grader_error'
            when mapped_status = 'success' and constraint_ok = false then 'constraint_violation'
            else raw_status_detail
        end as status_detail,
        mapped_status = 'success' and constraint_ok = false as is_constraint_violation,
        -- verified anyway after the time limit: resolved, or full marks on a 0..1 score
        mapped_status = 'timeout' and not has_grader_error and (resolved or score >= 1) as is_late_pass,
        epoch(ended_at) - epoch(started_at) as duration_s,
        epoch(started_at) - epoch(submitted_at) as queue_wait_s
    from mapped
)

select * from final;
