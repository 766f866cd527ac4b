-- incomplete_tasks: the first $limit present tasks missing trial slots, with the slot numbers
--   each lacks (the run's trial_slots it has no trial of) and how many such tasks there are in
--   all (listed_of).
-- Reads: trial_inventory, trial_slots, trials.
with

listed as (
    select run_key, run_id, task_id, trials_present, slots_expected, count(*) over () as listed_of
    from trial_inventory
    where not is_missing_task and slots_missing > 0
    order by coalesce(run_id, ''), run_key, task_id
    limit $limit
),

absent as (
    select l.run_key, l.task_id, list(s.trial order by s.trial) as missing_slots
    from listed as l
    join trial_slots as s using (run_key)
    anti join trials as p on p.run_key = l.run_key and p.task_id = l.task_id and p.trial = s.trial
    group by l.run_key, l.task_id
)

select l.run_id, l.task_id, l.trials_present, l.slots_expected as trial_slots, a.missing_slots, l.listed_of
from listed as l
join absent as a using (run_key, task_id)
order by coalesce(l.run_id, ''), l.run_key, l.task_id
