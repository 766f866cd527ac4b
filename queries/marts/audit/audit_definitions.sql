-- audit_definitions: the family of definitions `denom audit` searches (docs/commands.md, "audit"),
--   as data: basis (final, first) x numerator (successes, or
--   successes plus late passes) x scope of each excluded class (invalid, environment, timeout,
--   unrecognized: none, basis attempt, any attempt) x aggregation (pooled over trials, or mean
--   of per-run rates) = 2 x 2 x 3^4 x 2 = 648 definitions, numbered in simplicity order
--   (`simplicity` 1 = simplest).
-- Reads: nothing.
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
        -- the strict figure of docs/metrics.md: final successes over all trials
        exclusions = 0 and basis = 'final' and numerator = 'successes' and aggregation = 'pooled' as is_strict
    from counted
)

select * from final;
