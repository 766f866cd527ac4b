-- run_key: the key of a run (docs/metrics.md: a run is its run_id and its agent and model, so
--   that two records that differ in agent or model never belong to one run): the run_id alone
--   (NULL as '') when the run names neither agent nor model, else the three, each but the last
--   preceded by its length in bytes, after a 0x1F byte, so that no two identities share a key.
--   An empty agent or model counts as none.
-- Reads: nothing.
create or replace macro run_key(run_id, agent, model) as
    case
        when nullif(agent, '') is null and nullif(model, '') is null then coalesce(run_id, '')
        else chr(31) || strlen(coalesce(run_id, '')) || ':' || coalesce(run_id, '')
            || strlen(coalesce(agent, '')) || ':' || coalesce(agent, '') || coalesce(model, '')
    end;
