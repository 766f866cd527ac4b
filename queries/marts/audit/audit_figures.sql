-- audit_figures: every definition's figure in every audit scope (all trials, and each run, agent
--   and model when the trials hold several: audit_scoped_trials): pooled successes/count, or
--   the mean of its per-run rates, a run being a (run, trial) pair, with that mean's standard
--   error over runs (`se_over_runs`, NULL under 2 runs); its per-run figures; what its
--   exclusions leave out; and which definitions keep exactly the same trials in that scope, so
--   that only the simplest of them is shown.
-- Reads: audit_definitions, audit_membership.
create or replace view audit_figures as
with

definitions as (
    select * from audit_definitions
),

membership as materialized (
    select * from audit_membership
),

scopes as (
    -- every scope with trials, and the whole even without any (each definition's figure is 0/0)
    select distinct scope_by, scope_value from membership
    union
    select 'all', ''
),

run_figures as (
    select
        scope_by,
        scope_value,
        simplicity,
        run_key,
        run_id,
        trial,
        run_label,
        coalesce(sum(trials) filter (where is_included and is_counted_success), 0)::bigint as successes,
        coalesce(sum(trials) filter (where is_included), 0)::bigint as count,
        coalesce(sum(trials) filter (where not is_included), 0)::bigint as left_out,
        -- left-out trials whose final attempt was no success either (the strict sense), and how
        -- many of those had retries
        coalesce(sum(trials) filter (where not is_included and not final_is_success), 0)::bigint
            as left_out_never_succeeded,
        coalesce(sum(trials) filter (where not is_included and not final_is_success and is_retried), 0)::bigint
            as left_out_never_succeeded_retried,
        coalesce(sum(trials) filter (where is_included and is_counted_late_pass), 0)::bigint
            as late_passes_counted
    from membership
    group by scope_by, scope_value, simplicity, run_key, run_id, trial, run_label
),

signatures as (
    -- a definition's membership on every trial profile present: equal signatures = the same
    -- trials in the denominator and the same ones counted as successes (exact, no hashing)
    select
        scope_by,
        scope_value,
        simplicity,
        string_agg(
            profile_id || ':' || case when is_included then is_counted_success::int::varchar else 'x' end,
            ',' order by profile_id
        ) as membership_signature
    from (select distinct scope_by, scope_value, simplicity, profile_id, is_included, is_counted_success from membership)
    group by scope_by, scope_value, simplicity
),

totals as (
    select
        scope_by,
        scope_value,
        simplicity,
        sum(successes)::bigint as successes,
        sum(count)::bigint as count,
        sum(left_out)::bigint as left_out,
        sum(left_out_never_succeeded)::bigint as left_out_never_succeeded,
        sum(left_out_never_succeeded_retried)::bigint as left_out_never_succeeded_retried,
        sum(late_passes_counted)::bigint as late_passes_counted,
        count(*) as runs,
        -- a run with no trial left has no rate (NULL) and drops out of the mean
        -- through DECIMAL, so that the mean does not depend on the order the runs are added in
        avg((successes::double / nullif(count, 0))::decimal(38, 18))::double as mean_of_run_rates,
        -- the standard error of that mean over runs, as leaderboards that average runs publish it
        -- (the sample standard deviation of the per-run rates over sqrt(runs))
        stddev_samp(successes::double / nullif(count, 0)) / sqrt(count(nullif(count, 0))) as se_over_runs,
        list(
            struct_pack(
                run := run_label,
                run_key := run_key,
                run_id := run_id,
                trial := trial,
                successes := successes,
                count := count,
                rate := successes::double / nullif(count, 0)
            )
            order by coalesce(run_id, ''), run_key, trial
        ) as run_figures
    from run_figures
    group by scope_by, scope_value, simplicity
),

figures as (
    select
        sc.scope_by,
        sc.scope_value,
        d.*,
        coalesce(t.successes, 0) as successes,
        coalesce(t.count, 0) as count,
        case d.aggregation
            when 'pooled' then coalesce(t.successes, 0)::double / nullif(coalesce(t.count, 0), 0)
            else t.mean_of_run_rates
        end as rate,
        t.se_over_runs,
        coalesce(t.runs, 0) as runs,
        coalesce(t.run_figures, []) as run_figures,
        coalesce(t.left_out, 0) as left_out,
        coalesce(t.left_out_never_succeeded, 0) as left_out_never_succeeded,
        coalesce(t.left_out_never_succeeded_retried, 0) as left_out_never_succeeded_retried,
        coalesce(t.late_passes_counted, 0) as late_passes_counted,
        coalesce(s.membership_signature, '') as membership_signature
    from scopes as sc
    cross join definitions as d
    left join totals as t using (scope_by, scope_value, simplicity)
    left join signatures as s using (scope_by, scope_value, simplicity)
),

final as (
    select
        * exclude (membership_signature),
        -- over a single run the mean of run rates is the pooled rate
        row_number() over equivalent = 1 as is_representative,
        count(*) over equivalent - 1 as equivalent_definitions
    from figures
    window equivalent as (
        partition by scope_by, scope_value, case when runs <= 1 then 'pooled' else aggregation end, membership_signature
        order by simplicity
        rows between unbounded preceding and unbounded following
    )
)

select * from final;
