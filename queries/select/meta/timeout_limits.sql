-- timeout_limits: kept attempts per timeout limit, no limit last.
-- Reads: timeout_limits.
select timeout_limit_s, attempts from timeout_limits order by timeout_limit_s nulls last
