-- trial_waffle: the waffle's cells, row by row (trial slot, then task).
-- Reads: trial_waffle.
select run_id, task_id, trial, task_index, slot_index, task_band, task_column, status, status_detail, attempts, trial_wall_s
from trial_waffle
order by slot_index, task_index
