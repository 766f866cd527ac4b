-- Defines: scoped_timeout_causes (per scope: kept timeout attempts per cause, every cause
--          listed, and each cause's share of the scope's timeout attempts), the figure
--          timeout_causes gives for all trials, again per group of --by (scope 0 = every
--          trial, the same counts as timeout_causes). Exported by `denom export --what
--          timeout_causes`.
-- Reads: scoped_attempts, trial_scopes, timeout_causes (for the causes and their order).
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
