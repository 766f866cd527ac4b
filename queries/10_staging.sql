-- Defines: stg_attempts, one row per loaded attempt: status mapped (DESIGN section 3),
--          duplicates marked (section 4), durations in seconds (section 6).
-- Reads: attempts, status_alias, getvariable('status_map') (--status-map pairs).
create or replace view stg_attempts as
with

loaded as (
    select
        a.* exclude (fault, status_detail),
        a.fault as declared_fault,
        a.status_detail as raw_status_detail,
        coalesce(a.run_id, '') as run_key,
        lower(trim(a.raw_status)) as status_key
    from attempts as a
),

keyed as (
    select
        *,
        -- duplicates: the same (run, task, trial, attempt); keep the latest ended_at, else the later line
        row_number() over (
            partition by run_key, task_id, trial, attempt
            order by ended_at desc nulls last, attempt_id desc
        ) as keep_rank,
        row_number() over (
            partition by run_key, task_id, trial, attempt, line_hash
            order by attempt_id desc
        ) as copy_rank
    from loaded
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
        * exclude (keep_rank, copy_rank, mapped_status),
        keep_rank = 1 as is_kept,
        case
            when keep_rank = 1 then null
            when copy_rank > 1 then 'identical'
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
