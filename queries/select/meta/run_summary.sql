-- run_summary: the window, counts and concurrency of the runs (one row).
-- Reads: run_summary.
select * from run_summary
