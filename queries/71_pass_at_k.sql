-- Defines: task_trial_counts (per scope and task: n = trials with a record, c = final
--          successes), pass_at_k_by_task (each task's pass@k and pass^k for k = 1 .. the
--          largest n, NULL where the task has n < k) and
--          pass_at_k (per scope, k = 1 .. the largest n: the means over tasks with n >= k,
--          how many tasks that is, and how many were skipped).
-- Reads: scoped_trial_outcomes.
--
-- pass@k = mean over tasks of 1 - C(n-c, k) / C(n, k): the unbiased estimator of Chen et al.
--          2021, "Evaluating Large Language Models Trained on Code" (the Codex paper), eq. 1.
-- pass^k = mean over tasks of C(c, k) / C(n, k): Yao et al. 2024, "tau-bench", section 5.
-- C(a, k) / C(n, k) = prod_{i=0}^{k-1} (a - i) / (n - i): a running product of ratios, each
-- in [0, 1], so nothing overflows and no factorial is formed. A task with n < k is skipped
-- for that k and counted, never filled in; an expected task with no record (n = 0) is
-- skipped for every k.
create or replace view task_trial_counts as
select
    scope_id,
    task_id,
    count(*) filter (where attempts > 0) as n,
    count(*) filter (where is_success) as c
from scoped_trial_outcomes
where basis = 'final'
group by scope_id, task_id;

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

create or replace view pass_at_k as
with

by_task as (
    select * from pass_at_k_by_task
),

final as (
    select
        scope_id,
        k,
        -- exact DECIMAL sums: the same figure whatever order the threads add the tasks in
        avg(pass_at_k::decimal(38, 18))::double as pass_at_k,
        avg(pass_hat_k::decimal(38, 18))::double as pass_hat_k,
        count(pass_at_k) as tasks,
        count(*) - count(pass_at_k) as skipped
    from by_task
    group by scope_id, k
)

select * from final;
