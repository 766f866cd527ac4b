-- run_reruns: the runs whose attempts are further attempts of another run's trials (a re-run: a
--   second job over the first job's errored trials), one row per re-run run (rerun_key) with the
--   run it re-runs (original_key) and how that is known (recognised_by):
--   - 'named': --rerun-of RERUN=ORIGINAL names the two run_ids;
--   - 'errored_trials': of a format declaring rerun_recognition 'errored_trials', the
--     later run has the agent, model and benchmark (format and category) of exactly one earlier
--     run, its first attempt started at or after that run's last attempt ended, and every task
--     it holds is one whose trials the earlier run errored on (final attempt aborted), with no
--     more trials than the earlier run errored there.
--   One level: a run that is itself a re-run is never another's original, and a named pair
--   overrides what was recognised for its re-run.
--   Under --run-per-file (recognise_reruns false) every file is its own run: none is recognised.
-- Reads: stg_attempts, loaded_runs; getvariable('reruns') (a list of {rerun, original} run_ids: --rerun-of),
--   getvariable('recognise_reruns').
create or replace view run_reruns as
with

kept as (
    select run_key, task_id, trial, attempt, status
    from stg_attempts
    where is_kept
),

candidates as (
    -- a later run of the same agent, model and benchmark that began once the earlier one was over
    select r.run_key as rerun_key, o.run_key as original_key
    from loaded_runs as r
    join loaded_runs as o
        on o.run_key <> r.run_key
        and o.agent is not distinct from r.agent
        and o.model is not distinct from r.model
        and o.benchmark = r.benchmark
        and r.first_started_at >= o.last_ended_at
    where r.recognisable and o.recognisable and coalesce(getvariable('recognise_reruns'), true)
),

trial_finals as (
    -- the trials of the runs in a candidate pair, each with whether its last attempt errored
    select run_key, task_id, trial, arg_max(status, attempt) = 'aborted' as is_errored
    from kept
    where run_key in (select rerun_key from candidates union select original_key from candidates)
    group by run_key, task_id, trial
),

task_trials as (
    select run_key, task_id, count(*) as trials, count(*) filter (where is_errored) as errored_trials
    from trial_finals
    group by run_key, task_id
),

uncovered as (
    -- a pair where a task of the later run is not one the earlier run errored on as many times
    select distinct c.rerun_key, c.original_key
    from candidates as c
    join task_trials as r on r.run_key = c.rerun_key
    left join task_trials as o on o.run_key = c.original_key and o.task_id = r.task_id
    where coalesce(o.errored_trials, 0) < r.trials
),

covered as (
    select c.*
    from candidates as c
    anti join uncovered as u on u.rerun_key = c.rerun_key and u.original_key = c.original_key
),

recognised as (
    -- exactly one earlier run fits
    select rerun_key, any_value(original_key) as original_key, 'errored_trials' as recognised_by
    from covered
    group by rerun_key
    having count(*) = 1
),

named as (
    -- --rerun-of RERUN=ORIGINAL, by run_id; a run_id of several runs (agents, models) names each
    -- of them with the original of the same agent and model
    select r.run_key as rerun_key, o.run_key as original_key, 'named' as recognised_by
    from (select unnest(coalesce(getvariable('reruns'), [])) as pair) as p
    join loaded_runs as r on r.run_id = p.pair.rerun
    join loaded_runs as o
        on o.run_id = p.pair.original
        and o.agent is not distinct from r.agent
        and o.model is not distinct from r.model
),

chosen as (
    select * from named
    union all
    select * from recognised where rerun_key not in (select rerun_key from named)
),

final as (
    select
        c.rerun_key,
        r.run_id as rerun_run_id,
        c.original_key,
        o.run_id as original_run_id,
        c.recognised_by
    from chosen as c
    join loaded_runs as r on r.run_key = c.rerun_key
    join loaded_runs as o on o.run_key = c.original_key
    -- one level: an original that is itself a re-run is left as it is
    where c.original_key not in (select rerun_key from chosen)
)

select * from final;
