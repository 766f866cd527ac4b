-- Defines: audit_definitions, the family of definitions `denom audit` searches (DESIGN section 4,
--          "Claim audit", extended by issue 4), as data: basis (final, first) x numerator
--          (successes, or successes plus late passes) x scope of each excluded class
--          (invalid, environment, timeout, unrecognized: none, basis attempt, any attempt)
--          x aggregation (pooled over trials, or mean of per-run rates) = 2 x 2 x 3^4 x 2 = 648
--          definitions, numbered in simplicity order (`simplicity` 1 = simplest).
--          audit_trial_cells, the trials grouped by run and by profile: every fact a definition
--          of the family can ask about a trial, so that a definition's membership is a function
--          of the profile alone (which is what makes equivalent definitions detectable exactly).
-- Reads: trials, missing_trials (expected trials with no record, --expect / --expect-count:
--        in every trial count, as the strict figure's `total` holds them, fault environment).
create or replace view audit_definitions as
with

bases as (
    -- final first: it is the strict figure's basis
    select * from (values (1, 'final'), (2, 'first')) as t (basis_order, basis)
),

numerators as (
    select * from (values (1, 'successes'), (2, 'successes+late_passes')) as t (numerator_order, numerator)
),

scopes as (
    select * from (values (0, 'none'), (1, 'basis'), (2, 'any')) as t (scope_order, scope)
),

aggregations as (
    select * from (values (1, 'pooled'), (2, 'mean_of_runs')) as t (aggregation_order, aggregation)
),

family as (
    select
        b.basis,
        b.basis_order,
        n.numerator,
        n.numerator_order,
        inv.scope as invalid_scope,
        env.scope as environment_scope,
        tmo.scope as timeout_scope,
        unr.scope as unrecognized_scope,
        inv.scope_order as invalid_order,
        env.scope_order as environment_order,
        tmo.scope_order as timeout_order,
        unr.scope_order as unrecognized_order,
        a.aggregation,
        a.aggregation_order
    from bases as b
    cross join numerators as n
    cross join scopes as inv
    cross join scopes as env
    cross join scopes as tmo
    cross join scopes as unr
    cross join aggregations as a
),

counted as (
    select
        *,
        (invalid_scope <> 'none')::int + (environment_scope <> 'none')::int
            + (timeout_scope <> 'none')::int + (unrecognized_scope <> 'none')::int as exclusions,
        (invalid_scope = 'any')::int + (environment_scope = 'any')::int
            + (timeout_scope = 'any')::int + (unrecognized_scope = 'any')::int as any_scopes
    from family
),

final as (
    select
        -- simplest first: fewest exclusions, pooled before mean of runs, successes before late
        -- passes, exclusions judged on the basis attempt before any attempt, final before first;
        -- then the least contested class first (invalid, unrecognized, environment, timeout)
        row_number() over (
            order by exclusions, aggregation_order, numerator_order, any_scopes, basis_order,
                timeout_order, environment_order, unrecognized_order, invalid_order
        ) as simplicity,
        basis,
        numerator,
        invalid_scope,
        environment_scope,
        timeout_scope,
        unrecognized_scope,
        aggregation,
        exclusions,
        any_scopes,
        -- the strict figure of DESIGN section 4: final successes over all trials
        exclusions = 0 and basis = 'final' and numerator = 'successes' and aggregation = 'pooled' as is_strict
    from counted
)

select * from final;

create or replace view audit_trial_cells as
with

trials_ as (
    select
        run_key, trial, first_status, first_fault, first_is_late_pass, final_status, final_fault, final_is_late_pass,
        any_invalid, any_environment, any_timeout, any_unverified_timeout, any_unrecognized, attempts_made
    from trials
    union all
    -- an expected trial with no record: status missing, fault environment (DESIGN section 3)
    select
        run_key, trial, 'missing', 'environment', false, 'missing', 'environment', false,
        false, true, false, false, false, 0
    from missing_trials
),

cells as (
    select
        run_key,
        trial,
        first_status,
        first_fault,
        coalesce(first_is_late_pass, false) as first_is_late_pass,
        final_status,
        final_fault,
        coalesce(final_is_late_pass, false) as final_is_late_pass,
        any_invalid,
        any_environment,
        any_timeout,
        -- with late passes counted, a timeout that passed verification delivered a result:
        -- only the other timeouts are "timeouts" for the exclusion
        any_unverified_timeout,
        any_unrecognized,
        attempts_made > 1 as is_retried,
        count(*) as trials
    from trials_
    group by all
),

final as (
    select
        *,
        -- the profile: the same facts in every run get the same id
        dense_rank() over (
            order by
                first_status, first_fault, first_is_late_pass, final_status, final_fault, final_is_late_pass,
                any_invalid, any_environment, any_timeout, any_unverified_timeout, any_unrecognized, is_retried
        ) as profile_id,
        -- a run is a distinct (run, trial) pair: one file of 1-of-5 .. 5-of-5 holds five runs
        case
            when count(distinct trial) over (partition by run_key) > 1
                then coalesce(nullif(run_key, ''), 'default run') || ' trial ' || trial
            else coalesce(nullif(run_key, ''), 'default run')
        end as run_label
    from cells
)

select * from final;
