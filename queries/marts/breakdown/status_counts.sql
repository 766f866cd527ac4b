-- status_counts: trials per status on each basis.
-- Reads: trial_outcomes.
create or replace view status_counts as
select
    basis,
    status,
    count(*) as trials
from trial_outcomes
group by basis, status;
