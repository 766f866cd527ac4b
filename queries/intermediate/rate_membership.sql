-- rate_membership: which cells each trial counts in.
-- Reads: scoped_trial_outcomes, denominators, kept_in.
-- Not materialized on big inputs: each trial once per basis, denominator and scope: read through by rate_cells and the bootstrap, not copied.
create or replace view rate_membership as
-- each trial once per basis and per denominator it belongs to, in every scope
select
    o.scope_id,
    o.run_key,
    o.task_id,
    o.trial,
    o.basis,
    d.denominator,
    o.is_success
from scoped_trial_outcomes as o
join denominators as d
    on kept_in(d.step, o.excluded_step);
