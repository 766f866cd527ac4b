-- task_block_status: the blocks of tasks of a large waffle, per final status.
-- Reads: task_block_status.
select block, first_task, last_task, tasks, status, trials from task_block_status order by block, status
