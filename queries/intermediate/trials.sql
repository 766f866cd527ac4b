-- trials: one row per trial = (run, task, trial), a run being its run_id, agent and model
--   (run_key): its first attempt (lowest attempt number) and
--   final attempt (highest), what any attempt hit, the attempts it made (its final attempt
--   number: attempt 3 comes after 1 and 2, recorded or not), and its times: first start, last
--   end and the wall time between them (docs/metrics.md), and its first submission. A trial
--   whose first try is gone (a re-run's trial the original run holds no record of:
--   rerun_attempts) has the first try status 'missing', detail 'first try gone', fault
--   environment, instead of passing the re-run off as a first try.
-- Reads: attempts_classified, rerun_attempts.
create or replace view trials as
with

attempts as not materialized (
    -- read through by each use below (its columns only), not copied whole; with what each
    -- attempt hit, defined here once: a trial hit it when any of its attempts did
    select
        a.*,
        coalesce(g.is_first_gone, false) as is_first_gone,
        -- a first try that is gone was lost to the system, like a missing trial
        a.fault = 'environment' or coalesce(g.is_first_gone, false) as hit_environment,
        status = 'timeout' as hit_timeout,
        -- timeouts that did not pass verification anyway (denom audit, late passes counted)
        status = 'timeout' and not coalesce(is_late_pass, false) as hit_unverified_timeout,
        fault = 'task' as hit_invalid,
        fault = 'unknown' as hit_unrecognized
    from attempts_classified as a
    left join (select attempt_id, is_first_gone from rerun_attempts where is_first_gone) as g using (attempt_id)
),

-- Each trial's attempts are grouped once, by the trial, with the ids of its first attempt
-- (lowest attempt number) and its final one (highest); the two are then joined back by id. A
-- kept attempt's (run, task, trial, attempt) is its own (duplicates are dropped before, one
-- copy kept per key) and every attempt carries a number (1 by default), so each trial has
-- exactly one first and one final attempt. An attempt's columns are read by its id, not
-- carried through the grouping: over 14 M attempts the grouping of narrow columns and two
-- joins on an id took 35 s where telling trials of one attempt apart by a key hash first (two
-- semi joins of every attempt's row) took 73 s, and at 1 GB 1.4 s against 1.8 s
-- (docs/benchmarks.md).
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
        bool_or(hit_environment) as any_environment,
        bool_or(hit_timeout) as any_timeout,
        bool_or(hit_unverified_timeout) as any_unverified_timeout,
        bool_or(hit_invalid) as any_invalid,
        bool_or(hit_unrecognized) as any_unrecognized,
        -- trial wall time runs from the first start (queue time is not in it)
        min(started_at) as trial_started_at,
        max(ended_at) as trial_ended_at,
        epoch(max(ended_at)) - epoch(min(started_at)) as trial_wall_s,
        min(submitted_at) as first_submitted_at,
        arg_min(attempt_id, attempt) as first_id,
        arg_max(attempt_id, attempt) as final_id
    from attempts
    group by run_key, task_id, trial
),

final as (
    select
        nullif(f.run_id, '') as run_id,
        p.* exclude (first_id, final_id),
        f.attempt_id as first_attempt_id,
        case when f.is_first_gone then 'missing' else f.status end as first_status,
        case when f.is_first_gone then 'first try gone' else f.status_detail end as first_status_detail,
        case when f.is_first_gone then 'environment' else f.fault end as first_fault,
        case when not f.is_first_gone then f.timeout_cause end as first_timeout_cause,
        case when f.is_first_gone then false else f.is_late_pass end as first_is_late_pass,
        case when not f.is_first_gone then f.raw_status end as first_raw_status,
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
    join attempts as f on f.attempt_id = p.first_id
    join attempts as l on l.attempt_id = p.final_id
)

select * from final;
