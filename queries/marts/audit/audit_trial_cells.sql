-- audit_trial_cells: the trials of each audit scope grouped by run and by profile: every fact a
--   definition of the family can ask about a trial, so that a definition's membership is a
--   function of the profile alone (which is what makes equivalent definitions detectable
--   exactly).
-- Reads: audit_scoped_trials.
create or replace view audit_trial_cells as
with

trials_ as (
    select * from audit_scoped_trials
),

cells as (
    select
        scope_by,
        scope_value,
        run_key,
        run_id,
        run_label as run_name,
        trial,
        first_status,
        first_fault,
        coalesce(first_is_late_pass, false) as first_is_late_pass,
        final_status,
        final_fault,
        coalesce(final_is_late_pass, false) as final_is_late_pass,
        any_invalid,
        any_environment,
        any_timeout,
        -- with late passes counted, a timeout that passed verification delivered a result:
        -- only the other timeouts are "timeouts" for the exclusion
        any_unverified_timeout,
        any_unrecognized,
        attempts_made > 1 as is_retried,
        count(*) as trials
    from trials_
    group by all
),

final as (
    select
        *,
        -- the profile: the same facts in every run and scope get the same id
        dense_rank() over (
            order by
                first_status, first_fault, first_is_late_pass, final_status, final_fault, final_is_late_pass,
                any_invalid, any_environment, any_timeout, any_unverified_timeout, any_unrecognized, is_retried
        ) as profile_id,
        -- a run is a distinct (run, trial) pair: one file of 1-of-5 .. 5-of-5 holds five runs
        case
            when count(distinct trial) over (partition by scope_by, scope_value, run_key) > 1
                then run_name || ' trial ' || trial
            else run_name
        end as run_label
    from cells
)

select * from final;
