-- trial_spend: per scope and trial, what its attempts recorded (spend, LLM tokens, seconds)
--   and how many attempts lack each value; the trials' side of per_success and of compare's
--   cost per solved task.
-- Reads: scoped_attempts.
-- Not materialized on big inputs: every trial once per scope: read through by per_success and compare_side_spend, not copied.
--
-- A value an attempt did not record is never read as 0: the sums hold what was recorded
-- (NULL when nothing was), and the attempts without it are counted; an earlier attempt of a
-- per-task summary record lacks no cost or token count (its record's are on its final
-- attempt: scoped_attempts).
create or replace view trial_spend as
select
    scope_id,
    run_key,
    task_id,
    trial,
    count(*) as attempts,
    sum(cost_usd::decimal(38, 12)) as cost_usd,
    count(*) filter (where cost_usd is null and not is_summary_earlier_attempt) as cost_missing_attempts,
    sum(llm_tokens::decimal(38, 6)) as llm_tokens,
    count(*) filter (where llm_tokens is null and not is_summary_earlier_attempt) as llm_tokens_missing_attempts,
    sum(duration_s::decimal(38, 6)) as agent_time_s,
    count(*) filter (where duration_s is null) as untimed_attempts
from scoped_attempts
group by scope_id, run_key, task_id, trial;
