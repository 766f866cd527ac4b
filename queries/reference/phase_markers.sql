-- phase_markers: the `phase` events (by name, lower-case) that mark where the agent's own phase
--   starts (`agent_start`) and ends (`agent_end`), as the formats declare them
--   (FormatTraits.agentPhase); the timeout
--   classifier's setup and agent-phase times and its agent_never_started read them.
-- Reads: nothing.
--
-- Generated from the adapters' declarations (src/formats/traits.ts, FormatAdapter.traits):
-- do not edit by hand; test/format-traits.test.ts checks it.
create or replace table phase_markers as
select event_name::varchar as event_name, marks::varchar as marks
from (
    values
        ('agent_started', 'agent_start'),
        ('agent_ended', 'agent_end')
) as t (event_name, marks);
