-- trial_spend: per trial, what its attempts recorded (spend, LLM tokens, seconds) and how many
--   attempts lack each value; the trials' side of per_success and of compare's cost per solved
--   task, which take each scope's trials from scoped_trial_outcomes.
-- Reads: attempts_classified, format_traits.
-- Not materialized on big inputs: every trial once: read through by per_success and compare_side_spend, not copied.
--
-- A value an attempt did not record is never read as 0: the sums hold what was recorded
-- (NULL when nothing was), and the attempts without it are counted. An earlier attempt of a
-- per-task summary record (format_traits.is_summary_record: its record's spend and tokens are
-- on its final attempt) lacks none: of a trial's attempts of such a format only the final one
-- (highest attempt number, unique among a trial's kept attempts) is counted when it lacks a
-- value. The trial is the same in every scope, so its spend is summed once, with no join to
-- the trials' final attempts: over 14 M attempts scoped_attempts' join to them was most of
-- this relation's time (docs/benchmarks.md).
create or replace view trial_spend as
with

attempts as (
    select
        a.run_key,
        a.task_id,
        a.trial,
        a.attempt,
        a.cost_usd,
        a.llm_tokens,
        a.duration_s,
        coalesce(f.is_summary_record, false) as is_summary_record
    from attempts_classified as a
    left join format_traits as f on f.format = a.format
),

final as (
    select
        run_key,
        task_id,
        trial,
        count(*) as attempts,
        sum(cost_usd::decimal(38, 12)) as cost_usd,
        count(*) filter (where cost_usd is null and not is_summary_record)
            + arg_max((cost_usd is null and is_summary_record)::int, attempt) as cost_missing_attempts,
        sum(llm_tokens::decimal(38, 6)) as llm_tokens,
        count(*) filter (where llm_tokens is null and not is_summary_record)
            + arg_max((llm_tokens is null and is_summary_record)::int, attempt) as llm_tokens_missing_attempts,
        sum(duration_s::decimal(38, 6)) as agent_time_s,
        count(*) filter (where duration_s is null) as untimed_attempts
    from attempts
    group by run_key, task_id, trial
)

select * from final;
