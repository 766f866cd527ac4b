-- source_duplicates: pairs of sources holding differing copies of the same attempts, most first.
-- Reads: source_duplicates.
select kept_source, dropped_source, duplicates from source_duplicates order by duplicates desc, kept_source, dropped_source
