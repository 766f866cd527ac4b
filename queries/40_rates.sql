-- Defines: denominators (the chain of DESIGN section 4, as data), rate_membership (which
--          cells each trial counts in), rate_cells (2 bases x 4 denominators per scope:
--          successes/count and rate, NULL over 0 trials), rate_grid (the cells of scope 0,
--          every trial), denominator_removals (what each step removed, and why) and
--          denominator_steps (how many trials each step removed, on each basis).
-- Reads: trial_outcomes, scoped_trial_outcomes.
create or replace view denominators as
select *
from (
    values
        (1, 'total', 'every trial, expected-but-missing ones too', 'nothing (the strict figure)'),
        (2, 'valid', 'total minus broken tasks and unrecognized outcomes', 'fault task (invalid), fault unknown (unrecognized status)'),
        (3, 'attributable', 'valid minus environment failures', 'fault environment: infrastructure, external API, queue, missing'),
        (4, 'completable', 'attributable minus the remaining timeouts', 'agent timeouts (internal diagnosis only)')
) as t (step, denominator, keeps, removes);

create or replace view rate_membership as
-- each trial once per basis and per denominator it belongs to, in every scope
select
    o.scope_id,
    o.run_key,
    o.task_id,
    o.trial,
    o.basis,
    d.denominator,
    o.is_success
from scoped_trial_outcomes as o
join denominators as d
    on case d.denominator
        when 'total' then true
        when 'valid' then o.in_valid
        when 'attributable' then o.in_attributable
        when 'completable' then o.in_completable
    end;

create or replace view rate_cells as
with

bases as (
    select * from (values (1, 'first'), (2, 'final')) as t (basis_order, basis)
),

membership as (
    select * from rate_membership
),

scopes as (
    -- every scope has trials in `total`, so none is lost here; scope 0 (every trial) is
    -- there even without a trial, so an input without records still has its eight n/a cells
    select 0 as scope_id
    union
    select distinct scope_id from membership
),

final as (
    -- every scope gets all eight cells; a cell over 0 trials has rate NULL (n/a)
    select
        s.scope_id,
        b.basis,
        d.denominator,
        b.basis_order,
        d.step,
        count(m.is_success) filter (where m.is_success) as successes,
        count(m.is_success) as count,
        count(m.is_success) filter (where m.is_success)::double / nullif(count(m.is_success), 0) as rate
    from scopes as s
    cross join bases as b
    cross join denominators as d
    left join membership as m on m.scope_id = s.scope_id and m.basis = b.basis and m.denominator = d.denominator
    group by all
)

select * from final;

create or replace view rate_grid as
select * exclude (scope_id) from rate_cells where scope_id = 0;

create or replace view denominator_removals as
with

removed as (
    select
        basis,
        case
            when not in_valid then 'valid'
            when not in_attributable then 'attributable'
            when not in_completable then 'completable'
        end as denominator,
        fault,
        case
            when fault = 'task' then 'invalid task' || coalesce(' (' || status_detail || ')', '')
            when fault = 'unknown' then 'unrecognized status "' || raw_status || '"'
            when status = 'timeout' then 'timeout, cause ' || coalesce(timeout_cause, 'unknown')
            else status || coalesce(' (' || status_detail || ')', '')
        end as reason
    from trial_outcomes
    where not in_completable
),

final as (
    select
        r.basis,
        r.denominator,
        d.step,
        r.fault,
        r.reason,
        count(*) as trials
    from removed as r
    join denominators as d using (denominator)
    group by all
)

select * from final;

create or replace view denominator_steps as
-- each step's removals = the trials of the denominator before it minus its own
select
    basis,
    denominator,
    basis_order,
    step,
    lag(count) over (partition by basis order by step) - count as removed
from rate_grid;
