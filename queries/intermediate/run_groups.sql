-- run_groups: the group each run's figures belong to when the loaded trials hold more than one
--   agent, model, benchmark, sub-benchmark, or run naming no model (pooling): one row per run,
--   its `identity_group` naming the values of the dimensions that vary, in pooling's order
--   (`agent a · model m`); `report`, `audit`, `export` and the HTML page give each group its own
--   figure to quote. No row when nothing varies, or under `--pool` (one pooled figure).
-- Reads: trial_identities, pooling, format_traits; getvariable('pool').
-- Empty when: pooling is empty.
create or replace view run_groups as
with

varying as (
    select
        bool_or(dimension = 'agent') as agent,
        bool_or(dimension = 'model') as model,
        bool_or(dimension = 'benchmark') as benchmark,
        bool_or(dimension in (select sub_benchmark_field from format_traits)) as sub_benchmark,
        bool_or(dimension = 'run') as run
    from pooling
    having count(*) > 0 and not coalesce(getvariable('pool'), false)
),

unnamed_runs as (
    -- the runs pooling counts as values of their own (no model, beside another of their agent)
    select g.value as run_label
    from (select unnest(groups) as g from pooling where dimension = 'run')
    where g.value is not null
),

per_run as (
    select
        run_key,
        any_value(agent) as agent,
        any_value(model) as model,
        string_agg(distinct benchmark, ' + ' order by benchmark) as benchmark,
        string_agg(distinct sub_benchmark, ' + ' order by sub_benchmark) as sub_benchmark,
        any_value(run_label) as run_label
    from trial_identities
    group by run_key
),

final as (
    select
        r.run_key,
        concat_ws(
            ' · ',
            case when v.agent then 'agent ' || coalesce(r.agent, '(none)') end,
            case when v.model then 'model ' || coalesce(r.model, '(none)') end,
            case when v.benchmark then 'benchmark ' || coalesce(r.benchmark, '(none)') end,
            case when v.sub_benchmark then 'task ' || coalesce(r.sub_benchmark, '(none)') end,
            case when r.run_label in (select run_label from unnamed_runs) then 'run ' || r.run_label end
        ) as identity_group
    from per_run as r
    cross join varying as v
)

select * from final;
