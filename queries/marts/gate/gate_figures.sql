-- gate_figures: every figure a `denom gate` condition can name (docs/compare.md), one row
--   each: the rate cells `basis/denominator` (rate = successes/count, a fraction) and
--   the metrics timeout_rate, environment_share, constraint_violations, grader_errors,
--   rejected, p95_s, cost_per_success, and cost_per_success/denominator (per_success: the
--   spend of the trials a denominator keeps over their final successes, USD); `value` NULL when
--   the figure is n/a. `tasks`: the tasks the figure stands on (a cell's and a
--   cost_per_success/denominator's: those with a trial in its denominator; a metric's: every
--   task of the run), which `--min-tasks` asks enough of. `cost_missing_attempts`: for
--   cost_per_success/denominator, its attempts without a cost (> 0: the value is a lower bound);
--   NULL for the other figures.
-- Reads: rate_grid, timeout_rate, trial_outcomes, denominators, kept_in, diagnostics, accounting,
--   efficiency, per_success.
-- Not materialized: a row per cell and metric over marts the report keeps already.
create or replace view gate_figures as
with

task_reach as (
    -- per task the step that leaves out the last of its trials (NULL: every step keeps one)
    select
        basis,
        task_id,
        case when bool_or(excluded_step is null) then null else max(excluded_step) end as excluded_step
    from trial_outcomes
    group by basis, task_id
),

cell_tasks as (
    -- a cell's tasks: those with a trial its denominator keeps
    select r.basis, d.denominator, count(r.task_id) as tasks
    from task_reach as r
    join denominators as d on kept_in(d.step, r.excluded_step)
    group by r.basis, d.denominator
),

run_tasks as (
    select count(distinct task_id) as tasks from trial_outcomes where basis = 'final'
),

cells as (
    select
        g.basis || '/' || g.denominator as figure,
        'cell' as kind,
        g.rate as value,
        g.successes as numerator,
        g.count as denominator,
        coalesce(t.tasks, 0) as tasks,
        g.basis_order * 10 + g.step as figure_order
    from rate_grid as g
    left join cell_tasks as t using (basis, denominator)
),

environment as (
    -- final trials whose fault is the environment's (infrastructure, external API, queue,
    -- missing), over every trial: the share the attributable denominator removes
    select
        count(*) filter (where fault = 'environment') as failures,
        count(*) as trials
    from trial_outcomes
    where basis = 'final'
),

metrics as (
    select 'timeout_rate' as figure, 'metric' as kind, rate as value, timeouts as numerator, trials as denominator, 101 as figure_order
    from timeout_rate
    union all
    select 'environment_share', 'metric', failures::double / nullif(trials, 0), failures, trials, 102
    from environment
    union all
    select 'constraint_violations', 'metric', constraint_violations::double, null, null, 103 from diagnostics
    union all
    select 'grader_errors', 'metric', grader_errors::double, null, null, 104 from diagnostics
    union all
    select 'rejected', 'metric', rejected::double, null, null, 105 from accounting
    union all
    select 'p95_s', 'metric', duration_p95, null, null, 106 from efficiency where scope_id = 0
    union all
    select 'cost_per_success', 'metric', cost_per_success, null, null, 107 from efficiency where scope_id = 0
),

per_denominator as (
    -- cost per solved task under each denominator (final basis), after the metrics in chain order
    select
        'cost_per_success/' || denominator as figure,
        'metric' as kind,
        cost_per_success_usd as value,
        tasks,
        cost_missing_attempts,
        200 + step as figure_order
    from per_success
    where scope_id = 0
)

select c.figure, c.kind, c.value, c.numerator, c.denominator, c.tasks, null::bigint as cost_missing_attempts, c.figure_order from cells as c
union all
select m.figure, m.kind, m.value, m.numerator, m.denominator, r.tasks, null, m.figure_order from metrics as m cross join run_tasks as r
union all
select p.figure, p.kind, p.value, null, null, p.tasks, p.cost_missing_attempts, p.figure_order from per_denominator as p;
