-- Defines: status_counts (trials per status on each basis), status_detail_counts (the same
--          per status and status_detail, e.g. tau-bench's step_limit failures, both bases
--          side by side), transitions (first -> final),
--          timeout_causes (kept timeout attempts per cause), diagnostics (timeout attempts,
--          late passes, constraint violations, grader errors, missing), timeout_rate (final
--          timeouts over all trials, DESIGN section 7), unrecognized_statuses.
-- Reads: trial_outcomes, trials, attempts_classified, missing_trials.
create or replace view status_counts as
select
    basis,
    status,
    count(*) as trials
from trial_outcomes
group by basis, status;

create or replace view status_detail_counts as
select
    status,
    status_detail,
    count(*) filter (where basis = 'first') as first_trials,
    count(*) filter (where basis = 'final') as final_trials
from trial_outcomes
group by status, status_detail;

create or replace view transitions as
select
    first_status,
    final_status,
    count(*) as trials
from trials
group by first_status, final_status;

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

create or replace view diagnostics as
select
    count(*) filter (where status = 'timeout') as timeout_attempts,
    count(*) filter (where is_late_pass) as timeouts_with_passing_score,
    count(*) filter (where is_constraint_violation) as constraint_violations,
    count(*) filter (where has_grader_error) as grader_errors,
    -- expected trials with no record (--expect, --expect-count), in total as status missing
    (select count(*) from missing_trials) as missing
from attempts_classified;

create or replace view unrecognized_statuses as
select
    raw_status,
    count(*) as attempts
from attempts_classified
where status = 'unrecognized'
group by raw_status;

create or replace view timeout_rate as
-- trials whose final attempt timed out, over every trial (the strict denominator, missing included)
select
    count(*) filter (where status = 'timeout') as timeouts,
    count(*) as trials,
    count(*) filter (where status = 'timeout')::double / nullif(count(*), 0) as rate
from trial_outcomes
where basis = 'final';
