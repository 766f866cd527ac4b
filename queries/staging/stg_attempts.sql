-- stg_attempts: one row per loaded attempt: status mapped (docs/metrics.md), duplicates marked
--   (section 4), durations in seconds (section 6); `agent` and `model` default to the run's
--   metadata (stg_run_defaults) when the record names none, and with run_id
--   make the run (run_key); the trials of a
--   format whose records carry no trial index (format_traits.trial_numbering 'start_order')
--   numbered per task and run in started_at order, and the attempts of a trial holding
--   one of format_traits.attempt_numbering 'start_order' numbered in started_at order. An
--   attempt whose status a score decided takes the status the score rule gives it
--   (stg_score_rule: --success-threshold, or `unscored` in a run off its format's scale) as
--   if the record had written it; its score is a passing one for a late pass by the same rule
--   (>= --success-threshold; none in a run off its scale; else full marks, >= 1).
-- Reads: stg_run_defaults, attempts, stg_attempt_marks, stg_score_rule, format_traits, status_alias, run_key; getvariable('status_map'), getvariable('success_threshold').
-- status_map holds the --status-map pairs.
-- Not materialized on big inputs: every loaded attempt again: its readers read the attempts through, each its own columns.
create or replace view stg_attempts as
with

off_scale_keys as (
    select distinct run_key from stg_score_rule where is_off_scale
),

loaded as (
    select
        a.* exclude (fault, status_detail, extra) replace (
            coalesce(m.trial, a.trial) as trial,
            coalesce(m.attempt, a.attempt) as attempt,
            coalesce(a.agent, d.agent) as agent,
            coalesce(a.model, d.model) as model,
            coalesce(sr.raw_status, a.raw_status) as raw_status
        ),
        a.fault as declared_fault,
        coalesce(sr.status_detail, a.status_detail) as raw_status_detail,
        run_key(a.run_id, coalesce(a.agent, d.agent), coalesce(a.model, d.model)) as run_key,
        lower(trim(coalesce(sr.raw_status, a.raw_status))) as status_key,
        -- an attempt without a mark is the one copy of its key
        coalesce(m.is_kept_copy, true) as is_kept_copy,
        coalesce(m.is_last_copy, true) as is_last_copy,
        -- a passing score for a late pass, under the rule that decides the run's other scores
        case
            when ft.score_scale is not null and getvariable('success_threshold') is not null then a.score >= getvariable('success_threshold')
            when os.run_key is not null then false
            else a.score >= 1
        end as is_passing_score
    from attempts as a
    left join stg_attempt_marks as m using (attempt_id)
    left join stg_run_defaults as d on d.run_id = a.run_id
    left join stg_score_rule as sr using (attempt_id)
    left join format_traits as ft on ft.format = a.format
    left join off_scale_keys as os on os.run_key = run_key(a.run_id, coalesce(a.agent, d.agent), coalesce(a.model, d.model))
),

mapped as (
    select
        k.*,
        coalesce(getvariable('status_map')[k.status_key], sa.status) as mapped_status,
        nullif(trim(k.grader_error), '') is not null as has_grader_error
    from loaded as k
    left join status_alias as sa on sa.alias = k.status_key
),

final as (
    select
        * exclude (is_kept_copy, is_last_copy, mapped_status, is_passing_score),
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
        -- verified anyway after the time limit: resolved, or a passing score (full marks on a 0..1
        -- score, or >= --success-threshold)
        mapped_status = 'timeout' and not has_grader_error and (resolved or is_passing_score) as is_late_pass,
        epoch(ended_at) - epoch(started_at) as duration_s,
        epoch(started_at) - epoch(submitted_at) as queue_wait_s
    from mapped
)

select * from final;
