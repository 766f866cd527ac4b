-- retry_policy: attempts per trial at most, and the retried statuses (one row).
-- Reads: retry_policy.
select * from retry_policy
