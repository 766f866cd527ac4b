-- call_outcomes: calls per scope, event type and status.
-- Reads: call_outcomes.
select * from call_outcomes order by scope_id, type, status
