-- off_scale_runs: the runs (run_key) whose scores leave their format's declared scale
--   (stg_score_rule: a '0-1' format's deciding score outside [0, 1]), one row each: run_id, agent,
--   model, the formats that read them, the lowest and highest deciding score, the kept trials a
--   score decides, and whether those trials are unscored (no --success-threshold) or decided
--   by the threshold (`success_threshold`, null when unscored). The report and stderr name them
--   with the flag that decides (src/ingest/notices.ts).
-- Reads: stg_score_rule, stg_attempts; getvariable('success_threshold').
-- Empty when: stg_score_rule is empty.
create or replace view off_scale_runs as
with

off_scale as (
    select attempt_id, run_key, score from stg_score_rule where is_off_scale
),

final as (
    select
        o.run_key,
        any_value(s.run_id) as run_id,
        any_value(s.agent) as agent,
        any_value(s.model) as model,
        string_agg(distinct s.format, ', ' order by s.format) as formats,
        min(o.score) as min_score,
        max(o.score) as max_score,
        count(distinct (s.task_id, s.trial)) filter (where s.is_kept) as trials,
        getvariable('success_threshold') is null as is_unscored,
        getvariable('success_threshold') as success_threshold
    from off_scale as o
    join stg_attempts as s using (attempt_id)
    group by o.run_key
)

select * from final;
