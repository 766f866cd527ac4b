-- compare_task_presence: the tasks each side of a pairing has, with their trials; is_common
--   when both sides have it.
-- Reads: compare_pairing_sides, compare_side_trials.
-- Not materialized: read through by the marts of the paired tasks; nothing for ingest to keep.
create or replace view compare_task_presence as
-- which tasks each side of a pairing has (a trial in `total` on the final basis: every trial)
with

tasks as (
    select side_id, task_id, count(*) as trials
    from compare_side_trials
    where basis = 'final'
    group by all
),

final as (
    select
        s.pairing_id,
        t.task_id,
        sum(t.trials) filter (where s.side = 'baseline') as baseline_trials,
        sum(t.trials) filter (where s.side = 'candidate') as candidate_trials
    from compare_pairing_sides as s
    join tasks as t using (side_id)
    group by all
)

select
    *,
    baseline_trials is not null and candidate_trials is not null as is_common
from final;
