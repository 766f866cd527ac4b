-- audit_run_figures: the per-run figures of audit_figures, one row each (per audit scope).
-- Reads: audit_figures.
create or replace view audit_run_figures as
with

figures as (
    select scope_by, scope_value, simplicity, unnest(run_figures) as r from audit_figures
),

final as (
    select
        scope_by,
        scope_value,
        simplicity,
        r.run,
        r.run_key,
        r.run_id,
        r.trial,
        r.successes,
        r.count,
        r.rate
    from figures
)

select * from final;
