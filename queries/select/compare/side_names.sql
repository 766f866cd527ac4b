-- side_names: each side's agents, models, tasks and trials.
-- Reads: compare_side_names.
select * from compare_side_names order by side_id
