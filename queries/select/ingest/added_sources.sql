-- added_sources: the sources one `denom ingest` call added (source_id from $first on), in load order.
-- Reads: sources.
select name, sha256, lines, records, rejected, attempts, adapter
from sources
where source_id >= $first
order by source_id
