-- efficiency: the efficiency figures per scope.
-- Reads: efficiency.
select * from efficiency order by scope_id
