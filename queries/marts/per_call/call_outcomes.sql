-- call_outcomes: per scope, event type and status: how many calls, and their share of that
--   type's calls. These are call-level figures, counted per call (an `llm_call` that timed out
--   and was retried inside the attempt counts once per call), and never mixed with the
--   task-level figures over trials.
-- Reads: events, scoped_attempts, trial_scopes.
-- Empty when: events is empty.
create or replace view call_outcomes as
with

calls as (
    -- events that carry their own status, of kept attempts (duplicates dropped)
    select
        a.scope_id,
        coalesce(nullif(lower(trim(e.type)), ''), '(no type)') as type,
        lower(trim(e.status)) as status
    from events as e
    join scoped_attempts as a using (attempt_id)
    where nullif(trim(e.status), '') is not null
),

per_status as (
    select scope_id, type, status, count(*) as calls
    from calls
    group by all
),

combos as (
    -- every scope lists the same (type, status) rows, 0 where it has none
    select distinct type, status from per_status
),

final as (
    select
        s.scope_id,
        c.type,
        c.status,
        coalesce(p.calls, 0) as calls,
        coalesce(p.calls, 0)::double / nullif(sum(coalesce(p.calls, 0)) over (partition by s.scope_id, c.type), 0) as share
    from trial_scopes as s
    cross join combos as c
    left join per_status as p on p.scope_id = s.scope_id and p.type = c.type and p.status = c.status
)

select * from final;
