-- rate_membership: which cells each trial counts in.
-- Reads: scoped_trial_outcomes, denominators.
-- Not materialized: each trial once per basis, denominator and scope: read through by rate_cells and the bootstrap, not copied.
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
    on case d.denominator
        when 'total' then true
        when 'valid' then o.in_valid
        when 'attributable' then o.in_attributable
        when 'completable' then o.in_completable
    end;
