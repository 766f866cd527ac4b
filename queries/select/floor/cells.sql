-- cells: the floor's own rate grid (read in its own session, for --floor): every cell's
--   successes/count over every trial.
-- Reads: rate_grid.
select basis, denominator, successes, count from rate_grid order by basis_order, step
