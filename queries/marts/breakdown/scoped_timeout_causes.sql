-- scoped_timeout_causes: kept timeout attempts per cause in each scope (scope 0 = every trial, the counts of timeout_causes; then each group of --by), every cause listed, with its share of the scope's timeout attempts; what `denom export --what timeout_causes` writes.
-- Reads: scoped_attempts, timeout_causes, trial_scopes.
create or replace view scoped_timeout_causes as
with

causes as (
    -- timeout_causes lists every cause, in rule order, with or without attempts
    select cause_order, timeout_cause from timeout_causes
),

timeouts as (
    select scope_id, timeout_cause from scoped_attempts where status = 'timeout'
),

counts as (
    select
        s.scope_id,
        c.timeout_cause,
        c.cause_order,
        count(t.timeout_cause) as attempts
    from trial_scopes as s
    cross join causes as c
    left join timeouts as t on t.scope_id = s.scope_id and t.timeout_cause = c.timeout_cause
    group by all
),

final as (
    select
        *,
        attempts::double / nullif(sum(attempts) over (partition by scope_id), 0) as share
    from counts
)

select * from final;
