-- scoped_attempts: kept attempts once per scope of their trial.
-- Reads: attempts_classified, trials, scoped_trial_outcomes, format_traits.
-- Not materialized on big inputs: every kept attempt once per scope: read through by attempt_figures and call_outcomes, not copied.
--
-- Attempts per trial count the attempts a trial made by number (its final attempt number,
-- trial_outcomes.attempts_made): a per-task summary record loads attempts 1 and n only.
--
-- Duration = ended_at - started_at of one attempt (stg_attempts.duration_s), never a sum of
-- steps. Percentiles are nearest-rank: the ceil(q * n)-th smallest value (attempt_figures).
-- A figure over values nobody recorded (no times, no cost) is NULL, and the attempts that
-- lack a value are counted, never read as 0.
create or replace view scoped_attempts as
with

attempts as not materialized (
    select * from attempts_classified
),

final_attempts as (
    select final_attempt_id from trials
),

overall as (
    -- scope 0 holds every trial (scoped_trial_outcomes), so every kept attempt once, with no
    -- join by the trial's key: its attempt number is below the number of attempts its trial
    -- made exactly when it is not the trial's final attempt (attempt numbers of a trial's kept
    -- attempts differ), found by its id (a left join: NOT IN's mark join held every final
    -- attempt's id in memory, past the limit on 7.9 M trials). Every loaded attempt has its
    -- task and trial (a record without a task id is a reject, a trial defaults to 0), and no
    -- filter says so again: its guessed selectivity made DuckDB build its hash table on the 7 M
    -- attempts of a 5 GB log instead of on the final attempts' ids, past the memory limit
    select
        0::bigint as scope_id,
        a.*,
        -- an earlier attempt of a per-task summary record (format_traits.is_summary_record:
        -- formats/task-summary.ts): the record's spend, tokens and calls are on its final
        -- attempt, so none is missing here
        coalesce(f.is_summary_record, false) and l.final_attempt_id is null as is_summary_earlier_attempt
    from attempts as a
    left join format_traits as f on f.format = a.format
    left join final_attempts as l on l.final_attempt_id = a.attempt_id
),

group_keys as (
    -- the groups of --by (none without it)
    select scope_id, run_key, task_id, trial, attempts_made
    from scoped_trial_outcomes
    where is_group and basis = 'final' and attempts > 0
),

grouped as (
    select
        t.scope_id,
        a.*,
        coalesce(f.is_summary_record, false) and a.attempt < t.attempts_made as is_summary_earlier_attempt
    from attempts as a
    join group_keys as t using (run_key, task_id, trial)
    left join format_traits as f on f.format = a.format
),

final as (
    select * from overall
    union all
    select * from grouped
)

select * from final;
