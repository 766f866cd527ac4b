-- Defines: confidence_settings (level, z, bootstrap resamples and seed), the macros
--          wilson_lo / wilson_hi, bootstrap_intervals (task-clustered percentile bootstrap
--          per scope and figure), figure_intervals (every rate cell and every pass@k and
--          pass^k, per scope, with ci95 = [lo, hi] and ci_method), and its two readable
--          halves rate_intervals and pass_at_k_intervals (each recomputes the bootstrap:
--          read figure_intervals once when both are needed).
-- Reads: rate_cells, rate_membership, pass_at_k_by_task, pass_at_k.
--
-- Which interval: in a scope where every task has at most one trial, the trials are
-- independent and a rate gets the Wilson score interval (Wilson 1927; Newcombe 1998,
-- "Two-sided confidence intervals for the single proportion", method 3). With several
-- trials per task, trials of one task are correlated, so the whole task is the unit of
-- resampling: draw m of the scope's m tasks with replacement, 2000 times, recompute the
-- figure on each resample, and take the 2.5th and 97.5th nearest-rank percentiles.
-- The draws come from hash(seed, resample, draw), never random(): the same input gives
-- the same interval on every run. Resamples in which a figure is undefined (no trial in
-- the cell, no task with n >= k) are left out of its percentiles.
-- pass@k and pass^k get a bootstrap interval for k = 1..10, the 1-2-5 ladder above and the
-- largest k only (boot_ks): the cost stays bounded however many trials a task has.
create or replace view confidence_settings as
select
    0.95 as level,
    1.959963984540054 as z,
    2000 as resamples,
    20250312 as seed;

-- Wilson score interval for s successes out of n at normal quantile z (NULL when n = 0);
-- clamped to [0, 1] against rounding at s = 0 and s = n
create or replace macro wilson_lo(s, n, z) as
    case when n > 0 then greatest(0.0,
        (s / n + z * z / (2 * n) - z * sqrt(s / n * (1 - s / n) / n + z * z / (4 * n * n))) / (1 + z * z / n))
    end;

create or replace macro wilson_hi(s, n, z) as
    case when n > 0 then least(1.0,
        (s / n + z * z / (2 * n) + z * sqrt(s / n * (1 - s / n) / n + z * z / (4 * n * n))) / (1 + z * z / n))
    end;

create or replace view bootstrap_intervals as
with

settings as (
    select * from confidence_settings
),

by_task as (
    select * from pass_at_k_by_task
),

boot_scopes as (
    -- only scopes with several trials per task are bootstrapped; the others use Wilson,
    -- so nothing below is computed for them
    select scope_id from by_task where k = 1 group by scope_id having max(n) > 1
),

pools as (
    -- the tasks of each scope that has several trials per task, numbered 1..m
    select
        scope_id,
        task_id,
        row_number() over (partition by scope_id order by task_id) as task_idx,
        count(*) over (partition by scope_id) as m
    from by_task
    where k = 1 and scope_id in (select scope_id from boot_scopes)
),

