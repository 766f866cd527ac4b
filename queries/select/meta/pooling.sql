-- pooling: the dimensions the loaded trials mix under one figure, agent first.
-- Reads: pooling.
select dimension, values, split_by, groups from pooling order by dimension_order
