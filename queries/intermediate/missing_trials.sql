-- missing_trials: the trials expected with no record (docs/metrics.md: in total, removed as
--   environment): those --expect and --expect-count name, and those a run owes (owed_trials)
--   with no record: promised by its log (promised_by 'run_log': its sample ids x epochs) or by
--   its own metadata ('run_metadata': a trial count, or tasks x trials per task).
--   Few, or none; trial_outcomes adds them to the recorded trials. What a re-run run (run_reruns)
--   owes are further attempts of the original's trials, not trials: never missing trials here
--   (attempt_ledger counts the ones with no record).
-- Reads: trials, owed_trials, run_logs, named_run_keys, run_reruns; getvariable('expected_tasks'), getvariable('expected_count')
--   (a VARCHAR list, an integer: --expect, --expect-count).
-- Empty when: owed_trials is empty, getvariable('expected_tasks') is null, getvariable('expected_count') is null.
-- is_named is false for the tasks --expect-count adds without knowing their names.
create or replace view missing_trials as
with

recorded as not materialized (
    -- each use reading its own columns: a copy of every column (what DuckDB makes of a CTE
    -- read more than once) cost more than the scans
    select * from trials
),

expecting as (
    -- whether any trial can be expected or announced at all: without --expect,
    -- --expect-count or a run announcing its trials, the runs and their slots below are
    -- never read, and are not computed
    select
        getvariable('expected_tasks') is not null
            or getvariable('expected_count') is not null
            or exists (select 1 from owed_trials where promised_by = 'run_metadata') as is_expecting
),

run_slots as (
    -- the trial numbers a run used: an expected task owes the run one trial per slot;
    -- with nothing loaded, the one default run with the default trial 0
    select distinct run_key, trial from recorded where (select is_expecting from expecting)
    union all
    select '' as run_key, 0 as trial where not exists (select 1 from recorded)
),

runs as (
    select
        s.run_key,
        any_value(nullif(p.run_id, '')) as run_id,
        count(distinct p.task_id) as tasks_seen,
        -- a missing trial takes the run's agent and model when the run has only one
        case when count(distinct p.agent) = 1 then max(p.agent) end as agent,
        case when count(distinct p.model) = 1 then max(p.model) end as model,
        case when count(distinct p.invocation) = 1 then max(p.invocation) end as invocation
    from (select distinct run_key from run_slots) as s
    left join recorded as p using (run_key)
    group by s.run_key
),

listed as (
    select distinct unnest(getvariable('expected_tasks')) as task_id
),

named as (
    -- --expect FILE: a listed task with no record in a run
    select r.run_key, l.task_id, true as is_named
    from runs as r
    cross join listed as l
    where not exists (select 1 from recorded as p where p.run_key = r.run_key and p.task_id = l.task_id)
),

unnamed as (
    -- --expect-count N: a run short of N tasks owes the rest, whose names nobody knows
    select run_key, '(unnamed ' || n || ')' as task_id, false as is_named
    from (
        select run_key, unnest(range(1, greatest(getvariable('expected_count') - tasks_seen, 0) + 1)) as n
        from runs
        where getvariable('expected_count') is not null
    )
),

announced as (
    -- the trials a run's metadata says it owes (a trial count, or tasks x trials per
    -- task); a task announced twice (two copies of a file) owes the larger count
    select coalesce(k.run_key, '') as run_key, o.run_id, o.task_id, max(o.trials) as trials
    from owed_trials as o
    left join named_run_keys as k using (run_id)
    where o.promised_by = 'run_metadata'
        and coalesce(k.run_key, '') not in (select rerun_key from run_reruns)
    group by all
),

announced_named as (
    -- an announced task owes trials 0..n-1: each one with no record is missing
    select a.run_key, a.run_id, a.task_id, t.trial, true as is_named
    from announced as a
    cross join unnest(range(a.trials)) as t (trial)
    where a.task_id is not null
        and not exists (
            select 1 from recorded as p where p.run_key = a.run_key and p.task_id = a.task_id and p.trial = t.trial
        )
),

