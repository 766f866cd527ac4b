-- per_success: spend, LLM tokens and agent time per final success under each denominator, per
--   scope, in chain order.
-- Reads: per_success.
select * from per_success order by scope_id, step
