-- denominator_steps: how many trials each denominator step removed, on each basis.
-- Reads: denominator_steps.
select basis, denominator, removed from denominator_steps order by basis_order, step
