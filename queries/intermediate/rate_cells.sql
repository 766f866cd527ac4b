-- rate_cells: 2 bases x 4 denominators per scope: successes/count and rate, NULL over 0 trials.
-- Reads: scoped_trial_outcomes, denominators.
--
-- The cells of rate_membership (a trial counts in a denominator's cell when the chain
-- keeps it), counted in one pass over the trials: one aggregate per scope and basis with
-- a filter per denominator, instead of joining every trial to each denominator it is in
-- (four rows a trial) and counting those.
create or replace view rate_cells as
with

bases as (
    select * from (values (1, 'first'), (2, 'final')) as t (basis_order, basis)
),

counted as (
    select
        scope_id,
        basis,
        count(is_success) filter (where is_success) as total_successes,
        count(is_success) as total_count,
        count(is_success) filter (where in_valid and is_success) as valid_successes,
        count(is_success) filter (where in_valid) as valid_count,
        count(is_success) filter (where in_attributable and is_success) as attributable_successes,
        count(is_success) filter (where in_attributable) as attributable_count,
        count(is_success) filter (where in_completable and is_success) as completable_successes,
        count(is_success) filter (where in_completable) as completable_count
    from scoped_trial_outcomes
    group by scope_id, basis
),

scopes as (
    -- every scope has trials in `total`, so none is lost here; scope 0 (every trial) is
    -- there even without a trial, so an input without records still has its eight n/a cells
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
        coalesce(case d.denominator
            when 'total' then c.total_successes
            when 'valid' then c.valid_successes
            when 'attributable' then c.attributable_successes
            when 'completable' then c.completable_successes
        end, 0) as successes,
        coalesce(case d.denominator
            when 'total' then c.total_count
            when 'valid' then c.valid_count
            when 'attributable' then c.attributable_count
            when 'completable' then c.completable_count
        end, 0) as count
    from scopes as s
    cross join bases as b
    cross join denominators as d
    left join counted as c on c.scope_id = s.scope_id and c.basis = b.basis
),

final as (
    -- every scope gets all eight cells; a cell over 0 trials has rate NULL (n/a)
    select *, successes::double / nullif(count, 0) as rate
    from cells
)

select * from final;
