-- tasks: the tasks the floor has records of (read in its own session, for --floor).
-- Reads: trial_outcomes.
select distinct task_id from trial_outcomes order by task_id
