-- trials: one row per trial = (run, task, trial): its first attempt (lowest attempt number) and
--   final attempt (highest), what any attempt hit, the attempts it made (its final attempt
--   number: attempt 3 comes after 1 and 2, recorded or not), and its times: first start, last
--   end and the wall time between them (DESIGN section 6), and its first submission.
-- Reads: attempts_classified.
create or replace view trials as
with

attempts as not materialized (
    -- read through by each use below (its columns only), not copied whole: a copy of every
    -- column, what DuckDB makes of a CTE read three times, cost more than the three joins
    -- to attempt_faults; arg_min/arg_max of the attempt instead of the two joins back held
    -- 250 MiB more at the peak (1 GB of JSONL)
    select * from attempts_classified
),

per_trial as (
    select
        run_key,
        task_id,
        trial,
        count(*) as attempts,
        min(attempt) as first_attempt,
        max(attempt) as final_attempt,
        -- a per-task summary record loads attempts 1 and n only: the number says how many ran
        max(attempt) as attempts_made,
        bool_or(fault = 'environment') as any_environment,
        bool_or(status = 'timeout') as any_timeout,
        -- timeouts that did not pass verification anyway (denom audit, late passes counted)
        bool_or(status = 'timeout' and not coalesce(is_late_pass, false)) as any_unverified_timeout,
        bool_or(fault = 'task') as any_invalid,
        bool_or(fault = 'unknown') as any_unrecognized,
        -- trial wall time runs from the first start (queue time is not in it)
        min(started_at) as trial_started_at,
        max(ended_at) as trial_ended_at,
        epoch(max(ended_at)) - epoch(min(started_at)) as trial_wall_s,
        min(submitted_at) as first_submitted_at
    from attempts
    group by run_key, task_id, trial
),

final as (
    select
        nullif(p.run_key, '') as run_id,
        p.*,
        f.attempt_id as first_attempt_id,
        f.status as first_status,
        f.status_detail as first_status_detail,
        f.fault as first_fault,
        f.timeout_cause as first_timeout_cause,
        f.is_late_pass as first_is_late_pass,
        f.raw_status as first_raw_status,
        l.attempt_id as final_attempt_id,
        l.status as final_status,
        l.status_detail as final_status_detail,
        l.fault as final_fault,
        l.timeout_cause as final_timeout_cause,
        l.is_late_pass as final_is_late_pass,
        l.raw_status as final_raw_status,
        coalesce(l.agent, f.agent) as agent,
        coalesce(l.model, f.model) as model,
        coalesce(l.category, f.category) as category,
        coalesce(l.difficulty, f.difficulty) as difficulty,
        coalesce(l.invocation, f.invocation) as invocation
    from per_trial as p
    join attempts as f
        on f.run_key = p.run_key and f.task_id = p.task_id and f.trial = p.trial and f.attempt = p.first_attempt
    join attempts as l
        on l.run_key = p.run_key and l.task_id = p.task_id and l.trial = p.trial and l.attempt = p.final_attempt
)

select * from final;
