-- task_trial_counts: per scope and task: n = trials with a record, c = final successes.
-- Reads: scoped_trial_outcomes.
--
-- pass@k = mean over tasks of 1 - C(n-c, k) / C(n, k): the unbiased estimator of Chen et al.
--          2021, "Evaluating Large Language Models Trained on Code" (the Codex paper), eq. 1.
-- pass^k = mean over tasks of C(c, k) / C(n, k): Yao et al. 2024, section 5.
-- C(a, k) / C(n, k) = prod_{i=0}^{k-1} (a - i) / (n - i): a running product of ratios, each
-- in [0, 1], so nothing overflows and no factorial is formed. A task with n < k is skipped
-- for that k and counted, never filled in; an expected task with no record (n = 0) is
-- skipped for every k.
create or replace view task_trial_counts as
select
    scope_id,
    task_id,
    count(*) filter (where attempts > 0) as n,
    count(*) filter (where is_success) as c
from scoped_trial_outcomes
where basis = 'final'
group by scope_id, task_id;
