-- rate_grid: the cells of scope 0, every trial.
-- Reads: rate_cells.
create or replace view rate_grid as
select * exclude (scope_id) from rate_cells where scope_id = 0;
