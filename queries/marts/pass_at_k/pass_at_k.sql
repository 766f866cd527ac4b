-- pass_at_k: per scope, k = 1 .. the largest n: the means over tasks with n >= k, how many
--   tasks that is, and how many were skipped.
-- Reads: pass_at_k_by_task.
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
