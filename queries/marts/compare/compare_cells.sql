-- compare_cells: per pairing and cell (all eight): the tasks entering, each side's
--   successes/count with its trial_rate (that fraction) and its rate (the mean over tasks of
--   the per-task shares, which the difference compares), the difference B - A, its task-clustered se, ci95, the
--   test (mcnemar_exact or z) and p_value, the discordant counts, mde80 and tasks_needed, and
--   the verdict: better (ci95 above 0), worse (below 0), inconclusive (spans 0) or nothing
--   compared (T < 2); p_holm, the p-value adjusted over the comparisons against the baseline
--   (Holm), and p_holm_all, adjusted over every pair of groups (compare_tie_groups' family).
-- Reads: compare_pairings, denominators, compare_task_cells, compare_settings, erfc_nr.
-- Not materialized: eight rows per pairing; nothing for ingest to keep.
create or replace view compare_cells as
with

cells as (
    -- all eight cells of every pairing, also those no task enters
    select p.pairing_id, p.versus_baseline, b.basis_order, b.basis, d.step, d.denominator
    from compare_pairings as p
    cross join (values (1, 'first'), (2, 'final')) as b (basis_order, basis)
    cross join denominators as d
),

per_cell as (
    select
        c.pairing_id,
        c.versus_baseline,
        c.basis_order,
        c.basis,
        c.step,
        c.denominator,
        count(t.task_id) as tasks,
        coalesce(sum(t.baseline_successes), 0) as baseline_successes,
        coalesce(sum(t.baseline_count), 0) as baseline_count,
        -- the means and the sum of squares over tasks as DECIMAL sums, which give the same
        -- value in any order of summation (a DOUBLE sum over a parallel aggregate does not)
        avg(t.baseline_share::decimal(38, 18))::double as baseline_rate,
        coalesce(sum(t.candidate_successes), 0) as candidate_successes,
        coalesce(sum(t.candidate_count), 0) as candidate_count,
        avg(t.candidate_share::decimal(38, 18))::double as candidate_rate,
        avg(t.difference::decimal(38, 18))::double as difference,
        -- sd with T - 1 over tasks: the trials of one task are one cluster; each square
        -- about the cell's mean d (the same value as difference) rounded to 18 places,
        -- so tasks that all moved alike give exactly 0
        case when count(t.task_id) >= 2 then sum(((t.difference - t.mean_difference) ^ 2)::decimal(38, 18))::double / (count(t.task_id) - 1) end as variance,
        bool_and(t.baseline_count = 1 and t.candidate_count = 1) as one_trial_each,
        -- tasks where the baseline's share is the higher (b), the candidate's (c); with one
        -- trial per side these are McNemar's discordant pairs
        count(*) filter (where t.baseline_share > t.candidate_share) as baseline_only,
        count(*) filter (where t.candidate_share > t.baseline_share) as candidate_only
    from cells as c
    left join (
        select *, avg(difference::decimal(38, 18)) over (partition by pairing_id, basis, denominator)::double as mean_difference
        from compare_task_cells
    ) as t using (pairing_id, basis, denominator)
    group by all
),

settings as (
    select z, z_power from compare_settings
),

with_se as (
    select
        p.*,
        s.z,
        s.z_power,
        case when p.tasks >= 2 then sqrt(p.variance / p.tasks) end as se,
        case when p.tasks = 0 then null when p.one_trial_each then 'mcnemar_exact' else 'z' end as test
    from per_cell as p
    cross join settings as s
),

mcnemar as (
    -- exact two-sided McNemar: p = min(1, 2 sum_{i=0..min(b,c)} C(b+c, i) / 2^(b+c)); each
    -- term as exp(log C(n, i) - n log 2) with log-gamma, so n past 1000 does not overflow.
    -- n = 0 gives the one term i = 0, 1, and p = 1
    select pairing_id, basis, denominator, least(1.0, 2 * sum(exp(lgamma(n + 1) - lgamma(i + 1) - lgamma(n - i + 1) - n * ln(2)))) as p_value
    from (
        select pairing_id, basis, denominator, baseline_only + candidate_only as n,
               unnest(range(0, least(baseline_only, candidate_only) + 1)) as i
        from with_se
        where test = 'mcnemar_exact' and tasks >= 2
    )
    group by all
),

final as (
    select
        w.pairing_id,
        w.versus_baseline,
        w.basis_order,
        w.basis,
        w.step,
        w.denominator,
        w.tasks,
        w.baseline_successes,
        w.baseline_count,
        w.baseline_rate,
        -- the fraction printed beside it: successes over the kept trials of the entering tasks
        w.baseline_successes / nullif(w.baseline_count, 0) as baseline_trial_rate,
        w.candidate_successes,
        w.candidate_count,
        w.candidate_rate,
        w.candidate_successes / nullif(w.candidate_count, 0) as candidate_trial_rate,
        w.difference,
        w.variance,
        w.se,
        case when w.se is not null then [w.difference - w.z * w.se, w.difference + w.z * w.se] end as ci95,
        w.test,
        case
            when w.se is null then null
            when w.test = 'mcnemar_exact' then m.p_value
            -- z test (approximate): p = 2 (1 - Phi(|d| / se)); se = 0 means every task moved alike
            when w.se = 0 then case when w.difference = 0 then 1.0 else 0.0 end
            else least(1.0, erfc_nr(abs(w.difference) / w.se / sqrt(2)))
        end as p_value,
        w.baseline_only,
        w.candidate_only,
        (w.z + w.z_power) * w.se as mde80,
        case
            when w.difference <> 0 and w.variance is not null
                then ceil((w.z + w.z_power) * (w.z + w.z_power) * w.variance / (w.difference * w.difference))::bigint
        end as tasks_needed,
        -- the cell's verdict: fewer than 2 tasks give no spread, so no interval to judge by
        case
            when w.se is null then 'nothing compared'
            when w.difference + w.z * w.se < 0 then 'worse'
            when w.difference - w.z * w.se > 0 then 'better'
            else 'inconclusive'
        end as verdict
    from with_se as w
    left join mcnemar as m using (pairing_id, basis, denominator)
),

families as (
    -- the two families a p-value is adjusted over: the comparisons against the baseline
    -- (what compare prints), and every pair of groups (the tie groups)
    select pairing_id, basis, denominator, p_value, 'baseline' as family from final where p_value is not null and versus_baseline
    union all
    select pairing_id, basis, denominator, p_value, 'all' from final where p_value is not null
),

holm as (
    -- Holm's step-down adjustment (Holm 1979, "A simple sequentially rejective multiple test
    -- procedure") of a cell's p-value over the m comparisons of its family (m = the pairings
    -- of the family with a p-value in that cell): the i-th smallest p becomes
    -- min(1, max over j <= i of (m - j + 1) p_(j)). One comparison keeps its p; equal
    -- p-values are ordered by pairing
    select
        pairing_id,
        basis,
        denominator,
        family,
        least(
            1.0,
            max((m - p_rank + 1) * p_value) over (
                partition by family, basis, denominator order by p_rank rows between unbounded preceding and current row
            )
        ) as p_adjusted
    from (
        select
            *,
            row_number() over (partition by family, basis, denominator order by p_value, pairing_id) as p_rank,
            count(*) over (partition by family, basis, denominator) as m
        from families
    )
)

select
    f.*,
    h.p_adjusted as p_holm,
    a.p_adjusted as p_holm_all
from final as f
left join holm as h on h.pairing_id = f.pairing_id and h.basis = f.basis and h.denominator = f.denominator and h.family = 'baseline'
left join holm as a on a.pairing_id = f.pairing_id and a.basis = f.basis and a.denominator = f.denominator and a.family = 'all';
