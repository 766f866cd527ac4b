-- timeout_rate: final timeouts over all trials, docs/metrics.md.
-- Reads: trial_outcomes.
create or replace view timeout_rate as
-- trials whose final attempt timed out, over every trial (the strict denominator, missing included)
select
    count(*) filter (where status = 'timeout') as timeouts,
    count(*) as trials,
    count(*) filter (where status = 'timeout')::double / nullif(count(*), 0) as rate
from trial_outcomes
where basis = 'final';
