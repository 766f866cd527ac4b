-- rate_cells: 2 bases x 4 denominators per scope: successes/count and rate, NULL over 0 trials.
-- Reads: rate_membership, denominators.
create or replace view rate_cells as
with

bases as (
    select * from (values (1, 'first'), (2, 'final')) as t (basis_order, basis)
),

membership as (
    select * from rate_membership
),

scopes as (
    -- every scope has trials in `total`, so none is lost here; scope 0 (every trial) is
    -- there even without a trial, so an input without records still has its eight n/a cells
    select 0 as scope_id
    union
    select distinct scope_id from membership
),

final as (
    -- every scope gets all eight cells; a cell over 0 trials has rate NULL (n/a)
    select
        s.scope_id,
        b.basis,
        d.denominator,
        b.basis_order,
        d.step,
        count(m.is_success) filter (where m.is_success) as successes,
        count(m.is_success) as count,
        count(m.is_success) filter (where m.is_success)::double / nullif(count(m.is_success), 0) as rate
    from scopes as s
    cross join bases as b
    cross join denominators as d
    left join membership as m on m.scope_id = s.scope_id and m.basis = b.basis and m.denominator = d.denominator
    group by all
)

select * from final;
