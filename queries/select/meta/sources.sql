-- sources: the loaded sources, in load order.
-- Reads: sources.
select name, sha256, bytes, format, lines, records, blank, rejected, attempts, physical_lines, problem, adapter
from sources
order by source_id
