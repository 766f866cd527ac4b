-- id_lookalikes: task and run ids that differ only by case or by surrounding whitespace (issue
--   15). Ids keep the text they were written with (DESIGN section 4), so `Task-1` and `task-1 `
--   stay two tasks; this lists each such family (`field`, the folded form, its variants) so
--   the report can say so.
-- Reads: stg_attempts.
create or replace view id_lookalikes as
with

ids as (
    select distinct 'task_id' as field, task_id as id from stg_attempts where is_kept
    union
    select distinct 'run_id', run_id from stg_attempts where is_kept and run_id is not null
),

final as (
    select
        field,
        lower(trim(id)) as folded,
        list(id order by id) as variants
    from ids
    group by field, lower(trim(id))
    having count(*) > 1
)

select * from final;
