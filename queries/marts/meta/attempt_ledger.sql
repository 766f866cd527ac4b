-- attempt_ledger: the trials planned and the attempts observed (one row): planned_trials (every
--   trial in `total`: recorded, and expected or owed with no record), recorded and missing
--   trials, observed attempts (kept), dropped attempts (duplicates of a kept one), trials whose
--   first try is gone (rerun_attempts), and the re-runs folded in as further attempts
--   (run_reruns): each re-run's run_id, the run it re-runs, how that is known, its attempts and
--   the trials they reached, and the attempts it owes with no record (its metadata's or log's
--   count, less the trials it recorded); and the --rerun-of pairs whose run_ids match no loaded
--   run (unmatched).
-- Reads: trials, missing_trials, attempt_faults, attempts, rerun_attempts, run_reruns, owed_trials, named_run_keys;
--   getvariable('reruns').
create or replace view attempt_ledger as
with

rerun_figures as (
    select
        rerun_key,
        count(*) as attempts,
        count(distinct (task_id, trial)) as trials,
        count(distinct (task_id, trial)) filter (where is_first_gone) as first_gone
    from rerun_attempts
    group by rerun_key
),

rerun_owed as (
    -- what a re-run announced (its metadata's trial count): a count for the run, or per task
    select k.run_key as rerun_key, sum(o.trials) as owed
    from (select run_id, task_id, max(coalesce(trials, 1)) as trials from owed_trials group by run_id, task_id) as o
    join named_run_keys as k using (run_id)
    where k.run_key in (select rerun_key from run_reruns)
    group by k.run_key
),

reruns as (
    select list(
        struct_pack(
            run := coalesce(r.rerun_run_id, 'default run'),
            rerun_of := coalesce(r.original_run_id, 'default run'),
            recognised_by := r.recognised_by,
            attempts := coalesce(f.attempts, 0),
            trials := coalesce(f.trials, 0),
            first_tries_gone := coalesce(f.first_gone, 0),
            owed_without_record := greatest(coalesce(o.owed, 0) - coalesce(f.trials, 0), 0)
        )
        order by r.rerun_run_id
    ) as reruns
    from run_reruns as r
    left join rerun_figures as f using (rerun_key)
    left join rerun_owed as o using (rerun_key)
),

unmatched as (
    -- a named pair is matched when it made a row of run_reruns
    select list(p.pair.rerun || '=' || p.pair.original order by p.pair.rerun) as unmatched
    from (select unnest(coalesce(getvariable('reruns'), [])) as pair) as p
    where not exists (
        select 1 from run_reruns as r
        where r.rerun_run_id = p.pair.rerun and r.original_run_id = p.pair.original and r.recognised_by = 'named'
    )
),

counts as (
    -- the row counts in one aggregate over a union (one relation), not a scalar subquery each:
    -- ten subqueries in one SELECT are ten relations cross-joined, whose join order DuckDB
    -- searched for about 25 ms of a small report's planning (docs/benchmarks.md)
    select
        count(*) filter (where relation = 'trials') as recorded_trials,
        count(*) filter (where relation = 'missing_trials') as missing_trials,
        count(*) filter (where relation = 'attempt_faults') as observed_attempts,
        count(*) filter (where relation = 'attempts') as loaded_attempts
    from (
        select 'trials' as relation from trials
        union all
        select 'missing_trials' from missing_trials
        union all
        select 'attempt_faults' from attempt_faults
        union all
        select 'attempts' from attempts
    )
),

final as (
    select
        c.recorded_trials + c.missing_trials as planned_trials,
        c.recorded_trials,
        c.missing_trials,
        -- attempt_faults holds one row per kept attempt; the rest of the loaded ones were dropped
        c.observed_attempts,
        c.loaded_attempts - c.observed_attempts as dropped_attempts,
        coalesce(f.first_gone, 0)::bigint as first_tries_gone,
        coalesce(r.reruns, []) as reruns,
        coalesce(u.unmatched, []) as unmatched
    from counts as c
    cross join (select sum(first_gone) as first_gone from rerun_figures) as f
    cross join reruns as r
    cross join unmatched as u
)

select * from final;
