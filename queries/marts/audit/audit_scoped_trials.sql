-- audit_scoped_trials: every trial (expected-but-missing ones too) in each scope `denom audit`
--   checks a claim against (issue 15): all trials (scope_by `all`, scope_value ''), and, where
--   the trials hold more than one run, agent or model, each run (`run_id`), agent and model by
--   itself, so that a figure published for one of several pooled runs is found in its group.
-- Reads: trials, missing_trials, run_identities.
-- Expected trials with no record (--expect / --expect-count) are in every trial count, as the
-- strict figure's `total` holds them, fault environment.
create or replace view audit_scoped_trials as
with

trials_ as (
    select
        run_key, task_id, trial, agent, model,
        first_status, first_fault, first_is_late_pass, final_status, final_fault, final_is_late_pass,
        any_invalid, any_environment, any_timeout, any_unverified_timeout, any_unrecognized, attempts_made
    from trials
    union all
    -- an expected trial with no record: status missing, fault environment (DESIGN section 3)
    select
        run_key, task_id, trial, agent, model, 'missing', 'environment', false, 'missing', 'environment', false,
        false, true, false, false, false, 0
    from missing_trials
),

counts as (
    -- a trial without an agent (or model) beside named ones is a group of its own: unnamed
    select
        count(distinct run_key) as runs,
        count(distinct coalesce(agent, '')) as agents,
        count(distinct coalesce(model, '')) as models
    from trials_
),

labelled as (
    select t.*, i.run_id, i.run_label from trials_ as t join run_identities as i using (run_key)
),

final as (
    select 'all' as scope_by, '' as scope_value, t.* from labelled as t
    union all
    select 'run_id', t.run_label, t.*
    from labelled as t cross join counts as c where c.runs > 1
    union all
    select 'agent', coalesce(t.agent, '(no agent)'), t.*
    from labelled as t cross join counts as c where c.agents > 1
    union all
    select 'model', coalesce(t.model, '(no model)'), t.*
    from labelled as t cross join counts as c where c.models > 1
)

select * from final;
