-- missing_tasks: the first $limit expected tasks with no record, with how many there are in all
--   (listed_of).
-- Reads: trial_inventory.
select run_id, task_id, slots_missing as trials, is_named as named, count(*) over () as listed_of
from trial_inventory
where is_missing_task
order by coalesce(run_id, ''), run_key, task_id
limit $limit
