-- inventory_totals: the complete counts behind the report's capped lists.
-- Reads: trial_inventory.
create or replace view inventory_totals as
-- the counts behind the lists of the report's inventory section (which show at most a
-- thousand task ids each): missing tasks and trials, how many of those have no name
-- (--expect-count), tasks outside the --expect list, tasks short of their run's slots
select
    count(*) filter (where is_missing_task) as tasks_missing,
    coalesce(sum(slots_missing) filter (where is_missing_task), 0) as trials_missing,
    count(*) filter (where is_missing_task and not is_named) as tasks_missing_unnamed,
    count(*) filter (where is_listed = false) as tasks_unexpected,
    count(*) filter (where not is_missing_task and slots_missing > 0) as tasks_incomplete
from trial_inventory;
