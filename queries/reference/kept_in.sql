-- kept_in: is a trial in the denominator at `step` of the chain, given the step of the first
--   denominator that leaves it out (trial_outcomes.excluded_step, NULL when none does).
-- Reads: nothing.
create or replace macro kept_in(step, excluded_step) as
    excluded_step is null or step < excluded_step;
