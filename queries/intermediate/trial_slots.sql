-- trial_slots: one row per run and trial slot: the trial numbers any of the run's tasks used,
--   recorded (trials) or expected with no record (missing_trials).
-- Reads: trials, missing_trials.
create or replace view trial_slots as
with

final as (
    select run_key, trial from trials
    union
    select run_key, trial from missing_trials
)

select * from final;
