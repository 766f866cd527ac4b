-- gate_figures: every figure a gate condition can name, in grid then metric order.
-- Reads: gate_figures.
select figure, value, numerator, denominator, tasks, cost_missing_attempts from gate_figures order by figure_order
