-- timeout_attempts: every kept timeout attempt (duplicates dropped) with its cause and the
--   evidence it was decided on, by cause in rule order, then run, task, trial and attempt;
--   $cause (NULL: every cause) keeps the attempts of one cause (denom timeouts --cause).
-- Reads: attempt_timeout_cause, attempts_classified.
select
    a.run_id, a.task_id, a.trial, a.attempt, c.timeout_cause as cause, a.started_at, a.ended_at,
    c.rules_fired, c.evidence_source, c.timeout_limit_s, c.agent_event_count,
    c.queue_wait_s, c.queue_wait_share, c.queued_event_s, c.queued_event_share, c.waiting_s, c.waiting_share, c.queue_reason,
    c.agent_never_started, c.setup_s, c.agent_phase_s,
    c.last_event_type, c.last_event_name, c.last_event_status, c.last_event_at, c.is_waiting_request, c.last_event_age_s,
    c.repeated_call_count, c.repeated_call_name, c.repeated_call_args,
    c.gap_count, c.first_third_gap_mean_s, c.last_third_gap_mean_s, c.gap_ratio
from attempt_timeout_cause as c
join attempts_classified as a using (attempt_id)
where $cause::varchar is null or c.timeout_cause = $cause::varchar
order by c.cause_order, coalesce(a.run_id, ''), a.run_key, a.task_id, a.trial, a.attempt
