-- stg_run_defaults: the agent and model a run's metadata names (RunMetadata, table run_metadata),
--   one row per run_id: the first loaded record that names each. An attempt that names no agent
--   (or model) takes its run's.
-- Reads: run_metadata.
-- Empty when: run_metadata is empty.
create or replace view stg_run_defaults as
select
    run_id,
    min_by(agent, source_id) filter (where agent is not null) as agent,
    min_by(model, source_id) filter (where model is not null) as model
from run_metadata
where run_id is not null
group by run_id;
