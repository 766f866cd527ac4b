-- compare_task_cells: per common task and cell, each side's kept trials and successes, its
--   share p, and d = p_B - p_A (docs/compare.md).
-- Reads: compare_pairing_sides, compare_side_membership, compare_task_presence.
-- Not materialized: compare reads it a few times; nothing for ingest to keep (it holds rows only in a compare session).
create or replace view compare_task_cells as
-- a common task enters a cell when each side keeps at least one of its trials there;
-- p = the share of successes among the kept trials (0 or 1 with one trial)
with

kept as (
    select s.pairing_id, s.side, m.task_id, m.basis, m.denominator, m.is_success
    from compare_pairing_sides as s
    join compare_side_membership as m using (side_id)
    join compare_task_presence as t on t.pairing_id = s.pairing_id and t.task_id = m.task_id and t.is_common
),

per_task as (
    select
        pairing_id,
        task_id,
        basis,
        denominator,
        count(*) filter (where side = 'baseline') as baseline_count,
        count(*) filter (where side = 'baseline' and is_success) as baseline_successes,
        count(*) filter (where side = 'candidate') as candidate_count,
        count(*) filter (where side = 'candidate' and is_success) as candidate_successes
    from kept
    group by all
),

final as (
    select
        *,
        baseline_successes::double / baseline_count as baseline_share,
        candidate_successes::double / candidate_count as candidate_share,
        candidate_successes::double / candidate_count - baseline_successes::double / baseline_count as difference
    from per_task
    where baseline_count > 0 and candidate_count > 0
)

select * from final;
