-- incomplete_tasks: the first $limit present tasks missing trial slots, with how many there are
--   in all (listed_of).
-- Reads: trial_inventory.
select run_id, task_id, trials_present, slots_expected as trial_slots, missing_slots, count(*) over () as listed_of
from trial_inventory
where not is_missing_task and len(missing_slots) > 0
order by coalesce(run_id, ''), run_key, task_id
limit $limit
