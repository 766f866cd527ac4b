-- unexpected_tasks: the first $limit tasks --expect does not list, with how many there are in
--   all (listed_of).
-- Reads: trial_inventory.
select run_id, task_id, trials_present as trials, count(*) over () as listed_of
from trial_inventory
where is_listed = false
order by coalesce(run_id, ''), run_key, task_id
limit $limit
