-- erfc_nr: erfc(x) for x >= 0 (Numerical Recipes in C, 2nd ed., section 6.2, erfcc), a
--   Chebyshev fit with fractional (relative) error below 1.2e-7 everywhere, so a small
--   tail p-value keeps its digits; 2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2).
-- Reads: nothing.
create or replace macro erfc_nr(x) as
    (1.0 / (1.0 + 0.5 * x)) * exp(
        -x * x - 1.26551223 + (1.0 / (1.0 + 0.5 * x)) * (1.00002368 + (1.0 / (1.0 + 0.5 * x)) * (0.37409196
        + (1.0 / (1.0 + 0.5 * x)) * (0.09678418 + (1.0 / (1.0 + 0.5 * x)) * (-0.18628806
        + (1.0 / (1.0 + 0.5 * x)) * (0.27886807 + (1.0 / (1.0 + 0.5 * x)) * (-1.13520398
        + (1.0 / (1.0 + 0.5 * x)) * (1.48851587 + (1.0 / (1.0 + 0.5 * x)) * (-0.82215223
        + (1.0 / (1.0 + 0.5 * x)) * 0.17087277)))))))));
