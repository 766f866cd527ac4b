-- loaded_runs: one row per run of the kept loaded attempts (run_key: its run_id, agent and
--   model), as loaded, before a re-run's attempts join their original (run_reruns): its run_id,
--   agent and model, its benchmark (format and category) when it holds exactly one, whether its
--   format recognises re-runs by their errored trials (format_traits.rerun_recognition), and the
--   start of its first attempt and the end of its last.
-- Reads: stg_attempts, format_traits.
--
-- A relation of its own so that run_reruns, which joins it to itself and filters the attempts by
-- the pairs it makes, is planned on its true size (a run or a few): inside run_reruns, as a CTE
-- estimated at a row per attempt, the plan built a hash table of every attempt and ran out of
-- memory on 14 M attempts (docs/benchmarks.md, "Lakes").
create or replace view loaded_runs as
with

final as (
    select
        a.run_key,
        any_value(a.run_id) as run_id,
        any_value(a.agent) as agent,
        any_value(a.model) as model,
        -- one benchmark per run, else the run is never recognised on its own
        case
            when min(a.format || coalesce(' ' || a.category, '')) = max(a.format || coalesce(' ' || a.category, ''))
                then min(a.format || coalesce(' ' || a.category, ''))
        end as benchmark,
        bool_and(t.rerun_recognition = 'errored_trials') as recognisable,
        min(a.started_at) as first_started_at,
        max(a.ended_at) as last_ended_at
    from stg_attempts as a
    left join format_traits as t using (format)
    where a.is_kept
    group by a.run_key
)

select * from final;
