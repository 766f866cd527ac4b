-- skipped_files: the files of folders and archives that were not read, and why.
-- Reads: skipped_files.
select name, reason from skipped_files order by name
