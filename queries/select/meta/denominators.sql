-- denominators: the chain of denominators, in order.
-- Reads: denominators.
select denominator, keeps, removes from denominators order by step
