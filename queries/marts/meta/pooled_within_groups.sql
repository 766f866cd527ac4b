-- pooled_within_groups: under --by, the dimensions of pooling (agent, model, benchmark,
--   sub-benchmark, run naming no model) that some group of --by still holds more than one value of, so
--   that its figure still pools them; none without --by (the identity groups split them all).
--   A trial without a value beside named ones counts as one more value, as in pooling.
-- Reads: trial_identities, trial_outcomes, pooling; getvariable('group_by').
-- Empty when: pooling is empty.
-- Empty when: getvariable('group_by') is null.
create or replace view pooled_within_groups as
with

per_trial as (
    select t.*, o.group_value
    from trial_identities as t
    join trial_outcomes as o using (run_key, task_id, trial)
    where o.basis = 'final' and getvariable('group_by') is not null
),

named as (
    select 'agent' as dimension, group_value, agent as value from per_trial
    union all
    select 'model', group_value, model from per_trial
    union all
    select 'benchmark', group_value, benchmark from per_trial
    union all
    select sub_benchmark_field, group_value, sub_benchmark from per_trial
),

runs as (
    -- the run dimension's values are the runs pooling lists (runs naming no model beside another)
    select 'run' as dimension, p.group_value, p.run_label as value
    from per_trial as p
    where p.run_label in (select g.value from (select unnest(groups) as g from pooling where dimension = 'run'))
),

final as (
    select dimension
    from (
        select dimension, group_value, count(distinct coalesce(value, chr(0))) as values from named group by all
        union all
        select dimension, group_value, count(distinct value) from runs group by all
    )
    where dimension in (select dimension from pooling)
    group by dimension
    having max(values) > 1
)

select * from final;
