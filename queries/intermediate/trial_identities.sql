-- trial_identities: one row per recorded trial with what says whose figure it is
--   (docs/identity-and-inputs.md): its agent and model, its benchmark (the adapter that read it, with
--   its category when the harness names one), its sub-benchmark (the raw field a format declares,
--   format_traits.sub_benchmark_field, with the field's name), and the label of its run (run_identities), which stands in for the model when the run names
--   none: runs that name no model are not known to be one system.
-- Reads: attempts_classified, attempts, format_traits, run_identities.
create or replace view trial_identities as
with

per_trial as (
    select
        k.run_key,
        k.task_id,
        k.trial,
        any_value(k.agent) as agent,
        any_value(k.model) as model,
        -- a trial graded by one format and retried in another's records (a harness's passes,
        -- format_traits.attempt_numbering 'start_order') is the grading format's benchmark; a
        -- trial whose records two formats read (a per-task summary beside the attempts) is the
        -- benchmark of its record read first (lowest attempt_id: ids follow the input order),
        -- whatever order the rows reach this aggregate in
        coalesce(
            arg_min(k.format || coalesce(' ' || k.category, ''), k.attempt_id) filter (where f.attempt_numbering is distinct from 'start_order'),
            arg_min(k.format || coalesce(' ' || k.category, ''), k.attempt_id)
        ) as benchmark,
        bool_or(k.category is not null) as has_category,
        -- read from every attempt's extra, so that a canonical record carrying the field (an
        -- export read again) pools as the harness's own record does; the first read that has it
        -- (arg_min passes over a NULL value)
        arg_min(a.extra ->> s.field, k.attempt_id) as sub_benchmark,
        any_value(s.field) as sub_benchmark_field
    from attempts_classified as k
    join attempts as a using (attempt_id)
    left join format_traits as f on f.format = k.format
    left join (select distinct sub_benchmark_field as field from format_traits where sub_benchmark_field is not null) as s on true
    group by k.run_key, k.task_id, k.trial
),

final as (
    select p.*, i.run_label
    from per_trial as p
    join run_identities as i using (run_key)
)

select * from final;
