-- off_scale_runs: the runs whose scores leave their format's declared scale, by run_id.
-- Reads: off_scale_runs.
select run_id, agent, model, formats, min_score, max_score, trials, is_unscored, success_threshold
from off_scale_runs
order by run_id nulls first, agent nulls first, model nulls first, run_key
