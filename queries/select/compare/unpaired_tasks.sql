-- unpaired_tasks: the tasks only one side has, by name.
-- Reads: compare_unpaired_tasks.
select pairing_id, side, task_id from compare_unpaired_tasks order by pairing_id, side, task_id
