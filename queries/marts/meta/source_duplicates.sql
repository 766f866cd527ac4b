-- source_duplicates: differing duplicates whose copies come from two different sources
--   (docs/identity-and-inputs.md): per pair of sources, how many (run, task, trial, attempt) keys hold a
--   dropped copy in one (`dropped_source`) that differs from the copy kept from the other
--   (`kept_source`). Two files without a run id that hold one agent each are one run, and such
--   pairs are what that looks like: never quiet (a warning, the report's first line, --strict).
--   Identical copies (the same text) are no such duplicate.
-- Reads: stg_attempts, sources.
create or replace view source_duplicates as
with

copies as not materialized (
    select run_key, task_id, trial, attempt, source_id, line_hash, is_kept from stg_attempts
),

dropped as materialized (
    -- the dropped copies (few, or none) first: only their keys' kept copies are looked up
    select run_key, task_id, trial, attempt, source_id, line_hash from copies where not is_kept
),

kept as (
    select run_key, task_id, trial, attempt, source_id as kept_source_id, line_hash as kept_hash
    from copies
    semi join dropped using (run_key, task_id, trial, attempt)
    where is_kept
),

pairs as (
    select k.kept_source_id, c.source_id as dropped_source_id, count(*) as duplicates
    from dropped as c
    join kept as k using (run_key, task_id, trial, attempt)
    where c.source_id <> k.kept_source_id and c.line_hash <> k.kept_hash
    group by all
),

final as (
    select
        p.kept_source_id,
        ks.name as kept_source,
        p.dropped_source_id,
        ds.name as dropped_source,
        p.duplicates
    from pairs as p
    join sources as ks on ks.source_id = p.kept_source_id
    join sources as ds on ds.source_id = p.dropped_source_id
)

select * from final;
