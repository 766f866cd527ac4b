-- denominator_waterfall: the waterfall's bars, first basis then final, each step's kept bar before its removals.
-- Reads: denominator_waterfall.
select basis, step, denominator, part, fault, reason, trials, y_lo, y_hi
from denominator_waterfall
order by basis_order, step, y_lo
