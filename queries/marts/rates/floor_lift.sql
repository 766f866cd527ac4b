-- floor_lift: with --floor INPUT (a trivial or oracle agent's records on the same tasks), per
--   cell of the grid: the floor's successes/count and rate over its own trials, and the lift
--   of the run's rate over it (run rate - floor rate, a difference of fractions); no rows
--   without --floor (docs/metrics.md).
-- Reads: rate_grid; getvariable('floor_cells').
-- Not materialized: eight rows at most; it reads a definition (the floor), never kept by ingest.
create or replace view floor_lift as
with

floor_cells as (
    select f.basis, f.denominator, f.successes, f.count, f.successes::double / nullif(f.count, 0) as rate
    from (select unnest(getvariable('floor_cells')) as f)
),

final as (
    select
        g.basis_order,
        g.basis,
        g.step,
        g.denominator,
        g.successes,
        g.count,
        g.rate,
        coalesce(f.successes, 0) as floor_successes,
        coalesce(f.count, 0) as floor_count,
        f.rate as floor_rate,
        g.rate - f.rate as lift
    from rate_grid as g
    join floor_cells as f using (basis, denominator)
)

select * from final;
