-- rate_cells: 2 bases x every denominator of the chain per scope: successes/count and rate,
--   NULL over 0 trials.
-- Reads: scoped_trial_outcomes, denominators, kept_in.
--
-- The cells of rate_membership (a trial counts in a denominator's cell when the chain
-- keeps it), counted in one pass over the trials: one aggregate per scope, basis and step
-- that leaves the trials out, each then summed into the denominators that keep them,
-- instead of joining every trial to each denominator it is in (four rows a trial) and
-- counting those.
create or replace view rate_cells as
with

bases as (
    select * from (values (1, 'first'), (2, 'final')) as t (basis_order, basis)
),

counted as (
    select
        scope_id,
        basis,
        excluded_step,
        count(is_success) filter (where is_success) as successes,
        count(is_success) as trials
    from scoped_trial_outcomes
    group by scope_id, basis, excluded_step
),

scopes as (
    -- every scope has trials in `total`, so none is lost here; scope 0 (every trial) is
    -- there even without a trial, so an input without records still has its n/a cells
    select 0 as scope_id
    union
    select distinct scope_id from counted
),

cells as (
    select
        s.scope_id,
        b.basis,
        d.denominator,
        b.basis_order,
        d.step,
        coalesce(sum(c.successes), 0)::bigint as successes,
        coalesce(sum(c.trials), 0)::bigint as count
    from scopes as s
    cross join bases as b
    cross join denominators as d
    left join counted as c on c.scope_id = s.scope_id and c.basis = b.basis and kept_in(d.step, c.excluded_step)
    group by s.scope_id, b.basis, d.denominator, b.basis_order, d.step
),

final as (
    -- every scope gets all its cells; a cell over 0 trials has rate NULL (n/a)
    select *, successes::double / nullif(count, 0) as rate
    from cells
)

select * from final;
