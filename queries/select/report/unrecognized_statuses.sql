-- unrecognized_statuses: raw statuses no alias maps, most attempts first.
-- Reads: unrecognized_statuses.
select raw_status, attempts from unrecognized_statuses order by attempts desc, raw_status
