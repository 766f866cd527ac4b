-- compare_flips: every pair of cells where the candidate leads on one and trails on the
--   other (zero and undefined differences never count).
-- Reads: compare_cells.
-- Not materialized: read once.
create or replace view compare_flips as
-- every pair of cells where the candidate leads on one (difference > 0) and trails on the
-- other (< 0); zero and undefined differences never count
select
    l.pairing_id,
    l.basis as lead_basis,
    l.denominator as lead_denominator,
    l.basis_order as lead_basis_order,
    l.step as lead_step,
    l.difference as lead_difference,
    t.basis as trail_basis,
    t.denominator as trail_denominator,
    t.basis_order as trail_basis_order,
    t.step as trail_step,
    t.difference as trail_difference,
    l.basis = t.basis as same_basis
from compare_cells as l
join compare_cells as t on t.pairing_id = l.pairing_id and l.difference > 0 and t.difference < 0;
