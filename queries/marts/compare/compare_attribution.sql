-- compare_attribution: where a difference comes from, per side, final basis, over the trials
--   of the common tasks: environment failures, timeouts by cause, grader errors, rescued
--   trials, tasks whose trials disagree.
-- Reads: compare_pairing_sides, compare_side_trials, compare_task_presence.
-- Not materialized: read once.
create or replace view compare_attribution as
-- where a difference comes from, per side, over the trials of the common tasks
with

trials as (
    select s.pairing_id, s.side, o.*
    from compare_pairing_sides as s
    join compare_side_trials as o using (side_id)
    join compare_task_presence as t on t.pairing_id = s.pairing_id and t.task_id = o.task_id and t.is_common
),

final_basis as (
    select * from trials where basis = 'final'
),

rescued as (
    -- trials whose first attempt did not succeed and whose final one did
    select pairing_id, side, count(*) as trials_rescued
    from (
        select pairing_id, side, run_key, task_id, trial
        from trials
        group by all
        having bool_or(basis = 'first' and not is_success) and bool_or(basis = 'final' and is_success)
    )
    group by all
),

flaky as (
    -- tasks whose trials disagree (final basis, every trial): some passed, some did not
    select
        pairing_id,
        side,
        count(*) filter (where trials >= 2) as tasks_with_several_trials,
        count(*) filter (where trials >= 2 and successes > 0 and successes < trials) as tasks_disagreeing
    from (
        select pairing_id, side, task_id, count(*) as trials, count(*) filter (where is_success) as successes
        from final_basis
        group by all
    )
    group by all
),

outcomes as (
    select
        pairing_id,
        side,
        count(*) as trials,
        count(*) filter (where is_success) as successes,
        count(*) filter (where fault = 'environment') as environment_failures,
        count(*) filter (where status = 'timeout') as timeouts,
        count(*) filter (where status = 'timeout' and timeout_cause = 'queue') as timeouts_queue,
        count(*) filter (where status = 'timeout' and timeout_cause = 'external') as timeouts_external,
        count(*) filter (where status = 'timeout' and timeout_cause = 'loop') as timeouts_loop,
        count(*) filter (where status = 'timeout' and timeout_cause = 'sluggish') as timeouts_sluggish,
        count(*) filter (where status = 'timeout' and coalesce(timeout_cause, 'unknown') = 'unknown') as timeouts_unknown,
        count(*) filter (where status = 'aborted' and status_detail = 'grader_error') as grader_errors,
        count(*) filter (where fault = 'task') as invalid,
        count(*) filter (where fault = 'unknown') as unrecognized
    from final_basis
    group by all
)

select
    o.*,
    coalesce(r.trials_rescued, 0) as trials_rescued,
    f.tasks_with_several_trials,
    f.tasks_disagreeing,
    f.tasks_disagreeing::double / nullif(f.tasks_with_several_trials, 0) as flaky_share
from outcomes as o
left join rescued as r using (pairing_id, side)
left join flaky as f using (pairing_id, side);
