-- duration_by_status: the duration figures per attempt status.
-- Reads: attempt_figures.
create or replace view duration_by_status as
with

figures as (
    select * from attempt_figures
),

scopes as (
    select distinct scope_id from figures
),

statuses as (
    -- the statuses seen anywhere, so that every scope lists the same rows (n/a where none)
    select distinct status from figures where not is_all_statuses
),

final as (
    select
        s.scope_id,
        st.status,
        coalesce(f.attempts, 0) as attempts,
        coalesce(f.timed_attempts, 0) as timed_attempts,
        f.duration_mean,
        f.duration_p50,
        f.duration_p95,
        f.duration_max
    from scopes as s
    cross join statuses as st
    left join figures as f on f.scope_id = s.scope_id and f.status = st.status and not f.is_all_statuses
)

select * from final;
