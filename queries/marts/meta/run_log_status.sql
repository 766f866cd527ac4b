-- run_log_status: one row per run log (its header): what the log says of its run (status,
--   error, its own sample counts, incomplete when it was never finished) beside what denom
--   found: the trials recorded for the run, the trials the log owes and how many of them have
--   no record (in total as missing), and the trials left unscored for a dict-valued score.
-- Reads: run_logs, sources, trials, trial_outcomes, named_run_keys.
-- Empty when: run_logs is empty.
create or replace view run_log_status as
with

recorded as (
    select run_key, count(*) as trials from trials group by run_key
),

owed_missing as (
    select run_key, count(*) as missing_trials
    from trial_outcomes
    where basis = 'final' and attempts = 0 and status_detail = 'owed by the log, no sample'
    group by run_key
),

final as (
    select
        l.run_id,
        l.invocation,
        l.task,
        l.model,
        l.status,
        l.error_message,
        l.total_samples,
        l.completed_samples,
        l.incomplete,
        l.owed_trials,
        coalesce(r.trials, 0) as trials,
        coalesce(m.missing_trials, 0) as missing_trials,
        l.dict_score_trials,
        l.score_keys,
        s.name as source,
        l.source_id
    from run_logs as l
    left join sources as s using (source_id)
    left join named_run_keys as k using (run_id)
    left join recorded as r on r.run_key = k.run_key
    left join owed_missing as m on m.run_key = k.run_key
)

select * from final;
