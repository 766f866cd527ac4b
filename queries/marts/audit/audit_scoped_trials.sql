-- audit_scoped_trials: every trial (expected-but-missing ones too) in each scope `denom audit`
--   checks a claim against: all trials (scope_by `all`, scope_value ''); where the trials hold
--   several agents, models, benchmarks or runs naming no model, each identity group
--   (`group`, run_groups: a figure is published for one of them, never for their pool); and
--   where there are several runs, each run (`run_id`), so that a figure published for one of
--   several runs is found. A matching figure of `all` when there are groups pools them: audit
--   reports it only under --pool (run_groups is then empty).
-- Reads: trials, missing_trials, run_identities, run_groups, audit_shared_groups.
-- Expected trials with no record (--expect / --expect-count) are in every trial count, as the
-- strict figure's `total` holds them, fault environment.
create or replace view audit_scoped_trials as
with

trials_ as not materialized (
    select
        run_key, task_id, trial, agent, model,
        first_status, first_fault, first_is_late_pass, final_status, final_fault, final_is_late_pass,
        any_invalid, any_environment, any_timeout, any_unverified_timeout, any_unrecognized, attempts_made
    from trials
    union all
    -- an expected trial with no record: status missing, fault environment (docs/metrics.md)
    select
        run_key, task_id, trial, agent, model, 'missing', 'environment', false, 'missing', 'environment', false,
        false, true, false, false, false, 0
    from missing_trials
),

labelled as not materialized (
    -- this and trials_ are read by each scope below: read through each time, never copied whole
    -- into memory (docs/benchmarks.md, "Lakes")
    select t.*, i.run_id, i.run_label, g.identity_group
    from trials_ as t
    join run_identities as i using (run_key)
    left join run_groups as g using (run_key)
),

final as (
    select 'all' as scope_by, '' as scope_value, t.* from labelled as t
    union all
    select 'run_id', t.run_label, t.*
    from labelled as t
    where exists (select 1 from audit_shared_groups as s where s.identity_group is not distinct from t.identity_group)
    union all
    select 'group', t.identity_group, t.*
    from labelled as t where t.identity_group is not null
)

select * from final;
