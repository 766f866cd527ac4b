-- status_counts: trials per status on each basis.
-- Reads: status_counts.
select basis, status, trials from status_counts order by basis, trials desc, status
