-- trial_outcomes: the same trials once per basis ('first', 'final') with the first denominator
--   of the chain that leaves each out (docs/metrics.md), expected-but-missing trials included
--   (missing_trials): `excluded_from` and its `excluded_step`, NULL when every denominator
--   keeps the trial; kept_in(step, excluded_step) says whether the denominator at `step` does.
-- Reads: trials, missing_trials, run_groups, denominators, excluded_from;
--   getvariable('group_by') (a column name: --by).
-- group_value: the --by field's value; without --by, the run's group (run_groups) when the
-- trials hold several agents, models or benchmarks, else NULL (one scope, no group).
-- Not materialized on big inputs: every trial twice: its readers read the trials through, each its own columns.
create or replace view trial_outcomes as
with

recorded as not materialized (
    -- used for both bases, each use reading its own columns
    select * from trials
),

missing as (
    select * from missing_trials
),

by_basis as (
    select
        'first' as basis, run_key, run_id, task_id, trial, attempts, attempts_made, any_environment, any_timeout,
        any_invalid, any_unrecognized, first_status as status, first_status_detail as status_detail,
        first_fault as fault, first_timeout_cause as timeout_cause, first_is_late_pass as is_late_pass,
        first_raw_status as raw_status, agent, model, category, difficulty, invocation, true as task_named
    from recorded
    union all
    select
        'final' as basis, run_key, run_id, task_id, trial, attempts, attempts_made, any_environment, any_timeout,
        any_invalid, any_unrecognized, final_status, final_status_detail,
        final_fault, final_timeout_cause, final_is_late_pass,
        final_raw_status, agent, model, category, difficulty, invocation, true
    from recorded
    union all
    select
        b.basis, run_key, run_id, task_id, trial, 0 as attempts, 0 as attempts_made, true as any_environment, false as any_timeout,
        false as any_invalid, false as any_unrecognized, 'missing', status_detail,
        'environment', null, false,
        null, agent, model, category, difficulty, invocation, is_named
    from missing
    cross join (values ('first'), ('final')) as b (basis)
),

excluded as (
    -- the denominator chain: each step removes one named class, judged on the basis attempt
    select *, excluded_from(fault, status, status_detail, timeout_cause, task_id) as excluded_from
    from by_basis
),

chain as (
    -- each denominator's step by its name: one row, joined to every trial without reordering them
    select map(list(denominator), list(step)) as step_of from denominators
),

final as (
    select
        b.* exclude (excluded_from),
        status = 'success' as is_success,
        b.excluded_from,
        case
            when b.excluded_from is null then null
            when c.step_of[b.excluded_from] is not null then c.step_of[b.excluded_from]
            -- a rule naming no denominator of the chain would keep its trials everywhere unseen
            else error('queries/reference/excluded_from.sql: ' || b.excluded_from || ' is no denominator of queries/reference/denominators.sql')
        end as excluded_step,
        case getvariable('group_by')
            when 'run_id' then run_id
            when 'agent' then agent
            when 'model' then model
            when 'category' then category
            when 'difficulty' then difficulty
            when 'invocation' then invocation
            else g.identity_group
        end as group_value
    from excluded as b
    cross join chain as c
    left join run_groups as g using (run_key)
)

select * from final;
