-- named_run_keys: the run (run_key) of each run_id that a run log (its header) or a run's
--   metadata (a job's or a results file's description) names, so that what they say of it
--   (the trials it owes, its status) meets its records: the run of the kept attempts with that
--   run_id when they make one run; else the run the log's or metadata's own agent and model make.
-- Reads: stg_attempts, stg_run_defaults, run_logs, owed_trials, run_key.
-- Empty when: stg_run_defaults is empty, run_logs is empty, owed_trials is empty.
create or replace view named_run_keys as
with

named as (
    -- one row per run_id named; its agent and model as the metadata (else the log) says
    select run_id, max(agent) as agent, max(model) as model
    from (
        select run_id, agent, model from stg_run_defaults
        union all
        select run_id, null as agent, model from run_logs
        union all
        select run_id, null as agent, null as model from owed_trials
    )
    where run_id is not null
    group by run_id
),

recorded as (
    -- the runs of the attempts with a named run_id (none, for inputs no log or metadata names)
    select run_id, min(run_key) as run_key, count(distinct run_key) as run_keys
    from stg_attempts
    where is_kept and run_id in (select run_id from named)
    group by run_id
),

final as (
    select
        n.run_id,
        case when r.run_keys = 1 then r.run_key else run_key(n.run_id, n.agent, n.model) end as run_key,
        n.agent,
        n.model
    from named as n
    left join recorded as r using (run_id)
)

select * from final;
