-- floor_coverage: with --floor INPUT, the tasks of the run and of the floor: how many each
--   has, how many both, and how many only one (one row; none without --floor). The floor's
--   rates are over its own trials: where the two hold different tasks, a lift compares
--   different task sets, which the report says.
-- Reads: trial_outcomes; getvariable('floor_tasks').
-- Not materialized: one row; it reads a definition (the floor), never kept by ingest.
create or replace view floor_coverage as
with

run_tasks as (
    select distinct task_id from trial_outcomes
),

floor_tasks as (
    select distinct unnest(getvariable('floor_tasks')) as task_id
)

select
    (select count(*) from run_tasks) as run_tasks,
    (select count(*) from floor_tasks) as floor_tasks,
    (select count(*) from run_tasks join floor_tasks using (task_id)) as common_tasks,
    (select count(*) from run_tasks anti join floor_tasks using (task_id)) as run_only,
    (select count(*) from floor_tasks anti join run_tasks using (task_id)) as floor_only
where getvariable('floor_tasks') is not null;
