-- Defines: the paired comparison of DESIGN section 11 (`denom compare`): a baseline side
--          and a candidate side, paired by task id.
--          compare_side_trials / compare_side_membership: each side's trials (outcome,
--          fault, denominators kept in); compare_side_names: its agents, models, tasks; compare_pairings: which side is compared with which;
--          compare_coverage, compare_unpaired_tasks: tasks on both sides, only on one;
--          compare_task_cells: per common task and cell, each side's kept trials and share;
--          compare_cells: per cell the difference B - A, its task-clustered se, 95% interval,
--          test and p-value, power (mde80, tasks_needed); compare_flips: pairs of cells whose
--          differences have opposite signs; compare_removals: what each step of the
--          denominator chain removed per side over the common tasks (why a flip happens);
--          compare_attribution: environment failures, timeouts by cause, grader errors,
--          rescued and flaky tasks per side; compare_discordant_tasks: the common tasks whose
--          final/total shares differ, with each side's outcomes.
-- Also: compare_settings (z and z for 80% power), the macro erfc_nr.
-- Reads: scoped_trial_outcomes, rate_membership, trial_scopes, denominators,
--        confidence_settings, getvariable('compare_baseline') (the --baseline value).
--
-- Sides: with one input and --by FIELD, a side is a scope of --by (scopes 1..n), the
-- baseline the group whose value is getvariable('compare_baseline'), compared with every
-- other group. With two inputs (baseline A, candidate B), each input is read in its own
-- session; src/commands/compare.ts puts TEMP TABLEs of the same names in place of
-- compare_side_trials, compare_side_membership and compare_pairings (side 0 = A, side 1 =
-- B), so every view below reads both sides from one session.

