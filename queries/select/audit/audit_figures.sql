-- audit_figures: every definition of the family with its figure, simplest first.
-- Reads: audit_figures.
select * from audit_figures order by simplicity
