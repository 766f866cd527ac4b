-- scoped_attempts: kept attempts once per scope of their trial.
-- Reads: attempts_classified, scoped_trial_outcomes, format_traits.
-- Not materialized: every kept attempt once per scope: read through by attempt_figures and call_outcomes, not copied.
--
-- Attempts per trial count the attempts a trial made by number (its final attempt number,
-- trial_outcomes.attempts_made): a per-task summary record loads attempts 1 and n only.
--
-- Duration = ended_at - started_at of one attempt (stg_attempts.duration_s), never a sum of
-- steps. Percentiles are nearest-rank: quantile_disc takes the ceil(q * n)-th smallest value.
-- A figure over values nobody recorded (no times, no cost) is NULL, and the attempts that
-- lack a value are counted, never read as 0.
create or replace view scoped_attempts as
with

attempts as (
    select * from attempts_classified
),

trial_scope_keys as (
    select scope_id, run_key, task_id, trial, attempts_made
    from scoped_trial_outcomes
    where basis = 'final' and attempts > 0
),

final as (
    select
        t.scope_id,
        a.*,
        -- an earlier attempt of a per-task summary record (format_traits.is_summary_record:
        -- formats/task-summary.ts): the record's spend, tokens and calls are on its final
        -- attempt, so none is missing here
        coalesce(f.is_summary_record, false) and a.attempt < t.attempts_made as is_summary_earlier_attempt
    from attempts as a
    join trial_scope_keys as t using (run_key, task_id, trial)
    left join format_traits as f on f.format = a.format
)

select * from final;