-- The standard normal quantiles of the power formula (Miller 2024, "Adding Error Bars to
-- Evals", section 5): z for a two-sided 5% test (confidence_settings) and z for 80% power,
-- Phi^-1(0.8).
create or replace view compare_settings as
select z, 0.8416212335729143 as z_power from confidence_settings;

-- erfc(x) for x >= 0, Numerical Recipes in C (2nd ed., section 6.2, erfcc): a Chebyshev
-- fit with fractional (relative) error below 1.2e-7 everywhere, so a small tail p-value
-- keeps its digits. The two-sided normal p-value of z is 2 (1 - Phi(|z|)) = erfc(|z|/sqrt 2).
create or replace macro erfc_nr(x) as
    (1.0 / (1.0 + 0.5 * x)) * exp(
        -x * x - 1.26551223 + (1.0 / (1.0 + 0.5 * x)) * (1.00002368 + (1.0 / (1.0 + 0.5 * x)) * (0.37409196
        + (1.0 / (1.0 + 0.5 * x)) * (0.09678418 + (1.0 / (1.0 + 0.5 * x)) * (-0.18628806
        + (1.0 / (1.0 + 0.5 * x)) * (0.27886807 + (1.0 / (1.0 + 0.5 * x)) * (-1.13520398
        + (1.0 / (1.0 + 0.5 * x)) * (1.48851587 + (1.0 / (1.0 + 0.5 * x)) * (-0.82215223
        + (1.0 / (1.0 + 0.5 * x)) * 0.17087277)))))))));

create or replace view compare_side_trials as
-- one row per trial and basis; side = the scope (one input) or the input (two, replaced)
select
    scope_id as side_id,
    run_key,
    task_id,
    trial,
    basis,
    is_success,
    status,
    status_detail,
    fault,
    timeout_cause,
    raw_status,
    in_valid,
    in_attributable,
    in_completable,
    agent,
    model
from scoped_trial_outcomes;

create or replace view compare_side_membership as
-- each trial once per basis and per denominator it is kept in (rate_membership's rows)
select scope_id as side_id, run_key, task_id, trial, basis, denominator, is_success
from rate_membership;

create or replace view compare_side_names as
-- the agents and models each side's trials name (what a side is called in the output)
select
    side_id,
    list(distinct agent order by agent) filter (where agent is not null) as agents,
    list(distinct model order by model) filter (where model is not null) as models,
    count(distinct task_id) as tasks,
    count(*) filter (where basis = 'final') as trials
from compare_side_trials
group by side_id;

create or replace view compare_pairings as
-- --by FIELD --baseline VALUE: the baseline group against each other group, in value order
with

groups as (
    select scope_id, group_value from trial_scopes where is_group
),

baseline as (
    select scope_id from groups where group_value is not distinct from getvariable('compare_baseline')
)

select
    row_number() over (order by c.scope_id)::bigint as pairing_id,
    b.scope_id as baseline_side,
    c.scope_id as candidate_side
from baseline as b
join groups as c on c.scope_id <> b.scope_id;

create or replace view compare_pairing_sides as
-- each pairing's two sides, named
select pairing_id, baseline_side as side_id, 'baseline' as side from compare_pairings
union all
select pairing_id, candidate_side as side_id, 'candidate' as side from compare_pairings;

create or replace view compare_task_presence as
-- which tasks each side of a pairing has (a trial in `total` on the final basis: every trial)
with

tasks as (
    select side_id, task_id, count(*) as trials
    from compare_side_trials
    where basis = 'final'
    group by all
),

final as (
    select
        s.pairing_id,
        t.task_id,
        sum(t.trials) filter (where s.side = 'baseline') as baseline_trials,
        sum(t.trials) filter (where s.side = 'candidate') as candidate_trials
    from compare_pairing_sides as s
    join tasks as t using (side_id)
    group by all
)

select
    *,
    baseline_trials is not null and candidate_trials is not null as is_common
from final;

create or replace view compare_coverage as
select
    p.pairing_id,
    count(t.task_id) filter (where t.is_common) as common_tasks,
    count(t.task_id) filter (where t.candidate_trials is null) as only_baseline,
    count(t.task_id) filter (where t.baseline_trials is null) as only_candidate,
    coalesce(sum(t.baseline_trials), 0) as baseline_trials,
    coalesce(sum(t.candidate_trials), 0) as candidate_trials,
    coalesce(sum(t.baseline_trials) filter (where t.is_common), 0) as baseline_trials_paired,
    coalesce(sum(t.candidate_trials) filter (where t.is_common), 0) as candidate_trials_paired
from compare_pairings as p
left join compare_task_presence as t using (pairing_id)
group by all;

create or replace view compare_unpaired_tasks as
-- the tasks only one side has: listed, never paired and never dropped in silence
select
    pairing_id,
    case when candidate_trials is null then 'baseline' else 'candidate' end as side,
    task_id,
    coalesce(baseline_trials, candidate_trials) as trials
from compare_task_presence
where not is_common;

create or replace view compare_task_cells as
-- a common task enters a cell when each side keeps at least one of its trials there;
-- p = the share of successes among the kept trials (0 or 1 with one trial)
with

kept as (
    select s.pairing_id, s.side, m.task_id, m.basis, m.denominator, m.is_success
    from compare_pairing_sides as s
    join compare_side_membership as m using (side_id)
    join compare_task_presence as t on t.pairing_id = s.pairing_id and t.task_id = m.task_id and t.is_common
),

per_task as (
    select
        pairing_id,
        task_id,
        basis,
        denominator,
        count(*) filter (where side = 'baseline') as baseline_count,
        count(*) filter (where side = 'baseline' and is_success) as baseline_successes,
        count(*) filter (where side = 'candidate') as candidate_count,
        count(*) filter (where side = 'candidate' and is_success) as candidate_successes
    from kept
    group by all
),

final as (
    select
        *,
        baseline_successes::double / baseline_count as baseline_share,
        candidate_successes::double / candidate_count as candidate_share,
        candidate_successes::double / candidate_count - baseline_successes::double / baseline_count as difference
    from per_task
    where baseline_count > 0 and candidate_count > 0
)

select * from final;

create or replace view compare_cells as
with

cells as (
    -- all eight cells of every pairing, also those no task enters
    select p.pairing_id, b.basis_order, b.basis, d.step, d.denominator
    from compare_pairings as p
    cross join (values (1, 'first'), (2, 'final')) as b (basis_order, basis)
    cross join denominators as d
),

per_cell as (
    select
        c.pairing_id,
        c.basis_order,
        c.basis,
        c.step,
        c.denominator,
        count(t.task_id) as tasks,
        coalesce(sum(t.baseline_successes), 0) as baseline_successes,
        coalesce(sum(t.baseline_count), 0) as baseline_count,
        avg(t.baseline_share) as baseline_rate,
        coalesce(sum(t.candidate_successes), 0) as candidate_successes,
        coalesce(sum(t.candidate_count), 0) as candidate_count,
        avg(t.candidate_share) as candidate_rate,
        avg(t.difference) as difference,
        -- sd with T - 1 over tasks: the trials of one task are one cluster
        var_samp(t.difference) as variance,
        bool_and(t.baseline_count = 1 and t.candidate_count = 1) as one_trial_each,
        -- tasks where the baseline's share is the higher (b), the candidate's (c); with one
        -- trial per side these are McNemar's discordant pairs
        count(*) filter (where t.baseline_share > t.candidate_share) as baseline_only,
        count(*) filter (where t.candidate_share > t.baseline_share) as candidate_only
    from cells as c
    left join compare_task_cells as t using (pairing_id, basis, denominator)
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
        w.basis_order,
        w.basis,
        w.step,
        w.denominator,
        w.tasks,
        w.baseline_successes,
        w.baseline_count,
        w.baseline_rate,
        w.candidate_successes,
        w.candidate_count,
        w.candidate_rate,
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
        end as tasks_needed
    from with_se as w
    left join mcnemar as m using (pairing_id, basis, denominator)
)

select * from final;

create or replace view compare_flips as
-- every pair of cells where the candidate leads on one (difference > 0) and trails on the
-- other (< 0); zero and undefined differences never count
select
    l.pairing_id,
    l.basis as lead_basis,
    l.denominator as lead_denominator,
    l.basis_order as lead_basis_order,
    l.step as lead_step,
    l.difference as lead_difference,
    t.basis as trail_basis,
    t.denominator as trail_denominator,
    t.basis_order as trail_basis_order,
    t.step as trail_step,
    t.difference as trail_difference,
    l.basis = t.basis as same_basis
from compare_cells as l
join compare_cells as t on t.pairing_id = l.pairing_id and l.difference > 0 and t.difference < 0;

create or replace view compare_removals as
-- what each step of the chain removed from each side's trials of the common tasks, by
-- reason (the words of denominator_removals), on each basis
with

removed as (
    select
        s.pairing_id,
        s.side,
        o.basis,
        case
            when not o.in_valid then 'valid'
            when not o.in_attributable then 'attributable'
            else 'completable'
        end as denominator,
        o.fault,
        o.status,
        o.status_detail,
        o.timeout_cause,
        case
            when o.fault = 'task' then 'invalid task' || coalesce(' (' || o.status_detail || ')', '')
            when o.fault = 'unknown' then 'unrecognized status "' || o.raw_status || '"'
            when o.status = 'timeout' then 'timeout, cause ' || coalesce(o.timeout_cause, 'unknown')
            else o.status || coalesce(' (' || o.status_detail || ')', '')
        end as reason
    from compare_pairing_sides as s
    join compare_side_trials as o using (side_id)
    join compare_task_presence as t on t.pairing_id = s.pairing_id and t.task_id = o.task_id and t.is_common
    where not o.in_completable
)

select r.pairing_id, r.side, r.basis, r.denominator, d.step, r.fault, r.status, r.status_detail, r.timeout_cause, r.reason, count(*) as trials
from removed as r
join denominators as d using (denominator)
group by all;

create or replace view compare_attribution as
-- where a difference comes from, per side, over the trials of the common tasks
with

trials as (
    select s.pairing_id, s.side, o.*
    from compare_pairing_sides as s
    join compare_side_trials as o using (side_id)
    join compare_task_presence as t on t.pairing_id = s.pairing_id and t.task_id = o.task_id and t.is_common
),

final_basis as (
    select * from trials where basis = 'final'
),

rescued as (
    -- trials whose first attempt did not succeed and whose final one did
    select pairing_id, side, count(*) as trials_rescued
    from (
        select pairing_id, side, run_key, task_id, trial
        from trials
        group by all
        having bool_or(basis = 'first' and not is_success) and bool_or(basis = 'final' and is_success)
    )
    group by all
),

flaky as (
    -- tasks whose trials disagree (final basis, every trial): some passed, some did not
    select
        pairing_id,
        side,
        count(*) filter (where trials >= 2) as tasks_with_several_trials,
        count(*) filter (where trials >= 2 and successes > 0 and successes < trials) as tasks_disagreeing
    from (
        select pairing_id, side, task_id, count(*) as trials, count(*) filter (where is_success) as successes
        from final_basis
        group by all
    )
    group by all
),

outcomes as (
    select
        pairing_id,
        side,
        count(*) as trials,
        count(*) filter (where is_success) as successes,
        count(*) filter (where fault = 'environment') as environment_failures,
        count(*) filter (where status = 'timeout') as timeouts,
        count(*) filter (where status = 'timeout' and timeout_cause = 'queue') as timeouts_queue,
        count(*) filter (where status = 'timeout' and timeout_cause = 'external') as timeouts_external,
        count(*) filter (where status = 'timeout' and timeout_cause = 'loop') as timeouts_loop,
        count(*) filter (where status = 'timeout' and timeout_cause = 'sluggish') as timeouts_sluggish,
        count(*) filter (where status = 'timeout' and coalesce(timeout_cause, 'unknown') = 'unknown') as timeouts_unknown,
        count(*) filter (where status = 'aborted' and status_detail = 'grader_error') as grader_errors,
        count(*) filter (where fault = 'task') as invalid,
        count(*) filter (where fault = 'unknown') as unrecognized
    from final_basis
    group by all
)

select
    o.*,
    coalesce(r.trials_rescued, 0) as trials_rescued,
    f.tasks_with_several_trials,
    f.tasks_disagreeing,
    f.tasks_disagreeing::double / nullif(f.tasks_with_several_trials, 0) as flaky_share
from outcomes as o
left join rescued as r using (pairing_id, side)
left join flaky as f using (pairing_id, side);

create or replace view compare_discordant_tasks as
-- the common tasks whose success shares differ on final/total, with what each side's
-- final attempts ended as ("2 success, 1 failure (wrong_answer)")
with

outcome_words as (
    select pairing_id, side, task_id, string_agg(trials || ' ' || outcome, ', ' order by trials desc, outcome) as outcomes
    from (
        select s.pairing_id, s.side, o.task_id,
               o.status || coalesce(' (' || o.status_detail || ')', '') as outcome,
               count(*) as trials
        from compare_pairing_sides as s
        join compare_side_trials as o using (side_id)
        where o.basis = 'final'
        group by all
    )
    group by all
)

select
    c.pairing_id,
    c.task_id,
    c.baseline_successes,
    c.baseline_count,
    c.baseline_share,
    c.candidate_successes,
    c.candidate_count,
    c.candidate_share,
    c.difference,
    b.outcomes as baseline_outcomes,
    k.outcomes as candidate_outcomes
from compare_task_cells as c
left join outcome_words as b on b.pairing_id = c.pairing_id and b.side = 'baseline' and b.task_id = c.task_id
left join outcome_words as k on k.pairing_id = c.pairing_id and k.side = 'candidate' and k.task_id = c.task_id
where c.basis = 'final' and c.denominator = 'total' and c.difference <> 0;
