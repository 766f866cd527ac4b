-- agentcompass_verdict: AgentCompass's own verdict per run (no rows for other harnesses).
-- Reads: agentcompass_verdict.
select run_id, evaluation_failed, value, reference_value, tasks, tasks_invalidated, trials,
       evaluated, unavailable, invalidated, errors, passes
from agentcompass_verdict
order by coalesce(run_id, ''), run_key
