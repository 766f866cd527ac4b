-- audit_membership: for every definition of the family and every trial cell of every audit
--   scope: is the cell in the denominator, and does it count as a success.
-- Reads: audit_definitions, audit_trial_cells.
--
-- audit_figures reads audit_membership once (a materialized CTE): every view below it
-- (trials, stg_attempts) is then evaluated once per query, not once per use.
create or replace view audit_membership as
with

definitions as (
    select * from audit_definitions
),

cells as (
    select * from audit_trial_cells
),

on_basis as (
    select
        d.simplicity,
        d.basis,
        d.numerator,
        d.invalid_scope,
        d.environment_scope,
        d.timeout_scope,
        d.unrecognized_scope,
        c.scope_by,
        c.scope_value,
        c.run_key,
        c.run_id,
        c.trial,
        c.run_label,
        c.profile_id,
        c.trials,
        c.final_status = 'success' as final_is_success,
        c.is_retried,
        d.numerator = 'successes+late_passes' as counts_late_passes,
        -- the basis attempt (docs/metrics.md: exclusions are judged on the numerator's attempt)
        case d.basis when 'first' then c.first_status else c.final_status end as status,
        case d.basis when 'first' then c.first_fault else c.final_fault end as fault,
        case d.basis when 'first' then c.first_is_late_pass else c.final_is_late_pass end as is_late_pass,
        c.any_invalid,
        c.any_environment,
        c.any_timeout,
        c.any_unverified_timeout,
        c.any_unrecognized
    from definitions as d
    cross join cells as c
),

judged as (
    select
        *,
        -- the classes on the basis attempt, as the trials view's any_* flags define them on any attempt
        status = 'success' as is_success,
        fault = 'task' as is_invalid,
        fault = 'environment' as is_environment,
        fault = 'unknown' as is_unrecognized,
        -- with late passes counted, a late pass is a success, not a timeout to exclude
        case
            when timeout_scope = 'basis' then status = 'timeout' and not (counts_late_passes and is_late_pass)
            when timeout_scope = 'any' then
                case when counts_late_passes then any_unverified_timeout else any_timeout end
            else false
        end as hits_timeout
    from on_basis
),

final as (
    select
        simplicity,
        scope_by,
        scope_value,
        run_key,
        run_id,
        trial,
        run_label,
        profile_id,
        trials,
        final_is_success,
        is_retried,
        counts_late_passes and is_late_pass as is_counted_late_pass,
        not (
            (invalid_scope = 'basis' and is_invalid) or (invalid_scope = 'any' and any_invalid)
            or (environment_scope = 'basis' and is_environment) or (environment_scope = 'any' and any_environment)
            or hits_timeout
            or (unrecognized_scope = 'basis' and is_unrecognized) or (unrecognized_scope = 'any' and any_unrecognized)
        ) as is_included,
        is_success or (counts_late_passes and is_late_pass) as is_counted_success
    from judged
)

select * from final;
