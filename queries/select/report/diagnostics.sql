-- diagnostics: timeout attempts, late passes, constraint violations, grader errors, missing
--   (one row).
-- Reads: diagnostics.
select * from diagnostics
