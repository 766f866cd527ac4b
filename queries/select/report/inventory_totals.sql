-- inventory_totals: the complete counts behind the capped lists (one row).
-- Reads: inventory_totals.
select * from inventory_totals
