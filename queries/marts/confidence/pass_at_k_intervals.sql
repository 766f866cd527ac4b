-- pass_at_k_intervals: the pass@k and pass^k rows of figure_intervals (recomputes the
--   bootstrap: read figure_intervals once when both halves are needed).
-- Reads: figure_intervals.
-- Not materialized: a filter of figure_intervals.
create or replace view pass_at_k_intervals as
select
    a.scope_id,
    a.k,
    a.value as pass_at_k,
    h.value as pass_hat_k,
    a.count as tasks,
    a.skipped,
    a.ci_method,
    a.ci95 as pass_at_k_ci95,
    h.ci95 as pass_hat_k_ci95
from figure_intervals as a
join figure_intervals as h on h.scope_id = a.scope_id and h.k = a.k and h.figure = 'pass_hat_k'
where a.figure = 'pass_at_k';
