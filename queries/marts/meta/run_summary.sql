-- run_summary: window from the first start to the last end, counts, concurrency.
-- Reads: attempts_classified, trials, named_run_keys, run_logs.
create or replace view run_summary as
with

kept as (
    -- the columns read below, copied once for the several reads
    select task_id, run_key, started_at, ended_at from attempts_classified
),

moments as (
    -- the change of attempts in flight at each start (+1) and end (-1)
    select started_at as moment, 1 as delta from kept where started_at is not null and ended_at is not null
    union all
    select ended_at as moment, -1 as delta from kept where started_at is not null and ended_at is not null
),

running as (
    -- the most in flight is reached at the end of some instant (the running count only falls
    -- inside one, ends before starts, and ends at 0): a RANGE frame sums each row's whole
    -- instant, its peers included, so every row holds the count at the end of its instant
    -- without grouping the instants first (on 1.4 M attempts that grouping took 1.4 of this
    -- relation's 1.7 s; docs/benchmarks.md)
    select sum(delta) over (order by moment range between unbounded preceding and current row) as in_flight
    from moments
),

final as (
    select
        (select count(distinct task_id) from kept) as tasks,
        (select count(*) from trials) as trials,
        (select count(*) from kept) as attempts,
        -- a run whose log owes trials but holds none counts too (run_logs)
        (select count(*) from (
            select run_key from kept union select k.run_key from run_logs join named_run_keys as k using (run_id)
        )) as runs,
        -- like a trial's wall time, the window runs from the first start (docs/metrics.md)
        (select min(started_at) from kept) as window_start,
        (select max(ended_at) from kept) as window_end,
        (select max(in_flight) from running) as concurrency
)

select * from final;
