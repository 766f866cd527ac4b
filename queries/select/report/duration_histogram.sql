-- duration_histogram: attempts per status and duration bin, by status then bin.
-- Reads: duration_histogram.
select status, bin, bin_lo_s, bin_hi_s, attempts from duration_histogram order by status, bin
