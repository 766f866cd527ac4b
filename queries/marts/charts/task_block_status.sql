-- task_block_status: the waffle of a run too large for one cell a trial: the trials of trial_waffle
--   in at most 100 blocks of consecutive tasks (task id order), per final status.
-- Reads: trial_waffle.
-- Not materialized: read only by the HTML report of a large run, from trial_waffle: not kept by ingest --db.
create or replace view task_block_status as
with

cells as (
    select * from trial_waffle
),

size as (
    -- at most 100 blocks of consecutive tasks (in task id order)
    select ceil(max(task_index) / 100.0)::bigint as tasks_per_block from cells
),

blocked as (
    select c.*, (c.task_index - 1) // s.tasks_per_block + 1 as block
    from cells as c
    cross join size as s
),

blocks as (
    select block, min(task_id) as first_task, max(task_id) as last_task, count(distinct task_id) as tasks
    from blocked
    group by block
),

final as (
    select b.block, b.first_task, b.last_task, b.tasks, c.status, count(*) as trials
    from blocked as c
    join blocks as b using (block)
    group by all
)

select * from final;
