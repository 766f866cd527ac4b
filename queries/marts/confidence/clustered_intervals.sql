-- clustered_intervals: the analytic task-clustered interval per scope and figure, in the
--   scopes with several trials per task and at least clustered_from_tasks tasks.
-- Reads: confidence_settings, pass_at_k_by_task, rate_membership, several_trial_scopes.
-- Empty when: several_trial_scopes is empty.
--
-- Every figure is a ratio over the scope's m tasks: a rate cell's successes over its trials,
-- a pass@k or pass^k the sum of its tasks' values over the tasks with n >= k. With num_i and
-- den_i task i's share and R = sum(num) / sum(den), the cluster-robust variance is
-- sum((num_i - R den_i)^2) / sum(den)^2 (Miller 2024, "Adding Error Bars to Evals", the
-- clustered standard error; the delta method for a ratio): the trials of one task enter as
-- one residual, so their correlation is kept. It is the variance the task-clustered
-- bootstrap estimates by resampling; the interval is R +- z SE, clipped to [0, 1]. Tasks
-- without the figure (no trial in the cell, n < k) add nothing to either sum.
-- Unlike the bootstrap, which draws pass@k intervals for some k only, every k gets one.
create or replace view clustered_intervals as
with

settings as (
    select * from confidence_settings
),

by_task as (
    select * from pass_at_k_by_task
),

clustered_scopes as (
    select scope_id
    from several_trial_scopes
    where tasks >= (select clustered_from_tasks from settings)
),

figure_rows as (
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
    where scope_id in (select scope_id from clustered_scopes)
    group by all
    union all
    select scope_id, task_id, 'pass_at_k', null, null, k, pass_at_k, 1.0 from by_task
    where pass_at_k is not null and scope_id in (select scope_id from clustered_scopes)
    union all
    select scope_id, task_id, 'pass_hat_k', null, null, k, pass_hat_k, 1.0 from by_task
    where pass_hat_k is not null and scope_id in (select scope_id from clustered_scopes)
),

moments as (
    -- one pass per figure: sum((num_i - R den_i)^2) = S_nn - 2 R S_nd + R^2 S_dd. Every
    -- sum is exact, so the same whatever order the threads add in: a rate's num and den
    -- are whole counts (their products too, far below 2^53), a pass@k's num a fraction
    -- summed as DECIMAL as in pass_at_k, its square and product rounded to DECIMAL first
    select
        scope_id, figure, basis, denominator, k,
        sum(num::decimal(38, 18))::double as s_n,
        sum(den) as s_d,
        sum((num * num)::decimal(38, 18))::double as s_nn,
        sum((num * den)::decimal(38, 18))::double as s_nd,
        sum(den * den) as s_dd
    from figure_rows
    group by all
),

spread as (
    select
        scope_id, figure, basis, denominator, k,
        s_n / nullif(s_d, 0) as value,
        -- the residual sum cannot be negative; rounding could take an exact 0 below it
        sqrt(greatest(s_nn - 2 * (s_n / s_d) * s_nd + (s_n / s_d) ** 2 * s_dd, 0)) / s_d as se
    from moments
    where s_d > 0
),

final as (
    select
        s.scope_id,
        s.figure,
        s.basis,
        s.denominator,
        s.k,
        greatest(s.value - st.z * s.se, 0.0) as lo,
        least(s.value + st.z * s.se, 1.0) as hi
    from spread as s
    cross join settings as st
)

select * from final;
