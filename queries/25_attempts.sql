-- Defines: attempts_classified, the kept attempts (duplicates dropped) with their
--          timeout cause and fault class (DESIGN section 3).
-- Reads: stg_attempts, attempt_timeout_cause.
create or replace view attempts_classified as
with

kept as (
    select * from stg_attempts where is_kept
),

final as (
    select
        k.*,
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
