-- compare_cost_cells: per pairing and denominator of the chain, on the final basis: each side's
--   cost per solved task over the common tasks the cell final/denominator pairs (the spend of
--   every attempt of its kept trials over their final successes, USD), and the difference
--   B - A with its task-clustered 95% interval (docs/compare.md, "Cost per solved task").
-- Reads: compare_pairings, compare_pairing_sides, compare_side_membership, compare_side_spend,
--   compare_task_cells, denominators, compare_settings.
-- Not materialized: a row per pairing and denominator; nothing for ingest to keep.
--
-- Each side's figure is a ratio R = sum(cost_t) / sum(successes_t) over the T tasks the cell
-- pairs (per_success's figure, over those tasks). The difference of two ratios over paired
-- tasks has, by the delta method, the task-clustered variance sum(u_t^2) with
-- u_t = (cost_B,t - R_B succ_B,t) / sum(succ_B) - (cost_A,t - R_A succ_A,t) / sum(succ_A):
-- each task enters as one residual holding both sides, so what a task costs both agents alike
-- cancels (Miller 2024, "Adding Error Bars to Evals", the paired and clustered standard
-- error; per_success gives one side's). The interval is the difference +- z SE; none below 2
-- tasks, without a success on a side or without a recorded cost. A side some of whose
-- attempts recorded no cost has a lower bound (`*_cost_lower_bound`), and the difference is
-- then bounded on neither side.
create or replace view compare_cost_cells as
with

settings as (
    select * from compare_settings
),

kept as (
    -- each side's trials the cell keeps, of the tasks it pairs (compare_task_cells: each side
    -- keeps one), with their spend
    select
        s.pairing_id,
        s.side,
        m.denominator,
        m.task_id,
        m.is_success,
        sp.cost_usd,
        coalesce(sp.cost_missing_attempts, 0) as cost_missing_attempts
    from compare_pairing_sides as s
    join compare_side_membership as m using (side_id)
    join compare_task_cells as c
        on c.pairing_id = s.pairing_id and c.task_id = m.task_id and c.basis = m.basis and c.denominator = m.denominator
    left join compare_side_spend as sp
        on sp.side_id = m.side_id and sp.run_key = m.run_key and sp.task_id = m.task_id and sp.trial = m.trial
    where m.basis = 'final'
),

per_task as not materialized (
    -- read by totals and by spread, each computing it again: a copy of it, which DuckDB
    -- makes of a CTE read twice, ran out of memory comparing 14 M attempts with 1.4 M
    select
        pairing_id,
        denominator,
        task_id,
        sum(cost_usd) filter (where side = 'baseline') as baseline_cost,
        count(*) filter (where side = 'baseline' and is_success) as baseline_successes,
        sum(cost_missing_attempts) filter (where side = 'baseline') as baseline_missing,
        sum(cost_usd) filter (where side = 'candidate') as candidate_cost,
        count(*) filter (where side = 'candidate' and is_success) as candidate_successes,
        sum(cost_missing_attempts) filter (where side = 'candidate') as candidate_missing
    from kept
    group by pairing_id, denominator, task_id
),

totals as (
    select
        pairing_id,
        denominator,
        count(*) as tasks,
        sum(baseline_cost) as baseline_cost,
        sum(baseline_successes) as baseline_successes,
        sum(baseline_missing) as baseline_missing,
        sum(candidate_cost) as candidate_cost,
        sum(candidate_successes) as candidate_successes,
        sum(candidate_missing) as candidate_missing,
        sum(baseline_cost)::double / nullif(sum(baseline_successes), 0) as baseline_ratio,
        sum(candidate_cost)::double / nullif(sum(candidate_successes), 0) as candidate_ratio
    from per_task
    group by pairing_id, denominator
),

spread as (
    -- sum(u_t^2), each square rounded to DECIMAL so the sum is the same in any order
    select
        k.pairing_id,
        k.denominator,
        sum(((
            (coalesce(k.candidate_cost, 0)::double - t.candidate_ratio * k.candidate_successes) / nullif(t.candidate_successes, 0)
            - (coalesce(k.baseline_cost, 0)::double - t.baseline_ratio * k.baseline_successes) / nullif(t.baseline_successes, 0)
        ) ** 2)::decimal(38, 18))::double as ss
    from per_task as k
    join totals as t using (pairing_id, denominator)
    group by k.pairing_id, k.denominator
),

final as (
    -- every pairing lists every denominator of the chain, in its order
    select
        p.pairing_id,
        d.step,
        d.denominator,
        coalesce(t.tasks, 0) as tasks,
        coalesce(t.baseline_successes, 0)::bigint as baseline_successes,
        t.baseline_cost::double as baseline_cost_usd,
        coalesce(t.baseline_missing, 0)::bigint as baseline_cost_missing_attempts,
        t.baseline_ratio as baseline_cost_per_success_usd,
        coalesce(t.baseline_cost is not null and t.baseline_missing > 0, false) as baseline_cost_lower_bound,
        coalesce(t.candidate_successes, 0)::bigint as candidate_successes,
        t.candidate_cost::double as candidate_cost_usd,
        coalesce(t.candidate_missing, 0)::bigint as candidate_cost_missing_attempts,
        t.candidate_ratio as candidate_cost_per_success_usd,
        coalesce(t.candidate_cost is not null and t.candidate_missing > 0, false) as candidate_cost_lower_bound,
        t.candidate_ratio - t.baseline_ratio as difference_usd,
        case when t.tasks >= 2 and t.candidate_ratio - t.baseline_ratio is not null
            then [
                t.candidate_ratio - t.baseline_ratio - st.z * sqrt(s.ss),
                t.candidate_ratio - t.baseline_ratio + st.z * sqrt(s.ss)
            ] end as difference_usd_ci95
    from compare_pairings as p
    cross join denominators as d
    cross join settings as st
    left join totals as t on t.pairing_id = p.pairing_id and t.denominator = d.denominator
    left join spread as s on s.pairing_id = p.pairing_id and s.denominator = d.denominator
)

select * from final;
