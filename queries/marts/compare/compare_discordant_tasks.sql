-- compare_discordant_tasks: the common tasks whose final/total shares differ, with what each
--   side's final attempts ended as.
-- Reads: compare_task_cells, compare_pairing_sides, compare_side_trials.
-- Not materialized: read once.
create or replace view compare_discordant_tasks as
-- the common tasks whose success shares differ on final/total, with what each side's
-- final attempts ended as ("2 success, 1 failure (wrong_answer)"). The words are gathered
-- for those tasks only, both sides in one aggregate: a string_agg per task of every trial
-- read twice (one copy per side) ran out of memory comparing 14 M attempts with 1.4 M.
with

discordant as (
    select
        pairing_id,
        task_id,
        baseline_successes,
        baseline_count,
        baseline_share,
        candidate_successes,
        candidate_count,
        candidate_share,
        difference
    from compare_task_cells
    where basis = 'final' and denominator = 'total' and difference <> 0
),

outcomes as (
    select s.pairing_id, s.side, o.task_id,
           o.status || coalesce(' (' || o.status_detail || ')', '') as outcome,
           count(*) as trials
    from discordant as d
    join compare_pairing_sides as s using (pairing_id)
    join compare_side_trials as o on o.side_id = s.side_id and o.task_id = d.task_id
    where o.basis = 'final'
    group by all
),

outcome_words as (
    select
        pairing_id,
        task_id,
        string_agg(trials || ' ' || outcome, ', ' order by trials desc, outcome) filter (where side = 'baseline') as baseline_outcomes,
        string_agg(trials || ' ' || outcome, ', ' order by trials desc, outcome) filter (where side = 'candidate') as candidate_outcomes
    from outcomes
    group by pairing_id, task_id
)

select d.*, w.baseline_outcomes, w.candidate_outcomes
from discordant as d
left join outcome_words as w using (pairing_id, task_id);
