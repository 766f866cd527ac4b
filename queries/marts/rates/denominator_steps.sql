-- denominator_steps: how many trials each step removed, on each basis.
-- Reads: rate_grid.
create or replace view denominator_steps as
-- each step's removals = the trials of the denominator before it minus its own
select
    basis,
    denominator,
    basis_order,
    step,
    lag(count) over (partition by basis order by step) - count as removed
from rate_grid;
