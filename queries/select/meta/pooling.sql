-- pooling: the dimensions the loaded trials mix under one figure, agent first, and whether the
--   groups of --by still pool each one (`within_groups`; false without --by).
-- Reads: pooling, pooled_within_groups.
select
    p.dimension,
    p.values,
    p.split_by,
    p.groups,
    p.dimension in (select dimension from pooled_within_groups) as within_groups
from pooling as p
order by p.dimension_order
