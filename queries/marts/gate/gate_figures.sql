-- gate_figures: every figure a `denom gate` condition can name (DESIGN section 11), one row
--   each: the eight rate cells `basis/denominator` (rate = successes/count, a fraction) and
--   the metrics timeout_rate, environment_share, constraint_violations, grader_errors,
--   rejected, p95_s, cost_per_success; `value` NULL when the figure is n/a.
-- Reads: rate_grid, timeout_rate, trial_outcomes, diagnostics, accounting, efficiency.
-- Not materialized: fifteen rows over marts the report keeps already.
create or replace view gate_figures as
with

cells as (
    select
        basis || '/' || denominator as figure,
        'cell' as kind,
        rate as value,
        successes as numerator,
        count as denominator,
        basis_order * 10 + step as figure_order
    from rate_grid
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
)

select * from cells
union all
select * from metrics;
