-- audit_figures: every definition of the family with its figure, in every audit scope: all
--   trials first, then each identity group and run where there are several; simplest first.
-- Reads: audit_figures.
select * from audit_figures order by scope_by <> 'all', scope_by, scope_value, simplicity
