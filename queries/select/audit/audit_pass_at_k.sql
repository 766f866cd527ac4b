-- audit_pass_at_k: pass@k and pass^k in every audit scope, all trials first, by k.
-- Reads: audit_pass_at_k.
select * from audit_pass_at_k order by scope_by <> 'all', scope_by, scope_value, k