announced_unnamed as (
    -- a run that owes n trials in all (tasks unnamed): n minus the trials it recorded
    select run_key, run_id, '(no record ' || n || ')' as task_id, 0 as trial, false as is_named
    from (
        select
            a.run_key,
            a.run_id,
            unnest(range(1, greatest(a.trials - (select count(*) from recorded as p where p.run_key = a.run_key), 0) + 1)) as n
        from announced as a
        where a.task_id is null
    )
),

announced_runs as (
    -- agent and model of a run known only by its metadata (nothing recorded)
    select run_key, agent, model from named_run_keys
),

missing_ids as (
    -- the tasks with a trial expected, announced or owed (few, or none)
    select task_id from named
    union
    select task_id from unnamed
    union
    select task_id from announced_named
    union
    select task_id from announced_unnamed
    union
    select task_id from owed_trials where promised_by = 'run_log'
),

task_keys as (
    -- category and difficulty of a task missing from one run but seen in another
    select task_id, max(category) as category, max(difficulty) as difficulty
    from recorded
    semi join missing_ids using (task_id)
    group by task_id
),

expected as (
    -- an expected trial with no record: in total, removed as environment (docs/metrics.md)
    select
        m.run_key,
        r.run_id,
        m.task_id,
        s.trial,
        m.is_named,
        'expected, no record' as status_detail,
        r.agent,
        r.model,
        r.invocation,
        k.category,
        k.difficulty
    from (select * from named union all select * from unnamed) as m
    join run_slots as s using (run_key)
    join runs as r using (run_key)
    left join task_keys as k using (task_id)
    union all
    -- announced by the run itself and not already expected by --expect / --expect-count
    select
        m.run_key,
        m.run_id,
        m.task_id,
        m.trial,
        m.is_named,
        'announced, no record' as status_detail,
        coalesce(r.agent, ar.agent) as agent,
        coalesce(r.model, ar.model) as model,
        r.invocation,
        k.category,
        k.difficulty
    from (
        select * from (select * from announced_named union all select * from announced_unnamed) as a
        where not exists (
            select 1
            from (select * from named union all select * from unnamed) as e
            join run_slots as s using (run_key)
            where e.run_key = a.run_key and e.task_id = a.task_id and s.trial = a.trial
        )
    ) as m
    left join runs as r using (run_key)
    left join announced_runs as ar using (run_key)
    left join task_keys as k using (task_id)
),

log_runs as (
    -- what a run's own log says of it (one row per run, the first log loaded)
    select run_id, min_by(model, source_id) as model, min_by(invocation, source_id) as invocation
    from run_logs
    group by run_id
),

owed as (
    -- a trial the run's log owes (its dataset's sample ids x epochs) with no record and
    -- not already expected: in total as missing, like an expected one
    select distinct
        coalesce(nk.run_key, '') as run_key,
        o.run_id,
        o.task_id,
        o.trial,
        true as is_named,
        'owed by the log, no sample' as status_detail,
        null::varchar as agent,
        l.model,
        l.invocation,
        k.category,
        k.difficulty
    from owed_trials as o
    left join named_run_keys as nk using (run_id)
    left join log_runs as l using (run_id)
    left join task_keys as k using (task_id)
    where o.promised_by = 'run_log'
        and coalesce(nk.run_key, '') not in (select rerun_key from run_reruns)
        and not exists (
            select 1 from recorded as p where p.run_key = coalesce(nk.run_key, '') and p.task_id = o.task_id and p.trial = o.trial
        )
        and not exists (
            select 1 from expected as e where e.run_key = coalesce(nk.run_key, '') and e.task_id = o.task_id and e.trial = o.trial
        )
),

missing as (
    select * from expected
    union all
    select * from owed
),

final as (
    select run_key, run_id, task_id, trial, is_named, agent, model, category, difficulty, status_detail, invocation
    from missing
)

select * from final;
