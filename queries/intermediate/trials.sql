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

-- Most trials hold one attempt, which is then its first and its final: those are read off the
-- attempt itself, and only the attempts of the others are grouped by the trial and joined back
-- to their first and final attempt. A trial's key is told apart by a 64-bit hash first: equal
-- keys hash equal, so an attempt whose hash no other attempt shares is the one attempt of its
-- trial (a collision of two keys only sends both trials the exact way). On 1 GB of JSONL
-- (815,440 trials, 676,755 of one attempt) this took a third off the relation's CPU.
trial_hashes as (
    -- an attempt with a key part or attempt number NULL (none is loaded) goes the exact way too
    select
        hash(run_key, task_id, trial) as trial_hash,
        count(*) = 1 and bool_and(task_id is not null and trial is not null and attempt is not null) as is_single
    from attempts
    group by trial_hash
),

single as (
    select * from attempts
    where hash(run_key, task_id, trial) in (select trial_hash from trial_hashes where is_single)
),

several as materialized (
    select * from attempts
    where hash(run_key, task_id, trial) in (select trial_hash from trial_hashes where not is_single)
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
        bool_or(hit_environment) as any_environment,
        bool_or(hit_timeout) as any_timeout,
        bool_or(hit_unverified_timeout) as any_unverified_timeout,
        bool_or(hit_invalid) as any_invalid,
        bool_or(hit_unrecognized) as any_unrecognized,
        -- trial wall time runs from the first start (queue time is not in it)
        min(started_at) as trial_started_at,
        max(ended_at) as trial_ended_at,
        epoch(max(ended_at)) - epoch(min(started_at)) as trial_wall_s,
        min(submitted_at) as first_submitted_at
    from several
    group by run_key, task_id, trial
),

final as (
    -- a trial of one attempt: each aggregate of per_trial over that one attempt
    select
        nullif(run_id, '') as run_id,
        run_key,
        task_id,
        trial,
        1::bigint as attempts,
        attempt as first_attempt,
        attempt as final_attempt,
        attempt as attempts_made,
        hit_environment as any_environment,
        hit_timeout as any_timeout,
        hit_unverified_timeout as any_unverified_timeout,
        hit_invalid as any_invalid,
        hit_unrecognized as any_unrecognized,
        started_at as trial_started_at,
        ended_at as trial_ended_at,
        epoch(ended_at) - epoch(started_at) as trial_wall_s,
        submitted_at as first_submitted_at,
        attempt_id as first_attempt_id,
        case when is_first_gone then 'missing' else status end as first_status,
        case when is_first_gone then 'first try gone' else status_detail end as first_status_detail,
        case when is_first_gone then 'environment' else fault end as first_fault,
        case when not is_first_gone then timeout_cause end as first_timeout_cause,
        case when is_first_gone then false else is_late_pass end as first_is_late_pass,
        case when not is_first_gone then raw_status end as first_raw_status,
        attempt_id as final_attempt_id,
        status as final_status,
        status_detail as final_status_detail,
        fault as final_fault,
        timeout_cause as final_timeout_cause,
        is_late_pass as final_is_late_pass,
        raw_status as final_raw_status,
        agent,
        model,
        category,
        difficulty,
        invocation
    from single
    union all
    select
        nullif(f.run_id, '') as run_id,
        p.*,
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
    join several as f
        on f.run_key = p.run_key and f.task_id = p.task_id and f.trial = p.trial and f.attempt = p.first_attempt
    join several as l
        on l.run_key = p.run_key and l.task_id = p.task_id and l.trial = p.trial and l.attempt = p.final_attempt
)

select * from final;
