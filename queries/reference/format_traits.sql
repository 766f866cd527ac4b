-- format_traits: what each input format's adapter declares the SQL must know of its attempts
--   (src/formats/types.ts FormatTraits), one row per format, so that queries/ tests a
--   declared property, never a harness's name: trial_numbering (`as_recorded`, or
--   `start_order`: the records carry no trial index, a task's trials of a run are numbered by
--   started_at, then by the raw field trial_tiebreak), attempt_numbering (`as_recorded`, or
--   `start_order`: a trial holding an attempt of this format has its attempts numbered by
--   started_at, one without a start last), is_summary_record (a record stands for a
--   whole trial, its spend on the final attempt), own_views (the folder of queries/ holding
--   the harness's own views, which read its attempts), rerun_recognition (`named_only`, or
--   `errored_trials`: a later run over only the tasks an earlier run of the same agent, model
--   and benchmark errored on is recognised as its re-run; run_reruns), score_scale (`0-1`:
--   the number whose rule decides a success is a score in [0, 1], full marks 1, and an attempt
--   it decided carries extra.score_decides; null: successes are booleans or id lists;
--   stg_score_rule) and sub_benchmark_field (the raw field of attempts.extra naming the
--   sub-benchmark a trial belongs to within its run, a pooling dimension named by the field;
--   null: one benchmark a run; trial_identities).
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
    score_scale::varchar as score_scale,
    sub_benchmark_field::varchar as sub_benchmark_field
from (
    values
        ('swe-bench-results', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('mini-swe-agent-preds', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('openhands-index', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('swe-bench-pro', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('terminal-bench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('harbor', 'start_order', 'trial_name', 'as_recorded', false, null, 'errored_trials', '0-1', null),
        ('harbor-job', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('harbor-config', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('harbor-trajectory', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('agentbench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('agentbench-overall', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('openhands-output', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('openhands-run-metadata', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('openhands-eval-log', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('task-summary', 'as_recorded', null, 'as_recorded', true, null, 'named_only', null, null),
        ('agentcompass', 'as_recorded', null, 'as_recorded', false, 'agentcompass', 'named_only', '0-1', null),
        ('tau-bench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', '0-1', null),
        ('tau2-bench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', '0-1', null),
        ('tau2-results', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('inspect', 'as_recorded', null, 'as_recorded', false, null, 'named_only', '0-1', 'inspect_task'),
        ('mini-swe-agent-trajectory', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('mini-swe-agent-exit-statuses', 'as_recorded', null, 'start_order', false, null, 'named_only', null, null),
        ('swe-agent', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('openhands-scores', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('openhands-metadata', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('swe-bench-preds', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('swe-bench-legacy', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('swe-bench-instance', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('lm-eval', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('lm-eval-results', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('hal-upload', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('skillsbench', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null),
        ('canonical', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null)
) as t (format, trial_numbering, trial_tiebreak, attempt_numbering, is_summary_record, own_views, rerun_recognition, score_scale, sub_benchmark_field);
