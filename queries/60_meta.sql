-- Defines: accounting (every physical line in one bucket: lines = records + blank + rejected,
--          DESIGN section 8; `unaccounted` is what does not add up, 0 when all is well;
--          `broken_sources`: sources that broke part-way, a truncated gzip or tar, whose
--          records before the break are loaded and whose lost rest no line count can show),
--          run_summary (window from the first start to the last end, counts, concurrency),
--          timeout_limits, retry_policy (attempts per trial at most, which statuses were
--          retried, and how often), secrets_masked (per kind; `accounting.secrets_masked`
--          is their sum).
-- Reads: sources, masked_secrets, attempts, stg_attempts, attempts_classified, trials.
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
    -- secrets masked at ingest (src/ingest/secrets.ts), in lines and source names
    select coalesce(sum(secrets), 0) as secrets_masked
    from masked_secrets
)

select * from lines cross join attempt_checks cross join masked;

create or replace view secrets_masked as
-- secrets masked at ingest, per kind: how many, in how many lines (a source name counts as none)
select
    kind,
    sum(secrets) as secrets,
    count(line) as lines
from masked_secrets
group by kind;

create or replace view run_summary as
with

kept as (
    select * from attempts_classified
),

intervals as (
    -- at one instant, ends come before starts: touching attempts do not overlap
    select started_at as moment, 1 as delta from kept where started_at is not null and ended_at is not null
    union all
    select ended_at as moment, -1 as delta from kept where started_at is not null and ended_at is not null
),

running as (
    select sum(delta) over (order by moment, delta rows between unbounded preceding and current row) as in_flight
    from intervals
),

final as (
    select
        (select count(distinct task_id) from kept) as tasks,
        (select count(*) from trials) as trials,
        (select count(*) from kept) as attempts,
        (select count(distinct run_key) from kept) as runs,
        -- like a trial's wall time, the window runs from the first start (DESIGN section 6)
        (select min(started_at) from kept) as window_start,
        (select max(ended_at) from kept) as window_end,
        (select max(in_flight) from running) as concurrency
)

select * from final;

create or replace view timeout_limits as
select
    timeout_limit_s,
    count(*) as attempts
from attempts_classified
group by timeout_limit_s;

create or replace view retry_policy as
with

kept as (
    select * from attempts_classified
),

retried as (
    -- an attempt was retried when a later attempt of the same trial exists
    select k.status
    from kept as k
    join trials as t using (run_key, task_id, trial)
    where k.attempt < t.final_attempt
),

final as (
    select
        -- attempts made, by number: a summary record's attempt n stands for n attempts
        (select max(attempts_made) from trials) as max_attempts,
        (select count(*) filter (where attempts_made > 1) from trials) as trials_retried,
        (select list(struct_pack(status := status, attempts := n) order by n desc, status)
            from (select status, count(*) as n from retried group by status)) as retried_statuses
)

select * from final;
