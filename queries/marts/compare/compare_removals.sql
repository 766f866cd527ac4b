-- compare_removals: what each step of the chain removed from each side's trials of the
--   common tasks, by reason (the words of denominator_removals), on each basis.
-- Reads: compare_pairing_sides, compare_side_trials, compare_task_presence, denominators,
--   removal_reason.
-- Not materialized: read once.
create or replace view compare_removals as
-- what each step of the chain removed from each side's trials of the common tasks, by
-- reason (the words of denominator_removals), on each basis
with

removed as (
    select
        s.pairing_id,
        s.side,
        o.basis,
        o.excluded_from as denominator,
        o.fault,
        o.status,
        o.status_detail,
        o.timeout_cause,
        removal_reason(o.fault, o.status, o.status_detail, o.timeout_cause, o.raw_status) as reason
    from compare_pairing_sides as s
    join compare_side_trials as o using (side_id)
    join compare_task_presence as t on t.pairing_id = s.pairing_id and t.task_id = o.task_id and t.is_common
    where o.excluded_from is not null
)

select r.pairing_id, r.side, r.basis, r.denominator, d.step, r.fault, r.status, r.status_detail, r.timeout_cause, r.reason, count(*) as trials
from removed as r
join denominators as d using (denominator)
group by all;
