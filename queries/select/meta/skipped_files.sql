-- skipped_files: the files of folders and archives that were not read, and why; top_keys (a JSON
--   list) the top-level keys of a side file no format reads.
-- Reads: skipped_files.
select name, reason, top_keys from skipped_files order by name
