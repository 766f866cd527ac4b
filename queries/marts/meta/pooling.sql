-- pooling: what the loaded trials mix under one headline (issue 15): for each of agent, model,
--   benchmark (the adapter that read the trials, with their category when the harness names
--   one, e.g. OpenHands' benchmark) and Inspect task that holds more than one value, the values
--   with their trials, and the `--by` key that splits them (`split_by`; run_id where no key of
--   its own does). A trial without a value beside named ones counts as one more value.
-- Reads: attempts_classified, attempts, format_traits.
create or replace view pooling as
with

per_trial as (
    select
        k.run_key,
        k.task_id,
        k.trial,
        any_value(k.agent) as agent,
        any_value(k.model) as model,
        -- a trial graded by one format and retried in another's records (mini-swe-agent's passes,
        -- format_traits.attempt_numbering 'start_order') is the grading format's benchmark
        coalesce(
            any_value(k.format || coalesce(' ' || k.category, '')) filter (where f.attempt_numbering is distinct from 'start_order'),
            any_value(k.format || coalesce(' ' || k.category, ''))
        ) as benchmark,
        bool_or(k.category is not null) as has_category,
        any_value(a.extra ->> 'inspect_task') as inspect_task
    from attempts_classified as k
    join attempts as a using (attempt_id)
    left join format_traits as f on f.format = k.format
    group by k.run_key, k.task_id, k.trial
),

named as (
    select 1 as dimension_order, 'agent' as dimension, agent as value, 'agent' as split_by from per_trial
    union all
    select 2, 'model', model, 'model' from per_trial
    union all
    select 3, 'benchmark', benchmark, case when has_category then 'category' else 'run_id' end from per_trial
    union all
    select 4, 'inspect_task', inspect_task, 'run_id' from per_trial
),

values_ as (
    select dimension_order, dimension, value, any_value(split_by) as split_by, count(*) as trials
    from named
    group by dimension_order, dimension, value
),

dimensions as (
    -- a dimension nobody names (every value null) pools nothing that can be told apart
    select dimension
    from values_
    group by dimension
    having count(*) > 1 and count(value) >= 1
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
