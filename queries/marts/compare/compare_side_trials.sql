-- compare_side_trials: one row per trial and basis of each side (side = the scope of --by;
--   with two inputs A and B, src/commands/compare.ts adds B's rows to A's session as side 1).
-- Reads: scoped_trial_outcomes.
-- Not materialized: the scoped trials read through; with two inputs compare.ts puts a table in its place.
create or replace view compare_side_trials as
-- one row per trial and basis; side = the scope (one input) or the input (two, replaced)
select
    scope_id as side_id,
    run_key,
    task_id,
    trial,
    basis,
    is_success,
    status,
    status_detail,
    fault,
    timeout_cause,
    raw_status,
    excluded_from,
    excluded_step,
    agent,
    model
from scoped_trial_outcomes;
