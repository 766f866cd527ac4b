-- status_detail_counts: the same per status and status_detail, e.g. failures at a step
--   limit, both bases side by side.
-- Reads: trial_outcomes.
create or replace view status_detail_counts as
select
    status,
    status_detail,
    count(*) filter (where basis = 'first') as first_trials,
    count(*) filter (where basis = 'final') as final_trials
from trial_outcomes
group by status, status_detail;
