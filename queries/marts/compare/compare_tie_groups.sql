-- compare_tie_groups: with three groups or more (--by with two candidates or more), per cell
--   and group: its rate, its place in the order of rates, the range of ranks the pairwise
--   tests allow it, and its tie group (docs/compare.md). Two groups are separable when their
--   paired comparison's p-value, Holm-adjusted over every pair of groups
--   (compare_cells.p_holm_all), is below 1 - the confidence level (0.05); a pair with
--   nothing compared is never separable.
--   rank_best = 1 + the groups ahead of it (a higher rate) it is separable from;
--   rank_worst = the number of groups - the groups behind it it is separable from.
--   Tie groups, in the order of rates: the first group leads the first tie group, and each
--   next group joins the current tie group unless it is separable from that group's leader,
--   in which case it leads a new one.
-- Reads: compare_pairings, compare_cells, rate_cells, trial_scopes, confidence_settings.
-- Not materialized: a few rows per cell; nothing for ingest to keep.
create or replace view compare_tie_groups as
with recursive

groups as (
    select scope_id, group_value from trial_scopes where is_group
),

ordered as (
    -- ties in rate by the group's value, so the order never depends on the engine
    select
        g.scope_id,
        g.group_value,
        r.basis,
        r.basis_order,
        r.denominator,
        r.step,
        r.successes,
        r.count,
        r.rate,
        row_number() over (partition by r.basis, r.denominator order by r.rate desc nulls last, g.group_value nulls last) as position,
        count(*) over (partition by r.basis, r.denominator) as groups
    from groups as g
    join rate_cells as r using (scope_id)
    where (select count(*) from groups) >= 3
),

separable as (
    -- both orientations of every pair, so a lookup needs no order
    select c.basis, c.denominator, p.baseline_side as a, p.candidate_side as b, coalesce(c.p_holm_all < 1 - s.level, false) as separable
    from compare_cells as c
    join compare_pairings as p using (pairing_id)
    cross join confidence_settings as s
    union all
    select c.basis, c.denominator, p.candidate_side, p.baseline_side, coalesce(c.p_holm_all < 1 - s.level, false)
    from compare_cells as c
    join compare_pairings as p using (pairing_id)
    cross join confidence_settings as s
),

walk (basis, denominator, position, scope_id, leader, tie_group) as (
    select basis, denominator, position, scope_id, scope_id, 1
    from ordered
    where position = 1
    union all
    select
        o.basis,
        o.denominator,
        o.position,
        o.scope_id,
        case when coalesce(s.separable, false) then o.scope_id else w.leader end,
        w.tie_group + case when coalesce(s.separable, false) then 1 else 0 end
    from walk as w
    join ordered as o on o.basis = w.basis and o.denominator = w.denominator and o.position = w.position + 1
    left join separable as s on s.basis = o.basis and s.denominator = o.denominator and s.a = w.leader and s.b = o.scope_id
),

ranks as (
    select
        o.basis,
        o.denominator,
        o.scope_id,
        count(*) filter (where other.position < o.position and s.separable) as separable_ahead,
        count(*) filter (where other.position > o.position and s.separable) as separable_behind
    from ordered as o
    join ordered as other on other.basis = o.basis and other.denominator = o.denominator and other.scope_id <> o.scope_id
    left join separable as s on s.basis = o.basis and s.denominator = o.denominator and s.a = o.scope_id and s.b = other.scope_id
    group by o.basis, o.denominator, o.scope_id
),

final as (
    select
        o.basis,
        o.basis_order,
        o.denominator,
        o.step,
        o.scope_id,
        o.group_value,
        o.successes,
        o.count,
        o.rate,
        o.position,
        o.groups,
        1 + r.separable_ahead as rank_best,
        o.groups - r.separable_behind as rank_worst,
        w.tie_group,
        l.group_value as tie_group_leader
    from ordered as o
    join ranks as r using (basis, denominator, scope_id)
    join walk as w using (basis, denominator, scope_id)
    join groups as l on l.scope_id = w.leader
)

select * from final;
