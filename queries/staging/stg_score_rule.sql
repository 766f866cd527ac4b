-- stg_score_rule: the loaded attempts whose status a score decided (docs/metrics.md, Scores)
--   and whose status the score rule sets here, one row each: attempt_id, the run (run_key), the
--   score, whether the run is off its format's scale, and the raw status and detail that replace
--   the adapter's. An attempt a score decided is one its adapter marked (extra.score_decides) in
--   a format that declares its score scale (format_traits.score_scale). With
--   --success-threshold X (getvariable('success_threshold'), a number >= 0) every such attempt is
--   `success` when score >= X, else `failure`, on or off scale. Without it, a run (run_key) in
--   which any such attempt of a '0-1' format has a score outside [0, 1] is off its scale: every
--   such attempt of that run is `unscored` (unrecognized: counted in total only), detail
--   `score_scale`; grades 0, 3, 7, 10, 7 are five unscored trials, never a failure and four
--   guesses. Every other attempt keeps the status its adapter gave (no row).
-- Reads: attempts, format_traits, stg_run_defaults, run_key; getvariable('success_threshold').
create or replace view stg_score_rule as
with

scaled_formats as (
    select format, score_scale from format_traits where score_scale is not null
),

deciding as (
    select
        a.attempt_id,
        run_key(a.run_id, coalesce(a.agent, d.agent), coalesce(a.model, d.model)) as run_key,
        a.score,
        f.score_scale = '0-1' and (a.score < 0 or a.score > 1) as is_off_scale_score
    from attempts as a
    join scaled_formats as f using (format)
    left join stg_run_defaults as d on d.run_id = a.run_id
    where a.extra ->> 'score_decides' = 'true' and a.score is not null
),

runs as (
    select run_key, bool_or(is_off_scale_score) as is_off_scale
    from deciding
    group by run_key
),

final as (
    select
        s.attempt_id,
        s.run_key,
        s.score,
        r.is_off_scale,
        case
            when getvariable('success_threshold') is not null then
                case when s.score >= getvariable('success_threshold') then 'success' else 'failure' end
            else 'unscored'
        end as raw_status,
        case when getvariable('success_threshold') is null then 'score_scale' end as status_detail
    from deciding as s
    join runs as r using (run_key)
    where getvariable('success_threshold') is not null or r.is_off_scale
)

select * from final;
