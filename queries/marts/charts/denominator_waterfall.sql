-- denominator_waterfall: the denominator chain (denominators, through rate_grid) on each basis as a
--   waterfall (docs/html-report.md): per step a bar of the trials it kept (y_lo 0, y_hi its count) and,
--   stacked above it, one bar per reason of what it removed, largest first, the top of the stack
--   being the count of the step before.
-- Reads: rate_grid, denominator_removals.
create or replace view denominator_waterfall as
with

grid as (
    select basis, basis_order, step, denominator, count from rate_grid
),

removed as (
    -- a step's removals stacked above the trials it kept, largest reason first, so that
    -- the top of the stack is the count of the step before
    select
        r.basis,
        g.basis_order,
        r.step,
        r.denominator,
        r.fault,
        r.reason,
        r.trials,
        g.count + sum(r.trials) over (
            partition by r.basis, r.step
            order by r.trials desc, r.reason
            rows between unbounded preceding and current row
        ) as y_hi
    from denominator_removals as r
    join grid as g using (basis, step)
),

final as (
    select basis, basis_order, step, denominator, 'kept' as part, null::varchar as fault,
           null::varchar as reason, count as trials, 0::bigint as y_lo, count::bigint as y_hi
    from grid
    union all
    select basis, basis_order, step, denominator, 'removed', fault,
           reason, trials, (y_hi - trials)::bigint, y_hi::bigint
    from removed
)

select * from final;
