-- rejects: the first $limit rejected lines, in input order.
-- Reads: rejects, sources.
select s.name as source, r.line, r.location, r.reason
from rejects as r
join sources as s using (source_id)
order by r.source_id, r.line
limit $limit
