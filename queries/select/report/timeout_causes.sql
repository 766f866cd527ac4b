-- timeout_causes: kept timeout attempts per cause, in rule order.
-- Reads: timeout_causes.
select timeout_cause, attempts, share from timeout_causes order by cause_order
