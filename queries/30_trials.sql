-- Defines: trials, one row per trial = (run, task, trial): its first attempt (lowest
--          attempt number) and final attempt (highest), and what any attempt hit.
--          trial_outcomes, the same trials once per basis ('first', 'final') with the
--          denominators each belongs to (DESIGN section 4).
-- Reads: attempts_classified.
create or replace view trials as
with

attempts as (
    select * from attempts_classified
),

per_trial as (
    select
        run_key,
        task_id,
        trial,
        count(*) as attempts,
        min(attempt) as first_attempt,
        max(attempt) as final_attempt,
        bool_or(fault = 'environment') as any_environment,
        bool_or(status = 'timeout') as any_timeout,
        -- timeouts that did not pass verification anyway (denom audit, late passes counted)
        bool_or(status = 'timeout' and not coalesce(is_late_pass, false)) as any_unverified_timeout,
        bool_or(fault = 'task') as any_invalid,
        bool_or(fault = 'unknown') as any_unrecognized,
        min(coalesce(submitted_at, started_at)) as trial_started_at,
        max(ended_at) as trial_ended_at
    from attempts
    group by run_key, task_id, trial
),

final as (
    select
        nullif(p.run_key, '') as run_id,
        p.*,
        f.attempt_id as first_attempt_id,
        f.status as first_status,
        f.status_detail as first_status_detail,
        f.fault as first_fault,
        f.timeout_cause as first_timeout_cause,
        f.is_late_pass as first_is_late_pass,
        f.raw_status as first_raw_status,
        l.attempt_id as final_attempt_id,
        l.status as final_status,
        l.status_detail as final_status_detail,
        l.fault as final_fault,
        l.timeout_cause as final_timeout_cause,
        l.is_late_pass as final_is_late_pass,
        l.raw_status as final_raw_status,
        coalesce(l.agent, f.agent) as agent,
        coalesce(l.model, f.model) as model,
        coalesce(l.category, f.category) as category,
        coalesce(l.difficulty, f.difficulty) as difficulty
    from per_trial as p
    join attempts as f
        on f.run_key = p.run_key and f.task_id = p.task_id and f.trial = p.trial and f.attempt = p.first_attempt
    join attempts as l
        on l.run_key = p.run_key and l.task_id = p.task_id and l.trial = p.trial and l.attempt = p.final_attempt
)

select * from final;

create or replace view trial_outcomes as
with

by_basis as (
    select
        'first' as basis, run_key, run_id, task_id, trial, attempts, any_environment, any_timeout,
        any_invalid, any_unrecognized, first_status as status, first_status_detail as status_detail,
        first_fault as fault, first_timeout_cause as timeout_cause, first_is_late_pass as is_late_pass,
        first_raw_status as raw_status, agent, model, category, difficulty
    from trials
    union all
    select
        'final' as basis, run_key, run_id, task_id, trial, attempts, any_environment, any_timeout,
        any_invalid, any_unrecognized, final_status, final_status_detail,
        final_fault, final_timeout_cause, final_is_late_pass,
        final_raw_status, agent, model, category, difficulty
    from trials
),

final as (
    select
        *,
        status = 'success' as is_success,
        -- the denominator chain: each step removes one named class, judged on the basis attempt
        fault not in ('task', 'unknown') as in_valid,
        fault not in ('task', 'unknown', 'environment') as in_attributable,
        fault not in ('task', 'unknown', 'environment') and status <> 'timeout' as in_completable
    from by_basis
)

select * from final;
