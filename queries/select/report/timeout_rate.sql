-- timeout_rate: final timeouts over all trials (one row).
-- Reads: timeout_rate.
select timeouts, trials, rate from timeout_rate
