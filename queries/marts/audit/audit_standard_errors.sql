-- audit_standard_errors: the task-clustered standard error of every definition's pooled figure
--   in every audit scope, for claims published as `M ± S`: tasks are the clusters (the trials of
--   one task are not independent), SE = sqrt(T / (T - 1) * sum_i (c_i - p n_i)^2) / N over the
--   T tasks with a trial in the definition's denominator, n_i of them and c_i counted successes
--   in task i, N = sum n_i, p = sum c_i / N: the cluster-robust standard error (Miller 2024,
--   "Adding Error Bars to Evals", section 2.2) with the small-sample factor T / (T - 1). With one
--   trial per task it is the sample standard deviation of the 0/1 outcomes over sqrt(N); with
--   k trials of every task, that of the per-task means over sqrt(T) (the usual stderr of a
--   harness that reduces a task's trials by their mean). NULL under 2 tasks.
-- Reads: audit_scoped_trials, audit_trial_cells, audit_membership.
-- Not materialized: `denom audit` asks for the few definitions a claim `M ± S` matches; a copy would
--   compute all 648 (a row per scope, definition and task in between: billions over a big lake).
create or replace view audit_standard_errors as
with

profiles as (
    -- each trial profile of audit_trial_cells by the text of its facts (a NULL fact as '-')
    select distinct
        concat_ws('|', first_status, coalesce(first_fault, '-'), first_is_late_pass, final_status, coalesce(final_fault, '-'),
            final_is_late_pass, any_invalid, any_environment, any_timeout, any_unverified_timeout, any_unrecognized, is_retried)
            as profile_key,
        profile_id
    from audit_trial_cells
),

members as (
    select distinct scope_by, scope_value, simplicity, profile_id, is_included, is_counted_success
    from audit_membership
),

trials_ as (
    select
        scope_by,
        scope_value,
        task_id,
        concat_ws('|', first_status, coalesce(first_fault, '-'), coalesce(first_is_late_pass, false), final_status,
            coalesce(final_fault, '-'), coalesce(final_is_late_pass, false), any_invalid, any_environment, any_timeout,
            any_unverified_timeout, any_unrecognized, attempts_made > 1) as profile_key
    from audit_scoped_trials
),

per_task as (
    select
        m.scope_by,
        m.scope_value,
        m.simplicity,
        t.task_id,
        count(*) filter (where m.is_included) as n,
        count(*) filter (where m.is_included and m.is_counted_success) as c
    from trials_ as t
    join profiles as p using (profile_key)
    join members as m on m.scope_by = t.scope_by and m.scope_value is not distinct from t.scope_value and m.profile_id = p.profile_id
    group by m.scope_by, m.scope_value, m.simplicity, t.task_id
),

final as (
    -- one pass over the tasks: with N = sum n_i, C = sum c_i and p = C / N,
    -- sum_i (c_i - p n_i)^2 = (N^2 sum c_i^2 - 2 N C sum c_i n_i + C^2 sum n_i^2) / N^2, its numerator
    -- an exact integer; a single chain, so that a filter on the definitions (the select's) reaches
    -- audit_membership before any task is grouped
    select
        scope_by,
        scope_value,
        simplicity,
        count(*) filter (where n > 0) as tasks,
        sum(n)::bigint as trials,
        sum(c)::bigint as successes,
        case
            when count(*) filter (where n > 0) >= 2 then
                sqrt(
                    count(*) filter (where n > 0) / (count(*) filter (where n > 0) - 1)
                    * ((sum(n)::hugeint * sum(n) * sum(c * c) - 2 * sum(n)::hugeint * sum(c) * sum(c * n)
                        + sum(c)::hugeint * sum(c) * sum(n * n))::double / (sum(n)::double * sum(n)))
                ) / sum(n)
        end as se_clustered_by_task
    from per_task
    group by scope_by, scope_value, simplicity
)

select * from final;
