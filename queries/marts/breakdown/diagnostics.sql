-- diagnostics: timeout attempts, late passes, constraint violations, grader errors, missing.
-- Reads: missing_trials, attempts_classified.
create or replace view diagnostics as
select
    count(*) filter (where status = 'timeout') as timeout_attempts,
    count(*) filter (where is_late_pass) as timeouts_with_passing_score,
    count(*) filter (where is_constraint_violation) as constraint_violations,
    count(*) filter (where has_grader_error) as grader_errors,
    -- expected trials with no record (--expect, --expect-count), in total as status missing
    (select count(*) from missing_trials) as missing
from attempts_classified;
