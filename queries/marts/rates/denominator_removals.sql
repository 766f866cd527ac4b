-- denominator_removals: what each step removed, and why.
-- Reads: trial_outcomes, denominators, removal_reason.
create or replace view denominator_removals as
with

removed as (
    select
        basis,
        excluded_from as denominator,
        fault,
        removal_reason(fault, status, status_detail, timeout_cause, raw_status) as reason
    from trial_outcomes
    where excluded_from is not null
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
