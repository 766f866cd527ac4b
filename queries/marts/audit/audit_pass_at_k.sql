-- audit_pass_at_k: pass@k and pass^k (docs/metrics.md) in every audit scope, for k = 1 .. the
--   most trials of a task in that scope, as members of the family `denom audit` searches:
--   the two means over the tasks with n >= k (n = trials of the task with a record, c = its
--   final successes), how many tasks that is and how many were skipped, and the (n, c) shapes
--   with their task counts, from which `denom audit` forms the exact fraction a claim is
--   matched against (as it does from the per-run counts of a mean of runs).
-- Reads: audit_scoped_trials.
--
-- pass@k = mean over tasks of 1 - C(n-c, k) / C(n, k) (Chen et al. 2021, eq. 1); pass^k = mean
-- of C(c, k) / C(n, k) (Yao et al. 2024, section 5); C(a, k) / C(n, k) = prod_{i<k} (a-i)/(n-i).
create or replace view audit_pass_at_k as
with

tasks as (
    select
        scope_by,
        scope_value,
        task_id,
        count(*) filter (where final_status <> 'missing') as n,
        count(*) filter (where final_status = 'success') as c
    from audit_scoped_trials
    group by scope_by, scope_value, task_id
),

ks as (
    select scope_by, scope_value, unnest(range(1, max(n) + 1)) as k
    from tasks
    group by scope_by, scope_value
),

shapes as (
    select
        t.scope_by,
        t.scope_value,
        k.k,
        t.n,
        t.c,
        count(*) as tasks
    from tasks as t
    join ks as k using (scope_by, scope_value)
    where t.n >= k.k
    group by all
),

valued as (
    select
        *,
        1 - list_product(list_transform(range(k), i -> greatest(n - c - i, 0)::double / (n - i))) as pass_at_k,
        list_product(list_transform(range(k), i -> greatest(c - i, 0)::double / (n - i))) as pass_hat_k
    from shapes
),

skipped as (
    -- tasks with fewer than k trials (an expected task with no record has none)
    select k.scope_by, k.scope_value, k.k, count(*) as skipped
    from ks as k
    join tasks as t on t.scope_by = k.scope_by and t.scope_value = k.scope_value and t.n < k.k
    group by all
),

final as (
    select
        v.scope_by,
        v.scope_value,
        v.k,
        sum(v.tasks)::bigint as tasks,
        coalesce(any_value(s.skipped), 0)::bigint as skipped,
        sum(v.tasks * v.pass_at_k) / sum(v.tasks) as pass_at_k,
        sum(v.tasks * v.pass_hat_k) / sum(v.tasks) as pass_hat_k,
        sum(v.tasks * v.c)::bigint as successes,
        sum(v.tasks * v.n)::bigint as trials,
        list(struct_pack(n := v.n, c := v.c, tasks := v.tasks) order by v.n, v.c) as shapes
    from valued as v
    left join skipped as s using (scope_by, scope_value, k)
    group by v.scope_by, v.scope_value, v.k
)

select * from final;
