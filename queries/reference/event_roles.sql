-- event_roles: the role of each event type known to the timeout classifier (docs/metrics.md):
--   `call` (a tool call; only calls form a loop), `request` (a call to an outside service that
--   waits for its response), `queue` (the harness holding the attempt back) and `phase` (a
--   harness phase boundary, e.g. the agent started). Any other type is an `other`
--   event of the agent: a result, an observation, a message.
-- Reads: nothing.
--
-- Types are matched after trim and lower-case (an event's `type`, or its `kind` when it has
-- no type), never by substring.
create or replace table event_roles as
select event_type, role
from (
    values
        ('tool_call', 'call'), ('tool', 'call'),
        ('api_request', 'request'), ('llm_request', 'request'), ('http_request', 'request'),
        ('waiting_api_response', 'request'),
        ('queued', 'queue'), ('waiting_for_slot', 'queue'),
        ('phase', 'phase')
) as t (event_type, role);