boot_ks as (
    -- pass@k and pass^k are bootstrapped for k = 1..10, k on the 1-2-5 ladder (20, 50, 100,
    -- 200, ...) and the largest k of the scope; other k get no interval (NULL). The work
    -- grows with resamples x kinds of task x figures, and a task with 8,000 trials would
    -- otherwise bring 16,000 figures to every resample (issue 16: 3 tasks x 8,000 trials)
    select *
    from (
        select *, max(k) over (partition by scope_id) as largest_k
        from by_task
        where scope_id in (select scope_id from boot_scopes)
    )
    where k <= 10
        or k = largest_k
        or (k % (10 ** floor(log10(k)))::bigint = 0 and k // (10 ** floor(log10(k)))::bigint in (1, 2, 5))
),

figure_rows as (
    -- each figure as a numerator and a denominator summed over the drawn tasks: a rate
    -- cell's successes over its trials; a task's pass@k or pass^k (n >= k) over 1
    select
        scope_id,
        task_id,
        'rate' as figure,
        basis,
        denominator,
        null::bigint as k,
        count(*) filter (where is_success)::double as num,
        count(*)::double as den
    from rate_membership
    where scope_id in (select scope_id from boot_scopes)
    group by all
    union all
    select scope_id, task_id, 'pass_at_k', null, null, k, pass_at_k, 1.0 from boot_ks
    where pass_at_k is not null
    union all
    select scope_id, task_id, 'pass_hat_k', null, null, k, pass_hat_k, 1.0 from boot_ks
    where pass_hat_k is not null
),

figure_keys as (
    -- a small integer per figure keeps the big aggregation below cheap
    select figure, basis, denominator, k, row_number() over (order by figure, basis, denominator, k) as figure_id
    from (select distinct figure, basis, denominator, k from figure_rows)
),

task_figures as (
    select r.scope_id, p.task_idx, f.figure_id, r.num, r.den
    from figure_rows as r
    join pools as p using (scope_id, task_id)
    join figure_keys as f
        on f.figure = r.figure
        and f.basis is not distinct from r.basis
        and f.denominator is not distinct from r.denominator
        and f.k is not distinct from r.k
),

signatures as (
    -- tasks with the same figures are interchangeable in a resample: draws are counted per
    -- kind of task, so the work grows with the kinds, not with the tasks. A kind is named by
    -- two order-free 64-bit digests of the task's figure rows (xor and sum of their hashes).
    select
        scope_id,
        task_idx,
        bit_xor(hash(figure_id, num, den)) as digest_xor,
        sum(hash(figure_id, num, den)::hugeint) as digest_sum
    from task_figures
    group by scope_id, task_idx
),

task_kinds as (
    -- each task's kind, named by the lowest task_idx of that kind
    select
        scope_id,
        task_idx,
        min(task_idx) over (partition by scope_id, digest_xor, digest_sum) as kind_idx
    from signatures
),

kind_lookup as (
    select scope_id, count(*) as m, list(kind_idx order by task_idx) as kind_of
    from task_kinds
    group by scope_id
),

kind_figures as (
    select f.scope_id, f.task_idx as kind_idx, f.figure_id, f.num, f.den
    from task_figures as f
    join task_kinds as t using (scope_id, task_idx)
    where t.kind_idx = t.task_idx
),

draw_numbers as (
    select k.scope_id, k.m, k.kind_of, r.resample, unnest(range(1, k.m + 1)) as draw
    from kind_lookup as k
    cross join (select unnest(range(1, resamples + 1)) as resample from settings) as r
),

draws as (
    -- m draws with replacement per resample: draw d of resample r takes task
    -- hash(seed, r, d) mod m + 1, never random(), so every run draws the same tasks.
    -- (The modulo is taken in UBIGINT, hash()'s type: mixed with BIGINT it would be HUGEINT, slow.)
    select
        n.scope_id,
        n.resample,
        n.kind_of[(hash(st.seed, n.resample, n.draw) % n.m::ubigint)::bigint + 1] as kind_idx
    from draw_numbers as n
    cross join settings as st
),

kind_draws as (
    -- a kind drawn twice counts twice
    select scope_id, resample, kind_idx, count(*) as times
    from draws
    group by all
),

resampled as (
    select
        d.scope_id,
        d.resample,
        f.figure_id,
        -- summed as DECIMAL, so that the order in which parallel threads add up cannot move a bound
        (sum((d.times * f.num)::decimal(38, 18)) / nullif(sum((d.times * f.den)::decimal(38, 18)), 0))::double as value
    from kind_draws as d
    join kind_figures as f using (scope_id, kind_idx)
    group by d.scope_id, d.resample, f.figure_id
),

percentiles as (
    select
        scope_id,
        figure_id,
        -- the 95% level of confidence_settings; quantile_disc takes constants only
        quantile_disc(value, 0.025) as lo,
        quantile_disc(value, 0.975) as hi,
        count(value) as resamples_used
    from resampled
    group by scope_id, figure_id
),

final as (
    select p.scope_id, f.figure, f.basis, f.denominator, f.k, p.lo, p.hi, p.resamples_used
    from percentiles as p
    join figure_keys as f using (figure_id)
)

select * from final;

create or replace view figure_intervals as
with

settings as (
    select * from confidence_settings
),

cells as (
    select * from rate_cells
),

pass_rows as (
    select * from pass_at_k
),

boot as (
    select * from bootstrap_intervals
),

shape as (
    -- a scope has several trials per task when some task counts for k = 2
    select scope_id, bool_or(k > 1 and tasks > 0) as several_trials_per_task
    from pass_rows
    group by scope_id
),

figures as (
    select
        scope_id, 'rate' as figure, basis, denominator, null::bigint as k, basis_order, step,
        successes::double as successes, count, null::bigint as skipped, rate as value
    from cells
    union all
    -- pass@1 over tasks with one trial each is a share of tasks: "successes" = tasks passed
    select scope_id, 'pass_at_k', null, null, k, null, null, pass_at_k * tasks, tasks, skipped, pass_at_k
    from pass_rows
    union all
    select scope_id, 'pass_hat_k', null, null, k, null, null, pass_hat_k * tasks, tasks, skipped, pass_hat_k
    from pass_rows
),

final as (
    select
        f.scope_id,
        f.figure,
        f.basis,
        f.denominator,
        f.k,
        f.basis_order,
        f.step,
        f.successes,
        f.count,
        f.skipped,
        f.value,
        case when sh.several_trials_per_task then 'bootstrap' else 'wilson' end as ci_method,
        case
            when f.count = 0 then null
            when sh.several_trials_per_task then [b.lo, b.hi]
            else [wilson_lo(f.successes, f.count::double, st.z), wilson_hi(f.successes, f.count::double, st.z)]
        end as ci95
    from figures as f
    cross join settings as st
    left join shape as sh using (scope_id)
    left join boot as b
        on b.scope_id = f.scope_id
        and b.figure = f.figure
        and b.basis is not distinct from f.basis
        and b.denominator is not distinct from f.denominator
        and b.k is not distinct from f.k
)

select * from final;

create or replace view rate_intervals as
select
    scope_id, basis, denominator, basis_order, step, successes::bigint as successes, count, value as rate,
    ci_method, ci95
from figure_intervals
where figure = 'rate';

create or replace view pass_at_k_intervals as
select
    a.scope_id,
    a.k,
    a.value as pass_at_k,
    h.value as pass_hat_k,
    a.count as tasks,
    a.skipped,
    a.ci_method,
    a.ci95 as pass_at_k_ci95,
    h.ci95 as pass_hat_k_ci95
from figure_intervals as a
join figure_intervals as h on h.scope_id = a.scope_id and h.k = a.k and h.figure = 'pass_hat_k'
where a.figure = 'pass_at_k';
