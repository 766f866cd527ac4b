-- id_lookalikes: task and run ids that differ only by case or by surrounding whitespace.
--   Ids keep the text they were written with (docs/metrics.md), so `Task-1` and `task-1 `
--   stay two tasks; this lists each such family (`field`, the folded form, its variants) so
--   the report can say so.
-- Reads: stg_attempts.
create or replace view id_lookalikes as
with

ids as not materialized (
    -- the two fields' ids apart: no id of one is a duplicate of the other's
    select 'task_id' as field, task_id as id, lower(trim(task_id)) as folded from stg_attempts where is_kept
    union all
    select 'run_id', run_id, lower(trim(run_id)) from stg_attempts where is_kept and run_id is not null
),

changed as (
    -- two different ids folding alike cannot both be their own folded form, so every family
    -- holds an id that is not (few, or none): only the forms of those are looked at
    select distinct field, folded from ids where id <> folded
),

folded_ids as (
    select distinct field, id, folded from ids semi join changed using (field, folded)
),

families as (
    -- the folded forms that more than one id shares: only these get a list
    select field, folded
    from folded_ids
    group by field, folded
    having count(*) > 1
),

final as (
    select
        field,
        folded,
        list(id order by id) as variants
    from folded_ids
    semi join families using (field, folded)
    group by field, folded
)

select * from final;
