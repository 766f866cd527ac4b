-- run_logs: what each run's own log says of it (status, error, sample counts) beside the
--   trials recorded and missing, in load order.
-- Reads: run_log_status.
select
    run_id, invocation, task, model, status, error_message, total_samples, completed_samples, incomplete,
    owed_trials, trials, missing_trials, dict_score_trials, score_keys, source
from run_log_status
order by source_id, run_id
