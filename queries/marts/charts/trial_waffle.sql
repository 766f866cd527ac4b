-- trial_waffle: one cell per trial for the HTML report's waffle: run, task, trial slot, final status
--   and detail, attempts made, wall time, and where it is drawn (tasks in task id order across,
--   in bands of 100; run x trial slots down); expected-but-missing trials too.
-- Reads: trial_outcomes, trials.
-- Not materialized on big inputs: one row per trial, read only by the HTML report: not kept by ingest --db.
create or replace view trial_waffle as
with

outcomes as (
    select * from trial_outcomes where basis = 'final'
),

ranked as (
    select
        o.run_key,
        o.run_id,
        o.task_id,
        o.trial,
        -- tasks line up across runs (the same task in the same column); rows are run x trial
        dense_rank() over (order by o.task_id) as task_index,
        dense_rank() over (order by coalesce(o.run_id, ''), o.run_key, o.trial) as slot_index,
        o.status,
        o.status_detail,
        o.attempts_made as attempts,
        t.trial_wall_s
    from outcomes as o
    left join trials as t using (run_key, task_id, trial)
),

final as (
    -- drawn in bands of 100 tasks: band 0 holds tasks 1-100, band 1 tasks 101-200, ...
    select *, (task_index - 1) // 100 as task_band, (task_index - 1) % 100 as task_column
    from ranked
)

select * from final;
