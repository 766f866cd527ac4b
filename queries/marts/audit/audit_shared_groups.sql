-- audit_shared_groups: the identity groups (run_groups; NULL: the whole, when there are no
--   groups) holding more than one run of the trials, recorded or expected with no record: their
--   runs are audit scopes of their own (audit_scoped_trials); a group of one run is that run
--   already. One row per such group.
-- Reads: trials, missing_trials, run_identities, run_groups.
--
-- A relation of its own, counted over the runs (a few) rather than over every trial, so that
-- audit_scoped_trials reads its trials through once per scope instead of copying them whole
-- (docs/benchmarks.md, "Lakes").
create or replace view audit_shared_groups as
with

runs as (
    select run_key from trials
    union
    select run_key from missing_trials
),

final as (
    select g.identity_group
    from runs as r
    join run_identities as i using (run_key)
    left join run_groups as g using (run_key)
    group by g.identity_group
    having count(*) > 1
)

select * from final;
