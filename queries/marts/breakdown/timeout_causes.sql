-- timeout_causes: kept timeout attempts per cause.
-- Reads: attempts_classified.
create or replace view timeout_causes as
with

causes as (
    select * from (values (1, 'queue'), (2, 'external'), (3, 'loop'), (4, 'sluggish'), (5, 'unknown'))
        as t (cause_order, timeout_cause)
),

timeouts as (
    select timeout_cause from attempts_classified where status = 'timeout'
),

final as (
    select
        c.timeout_cause,
        c.cause_order,
        count(t.timeout_cause) as attempts,
        count(t.timeout_cause)::double / nullif((select count(*) from timeouts), 0) as share
    from causes as c
    left join timeouts as t using (timeout_cause)
    group by all
)

select * from final;
