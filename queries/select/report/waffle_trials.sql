-- waffle_trials: how many cells the waffle has (one per trial, missing ones included).
-- Reads: trial_waffle.
select count(*) as trials from trial_waffle
