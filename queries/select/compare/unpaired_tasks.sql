-- unpaired_tasks: the tasks only one side has, by name.
-- Reads: compare_unpaired_tasks, compare_pairings.
select pairing_id, side, task_id from compare_unpaired_tasks
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, side, task_id
