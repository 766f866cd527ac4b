-- compare_unpaired_tasks: the tasks only one side has: listed, never paired.
-- Reads: compare_task_presence.
-- Not materialized: read once.
create or replace view compare_unpaired_tasks as
-- the tasks only one side has: listed, never paired and never dropped in silence
select
    pairing_id,
    case when candidate_trials is null then 'baseline' else 'candidate' end as side,
    task_id,
    coalesce(baseline_trials, candidate_trials) as trials
from compare_task_presence
where not is_common;
