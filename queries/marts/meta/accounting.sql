-- accounting: every physical line in one bucket: lines = records + blank + rejected
--   (docs/inputs.md); `unaccounted` is what does not add up, 0 when all is well; `broken_sources`:
--   sources that broke part-way, a truncated gzip or tar, whose records before the break are
--   loaded and whose lost rest no line count can show.
--   `duplicates_across_sources`: differing duplicates whose kept copy came from another source
--   (source_duplicates; never quiet); `duplicate_keys`: keys written twice in one
--   JSON object (the last value read, as JSON.parse does).
-- Reads: sources, stg_attempts, masked_secrets, source_duplicates, duplicate_keys.
create or replace view accounting as
with

lines as (
    select
        coalesce(sum(lines), 0) as lines,
        coalesce(sum(records), 0) as records,
        coalesce(sum(blank), 0) as blank,
        coalesce(sum(rejected), 0) as rejected,
        coalesce(sum(non_finite), 0) as non_finite,
        -- a JSONL source's lines are the physical lines its splitter counted, so this
        -- is a real check: a line that reached no bucket shows here
        coalesce(sum(lines - records - blank - rejected), 0) as unaccounted,
        count(*) filter (where problem is not null) as broken_sources
    from sources
),

attempt_checks as (
    select
        count(*) filter (where not is_kept) as duplicates,
        count(*) filter (where duplicate_kind = 'identical') as duplicates_identical,
        count(*) filter (where duplicate_kind = 'differing') as duplicates_differing,
        count(*) filter (where is_kept and status = 'unrecognized') as unrecognized,
        coalesce(sum(naive_timestamps), 0) as naive_timestamps
    from stg_attempts
),

masked as (
    -- secrets masked at ingest (src/ingest/records/secrets.ts), in lines and source names
    select coalesce(sum(secrets), 0) as secrets_masked
    from masked_secrets
),

across_sources as (
    select coalesce(sum(duplicates), 0) as duplicates_across_sources from source_duplicates
),

repeated_keys as (
    select count(*) as duplicate_keys from duplicate_keys
)

select * from lines cross join attempt_checks cross join masked cross join across_sources cross join repeated_keys;
