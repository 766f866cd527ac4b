-- duration_histogram: kept attempts per attempt status in bins of a round width (1, 2 or 5 times a power
--   of ten seconds, about 20 bins; bins hold their lower bound), every bin of every status with
--   a timed attempt listed (0 when empty); the axis reaches the longest timeout limit.
-- Reads: attempts_classified, timeout_limits.
create or replace view duration_histogram as
with

timed as (
    select status, duration_s from attempts_classified where duration_s is not null
),

span as (
    -- the axis runs to the longest duration or the longest timeout limit, whichever is
    -- larger, so the limit is always on it
    select greatest(
        (select max(duration_s) from timed),
        (select max(timeout_limit_s) from timeout_limits)
    ) as top
),

width as (
    -- about 20 bins of a round width: 1, 2 or 5 times a power of ten (seconds)
    select
        case
            when top is null or top <= 0 then null
            else (
                select min(m * pow(10, floor(log10(top / 20))))
                from (values (1), (2), (5), (10)) as t (m)
                where m * pow(10, floor(log10(top / 20))) >= top / 20
            )
        end as bin_s,
        top
    from span
),

bins as (
    select
        unnest(range(0, (floor(top / bin_s) + 1)::bigint)) as bin,
        bin_s
    from width
    where bin_s is not null
),

statuses as (
    select distinct status from timed
),

counted as (
    select status, floor(t.duration_s / w.bin_s)::bigint as bin, count(*) as attempts
    from timed as t
    cross join width as w
    group by all
),

final as (
    select
        s.status,
        b.bin,
        b.bin * b.bin_s as bin_lo_s,
        (b.bin + 1) * b.bin_s as bin_hi_s,
        coalesce(c.attempts, 0) as attempts
    from statuses as s
    cross join bins as b
    left join counted as c on c.status = s.status and c.bin = b.bin
)

select * from final;
