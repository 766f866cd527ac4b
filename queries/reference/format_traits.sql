-- format_traits: what each input format's adapter declares the SQL must know of its attempts
--   (src/formats/types.ts FormatTraits), one row per format, so that queries/ tests a
--   declared property, never a harness's name: trial_numbering (`as_recorded`, or
--   `start_order`: the records carry no trial index, a task's trials of a run are numbered by
--   started_at, then by the raw field trial_tiebreak), attempt_numbering (`as_recorded`, or
--   `start_order`: a trial holding an attempt of this format has its attempts numbered by
--   started_at, one without a start last), is_summary_record (a record stands for a
--   whole trial, its spend on the final attempt), own_views (the folder of queries/ holding
--   the harness's own views, which read its attempts) and rerun_recognition (`named_only`, or
--   `errored_trials`: a later run over only the tasks an earlier run of the same agent, model
--   and benchmark errored on is recognised as its re-run; run_reruns) and score_scale (`0-1`:
--   the number whose rule decides a success is a score in [0, 1], full marks 1, and an attempt
--   it decided carries extra.score_decides; null: successes are booleans or id lists;
--   stg_score_rule).
-- Reads: nothing.
--
-- Generated from the adapters' declarations (src/formats/traits.ts, FormatAdapter.traits):
-- do not edit by hand; test/format-traits.test.ts checks it.
create or replace table format_traits as
select
    format::varchar as format,
    trial_numbering::varchar as trial_numbering,
    trial_tiebreak::varchar as trial_tiebreak,
    attempt_numbering::varchar as attempt_numbering,
    is_summary_record::boolean as is_summary_record,
    own_views::varchar as own_views,
    rerun_recognition::varchar as rerun_recognition,
    score_scale::varchar as score_scale
from (
    values
        ('swe-bench-results', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('mini-swe-agent-preds', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('openhands-index', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('swe-bench-pro', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('terminal-bench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('harbor', 'start_order', 'trial_name', 'as_recorded', false, null, 'errored_trials', '0-1'),
        ('harbor-job', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('harbor-config', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('harbor-trajectory', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('agentbench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('agentbench-overall', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('openhands-output', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('openhands-run-metadata', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('openhands-eval-log', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('task-summary', 'as_recorded', null, 'as_recorded', true, null, 'named_only', null),
        ('agentcompass', 'as_recorded', null, 'as_recorded', false, 'agentcompass', 'named_only', '0-1'),
        ('tau-bench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', '0-1'),
        ('tau2-bench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', '0-1'),
        ('tau2-results', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('inspect', 'as_recorded', null, 'as_recorded', false, null, 'named_only', '0-1'),
        ('mini-swe-agent-trajectory', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('mini-swe-agent-exit-statuses', 'as_recorded', null, 'start_order', false, null, 'named_only', null),
        ('swe-agent', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('openhands-scores', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('openhands-metadata', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('swe-bench-preds', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('swe-bench-legacy', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('swe-bench-instance', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('lm-eval', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('lm-eval-results', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('hal-upload', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('skillsbench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null),
        ('canonical', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null)
) as t (format, trial_numbering, trial_tiebreak, attempt_numbering, is_summary_record, own_views, rerun_recognition, score_scale);
