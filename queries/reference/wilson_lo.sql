-- wilson_lo: the lower end of the Wilson score interval for s successes out of n at normal
--   quantile z (NULL when n = 0), clamped to 0 against rounding at s = 0.
-- Reads: nothing.
create or replace macro wilson_lo(s, n, z) as
    case when n > 0 then greatest(0.0,
        (s / n + z * z / (2 * n) - z * sqrt(s / n * (1 - s / n) / n + z * z / (4 * n * n))) / (1 + z * z / n))
    end;
