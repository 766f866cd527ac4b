-- ratio_interval: the 95% interval of a per-solved-task ratio (cost, tokens, seconds per
--   success): ratio +- z se, its lower end clamped at 0 (a spend is never negative); NULL
--   below 2 tasks (no spread) or without a ratio (docs/metrics.md, per solved task).
-- Reads: nothing.
create or replace macro ratio_interval(ratio, se, z, tasks) as
    case when tasks >= 2 and ratio is not null then [greatest(ratio - z * se, 0.0), ratio + z * se] end;
