-- bootstrap_intervals: task-clustered percentile bootstrap per scope and figure.
-- Reads: confidence_settings, pass_at_k_by_task, rate_membership, several_trial_scopes.
-- Empty when: several_trial_scopes is empty.
--
-- Which interval: in a scope where every task has at most one trial, the trials are
-- independent and a rate gets the Wilson score interval (Wilson 1927; Newcombe 1998,
-- "Two-sided confidence intervals for the single proportion", method 3). With several
-- trials per task, trials of one task are correlated, so the whole task is the unit of
-- resampling: draw m of the scope's m tasks with replacement, 2000 times, recompute the
-- figure on each resample, and take the 2.5th and 97.5th nearest-rank percentiles.
-- From clustered_from_tasks tasks on, a scope gets the analytic interval of
-- clustered_intervals instead: draws grow with resamples x tasks.
-- The draws come from hash(seed, resample, draw), never random(): the same input gives
-- the same interval on every run. Resamples in which a figure is undefined (no trial in
-- the cell, no task with n >= k) are left out of its percentiles.
-- pass@k and pass^k get a bootstrap interval for k = 1..10, the 1-2-5 ladder above and the
-- largest k only (boot_ks): the cost stays bounded however many trials a task has.
create or replace view bootstrap_intervals as
with

settings as (
    select * from confidence_settings
),

by_task as (
    select * from pass_at_k_by_task
),

boot_scopes as (
    -- only scopes with several trials per task and fewer than clustered_from_tasks tasks are
    -- bootstrapped; the others use Wilson or clustered_intervals, so nothing below is
    -- computed for them
    select scope_id
    from several_trial_scopes
    where tasks < (select clustered_from_tasks from settings)
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
    -- otherwise bring 16,000 figures to every resample (3 tasks x 8,000 trials)
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
    select r.scope_id, p.task_idx, f.figure_id, r.figure = 'rate' as is_rate, r.num, r.den
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
    select f.scope_id, f.task_idx as kind_idx, f.figure_id, f.is_rate, f.num, f.den
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
    -- the figure on each resample: sum(times x num) / sum(times x den) over the drawn kinds.
    -- The order in which parallel threads add up must not move a bound. A rate's num and den
    -- are whole counts: every partial sum is a whole number far below 2^53, exact in a double
    -- in any order (and the same double the DECIMAL sum gave). A pass@k or pass^k is a
    -- fraction: summed as DECIMAL, over a den of whole tasks (half the cost of summing all
    -- as DECIMAL on the orchestrator file of docs/benchmarks.md)
    select
        d.scope_id,
        d.resample,
        f.figure_id,
        sum(d.times * f.num) / nullif(sum(d.times * f.den), 0) as value
    from kind_draws as d
    join kind_figures as f using (scope_id, kind_idx)
    where f.is_rate
    group by d.scope_id, d.resample, f.figure_id
    union all
    select
        d.scope_id,
        d.resample,
        f.figure_id,
        sum((d.times * f.num)::decimal(38, 18))::double / nullif(sum(d.times * f.den), 0) as value
    from kind_draws as d
    join kind_figures as f using (scope_id, kind_idx)
    where not f.is_rate
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
