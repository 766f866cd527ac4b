-- compare_side_names: the agents and models each side's trials name, its tasks and trials.
-- Reads: compare_side_trials.
-- Not materialized: one row per side, read once.
create or replace view compare_side_names as
-- the agents and models each side's trials name (what a side is called in the output)
select
    side_id,
    list(distinct agent order by agent) filter (where agent is not null) as agents,
    list(distinct model order by model) filter (where model is not null) as models,
    count(distinct task_id) as tasks,
    count(*) filter (where basis = 'final') as trials
from compare_side_trials
group by side_id;
