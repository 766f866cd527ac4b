-- compare_discordant_tasks: the common tasks whose final/total shares differ, with what each
--   side's final attempts ended as.
-- Reads: compare_task_cells, compare_pairing_sides, compare_side_trials.
-- Not materialized: read once.
create or replace view compare_discordant_tasks as
-- the common tasks whose success shares differ on final/total, with what each side's
-- final attempts ended as ("2 success, 1 failure (wrong_answer)")
with

outcome_words as (
    select pairing_id, side, task_id, string_agg(trials || ' ' || outcome, ', ' order by trials desc, outcome) as outcomes
    from (
        select s.pairing_id, s.side, o.task_id,
               o.status || coalesce(' (' || o.status_detail || ')', '') as outcome,
               count(*) as trials
        from compare_pairing_sides as s
        join compare_side_trials as o using (side_id)
        where o.basis = 'final'
        group by all
    )
    group by all
)

select
    c.pairing_id,
    c.task_id,
    c.baseline_successes,
    c.baseline_count,
    c.baseline_share,
    c.candidate_successes,
    c.candidate_count,
    c.candidate_share,
    c.difference,
    b.outcomes as baseline_outcomes,
    k.outcomes as candidate_outcomes
from compare_task_cells as c
left join outcome_words as b on b.pairing_id = c.pairing_id and b.side = 'baseline' and b.task_id = c.task_id
left join outcome_words as k on k.pairing_id = c.pairing_id and k.side = 'candidate' and k.task_id = c.task_id
where c.basis = 'final' and c.denominator = 'total' and c.difference <> 0;
