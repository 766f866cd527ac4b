-- attempt_faults: (attempt_id, timeout_cause, fault) for every kept attempt: the fault class of
--   docs/metrics.md.
-- Reads: stg_attempts, attempt_timeout_cause.
--
-- attempt_faults is narrow on purpose: it is materialized once per session (src/db/session.ts)
-- and joined back to the attempts, instead of copying every attempt again.
create or replace view attempt_faults as
with

kept as (
    select attempt_id, status, status_detail, declared_fault from stg_attempts where is_kept
),

final as (
    select
        k.attempt_id,
        c.timeout_cause,
        case
            when k.status = 'success' then 'none'
            when k.status = 'invalid' then 'task'
            when k.status = 'unrecognized' then 'unknown'
            -- an explicit `fault` overrides the default of the three outcomes it can be argued about
            when k.declared_fault is not null then k.declared_fault
            when k.status = 'failure' then 'agent'
            when k.status = 'timeout' then
                case when c.timeout_cause in ('queue', 'external') then 'environment' else 'agent' end
            when k.status = 'aborted' then
                case
                    when lower(k.status_detail) like 'safety%' or lower(k.status_detail) like 'policy%' then 'agent'
                    else 'environment'
                end
        end as fault
    from kept as k
    left join attempt_timeout_cause as c using (attempt_id)
)

select * from final;
