-- Defines: trials, one row per trial = (run, task, trial): its first attempt (lowest
--          attempt number) and final attempt (highest), what any attempt hit, the
--          attempts it made (its final attempt number: attempt 3 comes after 1 and 2,
--          recorded or not), and its times: first start, last end and the wall time
--          between them (DESIGN section 6), and its first submission.
--          trial_outcomes, the same trials once per basis ('first', 'final') with the
--          denominators each belongs to (DESIGN section 4), expected-but-missing trials
--          included; missing_trials, the trials an expected task owes and has no record of
--          (--expect / --expect-count); scoped_trial_outcomes, the trials once overall
--          (scope 0) and once more per group of --by (scopes 1..n); trial_scopes, the scopes.
-- Reads: attempts_classified; getvariable('expected_tasks') (a VARCHAR list),
--        getvariable('expected_count') (an integer), getvariable('group_by') (a column name).
create or replace view trials as
with

attempts as (
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
        coalesce(l.difficulty, f.difficulty) as difficulty
    from per_trial as p
    join attempts as f
        on f.run_key = p.run_key and f.task_id = p.task_id and f.trial = p.trial and f.attempt = p.first_attempt
    join attempts as l
        on l.run_key = p.run_key and l.task_id = p.task_id and l.trial = p.trial and l.attempt = p.final_attempt
)

select * from final;

create or replace view trial_outcomes as
with

recorded as (
    -- read once, used for both bases and for what is missing
    select * from trials
),

run_slots as (
    -- the trial numbers a run used: an expected task owes the run one trial per slot;
    -- with nothing loaded, the one default run with the default trial 0
    select distinct run_key, trial from recorded
    union all
    select '' as run_key, 0 as trial where not exists (select 1 from recorded)
),

runs as (
    select
        s.run_key,
        count(distinct p.task_id) as tasks_seen,
        -- a missing trial takes the run's agent and model when the run has only one
        case when count(distinct p.agent) = 1 then max(p.agent) end as agent,
        case when count(distinct p.model) = 1 then max(p.model) end as model
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
    -- the trials a run says it owes (announced_trials: Harbor's n_total_trials, tau2-bench's
    -- tasks x num_trials); a task announced twice (two copies of a file) owes the larger count
    select coalesce(run_id, '') as run_key, task_id, max(trials) as trials
    from announced_trials
    group by all
),

announced_named as (
    -- an announced task owes trials 0..n-1: each one with no record is missing
    select a.run_key, a.task_id, t.trial, true as is_named
    from announced as a
    cross join unnest(range(a.trials)) as t (trial)
    where a.task_id is not null
        and not exists (
            select 1 from recorded as p where p.run_key = a.run_key and p.task_id = a.task_id and p.trial = t.trial
        )
),

announced_unnamed as (
    -- a run that owes n trials in all (tasks unnamed): n minus the trials it recorded
    select run_key, '(no record ' || n || ')' as task_id, 0 as trial, false as is_named
    from (
        select
            a.run_key,
            unnest(range(1, greatest(a.trials - (select count(*) from recorded as p where p.run_key = a.run_key), 0) + 1)) as n
        from announced as a
        where a.task_id is null
    )
),

announced_runs as (
    -- agent and model of a run known only by its metadata (nothing recorded)
    select coalesce(run_id, '') as run_key, max(agent) as agent, max(model) as model
    from run_metadata
    group by all
),

task_keys as (
    -- category and difficulty of a task missing from one run but seen in another
    select task_id, max(category) as category, max(difficulty) as difficulty
    from recorded
    group by task_id
),

missing as (
    -- an expected trial with no record: in total, removed as environment (DESIGN section 3)
    select
        m.run_key,
        nullif(m.run_key, '') as run_id,
        m.task_id,
        s.trial,
        m.is_named,
        r.agent,
        r.model,
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
        nullif(m.run_key, '') as run_id,
        m.task_id,
        m.trial,
        m.is_named,
        coalesce(r.agent, ar.agent) as agent,
        coalesce(r.model, ar.model) as model,
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

by_basis as (
    select
        'first' as basis, run_key, run_id, task_id, trial, attempts, attempts_made, any_environment, any_timeout,
        any_invalid, any_unrecognized, first_status as status, first_status_detail as status_detail,
        first_fault as fault, first_timeout_cause as timeout_cause, first_is_late_pass as is_late_pass,
        first_raw_status as raw_status, agent, model, category, difficulty, true as task_named
    from recorded
    union all
    select
        'final' as basis, run_key, run_id, task_id, trial, attempts, attempts_made, any_environment, any_timeout,
        any_invalid, any_unrecognized, final_status, final_status_detail,
        final_fault, final_timeout_cause, final_is_late_pass,
        final_raw_status, agent, model, category, difficulty, true
    from recorded
    union all
    select
        b.basis, run_key, run_id, task_id, trial, 0 as attempts, 0 as attempts_made, true as any_environment, false as any_timeout,
        false as any_invalid, false as any_unrecognized, 'missing', 'expected, no record',
        'environment', null, false,
        null, agent, model, category, difficulty, is_named
    from missing
    cross join (values ('first'), ('final')) as b (basis)
),

final as (
    select
        *,
        status = 'success' as is_success,
        -- the denominator chain: each step removes one named class, judged on the basis attempt
        fault not in ('task', 'unknown') as in_valid,
        fault not in ('task', 'unknown', 'environment') as in_attributable,
        fault not in ('task', 'unknown', 'environment') and status <> 'timeout' as in_completable,
        case getvariable('group_by')
            when 'run_id' then run_id
            when 'agent' then agent
            when 'model' then model
            when 'category' then category
            when 'difficulty' then difficulty
        end as group_value
    from by_basis
)

select * from final;

create or replace view missing_trials as
-- the expected trials with no record (attempts = 0 marks them in trial_outcomes);
-- is_named is false for the tasks --expect-count adds without knowing their names
select run_key, run_id, task_id, trial, task_named as is_named, agent, model, category, difficulty
from trial_outcomes
where basis = 'final' and attempts = 0;

create or replace view scoped_trial_outcomes as
with

outcomes as (
    select * from trial_outcomes
),

scopes as (
    -- with --by, scope i holds the i-th group value (NULL last); scope 0 holds every trial
    select dense_rank() over (order by group_value nulls last) as scope_id, group_value as scope_value
    from (select distinct group_value from outcomes where getvariable('group_by') is not null)
),

final as (
    select 0::bigint as scope_id, false as is_group, o.* from outcomes as o
    union all
    select s.scope_id, true as is_group, o.*
    from outcomes as o
    join scopes as s on s.scope_value is not distinct from o.group_value
)

select * from final;

create or replace view trial_scopes as
select distinct
    scope_id,
    is_group,
    case when is_group then group_value end as group_value
from scoped_trial_outcomes;
