-- floor_lift: the floor's rate and the lift over it, per cell (--floor; none otherwise).
-- Reads: floor_lift.
select basis, denominator, successes, count, rate, floor_successes, floor_count, floor_rate, lift
from floor_lift
order by basis_order, step
