-- floor_coverage: the tasks of the run and of the floor (--floor; no row otherwise).
-- Reads: floor_coverage.
select run_tasks, floor_tasks, common_tasks, run_only, floor_only from floor_coverage
