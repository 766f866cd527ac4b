-- exclusions: what each denominator step removed, and why.
-- Reads: denominator_removals.
select basis, denominator, fault, reason, trials
from denominator_removals
order by basis desc, step, trials desc, reason
