-- pooling: what the loaded trials mix under one headline (docs/identity-and-inputs.md): for
--   each of agent, model, benchmark, sub-benchmark (the dimension named by the field a format
--   declares: trial_identities) and run that holds more than one value, the values with their
--   trials, and the `--by` key that splits them (`split_by`; run_id where no key of its own does). A trial without a value beside named
--   ones counts as one more value; runs vary when two or more of one agent name no model.
-- Reads: trial_identities.
create or replace view pooling as
with

per_trial as (
    select * from trial_identities
),

shared_agents as (
    -- agents (NULL: none named) with two or more runs that name no model: such runs are not
    -- known to be one model, so each is a value of the run dimension
    select agent, true as is_shared
    from per_trial
    where model is null
    group by agent
    having count(distinct run_key) > 1
),

named as (
    select 1 as dimension_order, 'agent' as dimension, agent as value, 'agent' as split_by from per_trial
    union all
    select 2, 'model', model, 'model' from per_trial
    union all
    select 3, 'benchmark', benchmark, case when has_category then 'category' else 'run_id' end from per_trial
    union all
    select 4, sub_benchmark_field, sub_benchmark, 'run_id' from per_trial
    union all
    -- a run that names no model beside another of the same agent is its own value
    select 5, 'run', case when model is null and s.is_shared then run_label end, 'run_id'
    from per_trial as p
    left join shared_agents as s on s.agent is not distinct from p.agent
),

values_ as (
    select dimension_order, dimension, value, any_value(split_by) as split_by, count(*) as trials
    from named
    group by dimension_order, dimension, value
),

dimensions as (
    -- a dimension nobody names (every value null) pools nothing that can be told apart
    -- and runs vary when two or more of them name no model
    select dimension
    from values_
    group by dimension
    having (dimension <> 'run' and count(*) > 1 and count(value) >= 1) or count(value) > 1
),

final as (
    select
        v.dimension_order,
        v.dimension,
        count(*) as values,
        -- the split of the named values (category for benchmarks that carry one)
        min(v.split_by) as split_by,
        list(struct_pack(value := v.value, trials := v.trials) order by v.trials desc, v.value nulls last) as groups
    from values_ as v
    join dimensions using (dimension)
    group by v.dimension_order, v.dimension
)

select * from final;
