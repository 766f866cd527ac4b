-- benchmarks: the benchmarks (attempts' category) the inputs hold.
-- Reads: attempts.
select distinct category from attempts order by category
