-- database_totals: what the file holds after the call: sources, records and attempts (table
--   counts, not the views: the figures are report's job, and some views are costly on big files).
-- Reads: sources.
select count(*) as sources, coalesce(sum(records), 0) as records, coalesce(sum(attempts), 0) as attempts
from sources
