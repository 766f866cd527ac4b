-- figure_intervals: every rate cell, pass@k and pass^k per scope, with its interval.
-- Reads: figure_intervals.
select * from figure_intervals order by scope_id, figure, basis_order, step, k
