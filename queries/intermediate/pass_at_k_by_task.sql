-- pass_at_k_by_task: each task's pass@k and pass^k for k = 1 .. the largest n, NULL where the
--   task has n < k.
-- Reads: task_trial_counts.
create or replace view pass_at_k_by_task as
with

tasks as (
    select * from task_trial_counts
),

ks as (
    -- k = 1 .. the largest trial count of any task (the same k in every scope)
    select unnest(range(1, coalesce(max(n), 0) + 1)) as k from tasks where scope_id = 0
),

shapes as (
    -- the estimators depend on (n, c) and k only: compute them once per distinct (n, c),
    -- a handful of rows, and hand them to every task of that shape
    select distinct n, c from tasks
),

steps as (
    select s.n, s.c, ks.k, ks.k - 1 as i
    from shapes as s
    cross join ks
),

values_by_shape as (
    select
        n,
        c,
        k,
        -- C(a, k) / C(n, k) as a running product of (a - i) / (n - i) over i < k; greatest(.., 0)
        -- keeps a product at 0 once a factor is 0; a task with n < k is skipped (NULL)
        case when k <= n then
            1 - product(case when i < n then greatest(n - c - i, 0)::double / (n - i) end) over running
        end as pass_at_k,
        case when k <= n then
            product(case when i < n then greatest(c - i, 0)::double / (n - i) end) over running
        end as pass_hat_k
    from steps
    window running as (partition by n, c order by k rows between unbounded preceding and current row)
),

final as (
    select t.scope_id, t.task_id, t.n, t.c, v.k, v.pass_at_k, v.pass_hat_k
    from tasks as t
    join values_by_shape as v using (n, c)
)

select * from final;
