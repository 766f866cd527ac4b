-- duration_by_status: the duration figures per scope and attempt status.
-- Reads: duration_by_status.
select * from duration_by_status order by scope_id, status
