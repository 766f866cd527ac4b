-- tie_groups: the groups of --by in the order of their rates, with their rank ranges and
--   tie groups, in one cell (three groups or more; none otherwise).
-- Reads: compare_tie_groups.
select group_value, successes, count, rate, position, groups, rank_best, rank_worst, tie_group, tie_group_leader
from compare_tie_groups
where basis = $basis and denominator = $denominator
order by position
