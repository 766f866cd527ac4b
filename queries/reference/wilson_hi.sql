-- wilson_hi: the upper end of the Wilson score interval (see wilson_lo), clamped to 1
--   against rounding at s = n.
-- Reads: nothing.
create or replace macro wilson_hi(s, n, z) as
    case when n > 0 then least(1.0,
        (s / n + z * z / (2 * n) + z * sqrt(s / n * (1 - s / n) / n + z * z / (4 * n * n))) / (1 + z * z / n))
    end;
