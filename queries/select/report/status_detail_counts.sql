-- status_detail_counts: trials per status and status_detail, both bases side by side.
-- Reads: status_detail_counts.
select status, status_detail, first_trials, final_trials
from status_detail_counts
order by status, final_trials desc, first_trials desc, status_detail nulls first
