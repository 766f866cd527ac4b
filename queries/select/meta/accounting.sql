-- accounting: every physical line in one bucket (one row).
-- Reads: accounting.
select * from accounting
