-- rate_intervals: the rate cells of figure_intervals (recomputes the bootstrap: read
--   figure_intervals once when both halves are needed).
-- Reads: figure_intervals.
-- Not materialized: a filter of figure_intervals.
create or replace view rate_intervals as
select
    scope_id, basis, denominator, basis_order, step, successes::bigint as successes, count, value as rate,
    ci_method, ci95
from figure_intervals
where figure = 'rate';
