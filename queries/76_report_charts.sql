-- Defines: the figures behind the charts of the HTML report (DESIGN section 12), none of
--          them new metrics, each a reshaping of the views before it:
--          denominator_waterfall (the chain total -> valid -> attributable -> completable
--          on each basis as a waterfall: a bar of the trials kept at each step and, on top
--          of it, one bar per reason of what that step removed), duration_histogram (kept
--          attempts per attempt status in bins of a round width, the axis reaching the
--          longest timeout limit), trial_waffle (one cell per trial: run, task, trial slot,
--          final status, detail, attempts, wall time, and its band and column in rows of
--          100 tasks; missing trials too) and
--          task_block_status (the same trials in at most 100 blocks of tasks, per final
--          status: the waffle of a run too large to draw one cell a trial).
-- Reads: rate_grid, denominator_removals, attempts_classified, timeout_limits,
--        trial_outcomes, trials.
create or replace view denominator_waterfall as
with

grid as (
    select basis, basis_order, step, denominator, count from rate_grid
),

removed as (
    -- a step's removals stacked above the trials it kept, largest reason first, so that
    -- the top of the stack is the count of the step before
    select
        r.basis,
        g.basis_order,
        r.step,
        r.denominator,
        r.fault,
        r.reason,
        r.trials,
        g.count + sum(r.trials) over (
            partition by r.basis, r.step
            order by r.trials desc, r.reason
            rows between unbounded preceding and current row
        ) as y_hi
    from denominator_removals as r
    join grid as g using (basis, step)
),

final as (
    select basis, basis_order, step, denominator, 'kept' as part, null::varchar as fault,
           null::varchar as reason, count as trials, 0::bigint as y_lo, count::bigint as y_hi
    from grid
    union all
    select basis, basis_order, step, denominator, 'removed', fault,
           reason, trials, (y_hi - trials)::bigint, y_hi::bigint
    from removed
)

select * from final;

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
        dense_rank() over (order by o.run_key, o.trial) as slot_index,
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
