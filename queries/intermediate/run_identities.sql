-- run_identities: one row per run (run_key: its run_id, agent and model), recorded or only
--   expected: its run_id, agent and model, and the label that names it in a list of runs: its
--   run_id ('default run' without one), followed by its agent and model when another run shares
--   that run_id (two agents' records without run_id are two default runs).
-- Reads: trials, missing_trials.
create or replace view run_identities as
with

runs as (
    select run_key, any_value(run_id) as run_id, any_value(agent) as agent, any_value(model) as model
    from (
        select run_key, run_id, agent, model from trials
        union all
        select run_key, run_id, agent, model from missing_trials
    )
    group by run_key
),

final as (
    select
        run_key,
        run_id,
        agent,
        model,
        coalesce(run_id, 'default run') || case
            when count(*) over (partition by run_id) > 1
                then ' (' || coalesce(concat_ws(', ', 'agent ' || agent, 'model ' || model), 'no agent or model') || ')'
            else ''
        end as run_label
    from runs
)

select * from final;
