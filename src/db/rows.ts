/**
 * The row type of every named SELECT of queries/select/ (sqlc style: the SQL
 * file is the contract, this is its declared result). Each column as a tag;
 * TypeScript types the rows of Session.select from these, and
 * test/select-rows.test.ts checks each against DuckDB's DESCRIBE of the
 * query: same columns, same order, a DuckDB type of the tag's kind.
 *
 * Tags: `text`, `int` (any integer; a number in JavaScript, values.ts),
 * `num` (DOUBLE or DECIMAL), `bool`, `time` (TIMESTAMPTZ, an ISO 8601 UTC
 * string), `text[]`, `int[]`, `num[]`, `list` (a list of structs, untyped);
 * `?` = may be NULL. A list of structs whose fields TypeScript reads is declared
 * with them: `{ list: { field: tag, ... } }` (`nullable: true` = the list may be NULL).
 */
import type { Cell } from "./values.js";

export type Tag = "text" | "int" | "num" | "bool" | "time" | "text[]" | "int[]" | "num[]" | "list";
export type ScalarTag = Tag | `${Tag}?`;
/** A list of structs with declared fields (DuckDB `STRUCT(...)[]`). */
export interface StructList {
  readonly list: Readonly<Record<string, ScalarTag>>;
  readonly nullable?: boolean;
}
export type ColumnTag = ScalarTag | StructList;

type Base<T extends Tag> = T extends "text" | "time"
  ? string
  : T extends "int" | "num"
    ? number
    : T extends "bool"
      ? boolean
      : T extends "int[]" | "num[]"
        ? number[]
        : T extends "text[]"
          ? string[]
          : Cell[];
type ScalarTs<T extends ScalarTag> = T extends `${infer B extends Tag}?` ? Base<B> | null : T extends Tag ? Base<T> : never;
type StructTs<F extends Readonly<Record<string, ScalarTag>>> = { -readonly [K in keyof F]: ScalarTs<F[K]> };
type TsOf<T extends ColumnTag> = T extends ScalarTag
  ? ScalarTs<T>
  : T extends { list: infer F extends Readonly<Record<string, ScalarTag>>; nullable: true }
    ? StructTs<F>[] | null
    : T extends { list: infer F extends Readonly<Record<string, ScalarTag>> }
      ? StructTs<F>[]
      : never;

export const SELECT_ROWS = {
  "audit/audit_figures": {
    scope_by: "text?", scope_value: "text?", simplicity: "int", basis: "text", numerator: "text", invalid_scope: "text", environment_scope: "text", timeout_scope: "text",
    unrecognized_scope: "text", aggregation: "text", exclusions: "int", any_scopes: "int", is_strict: "bool", successes: "int",
    count: "int", rate: "num?", se_over_runs: "num?", runs: "int",
    run_figures: { list: { run: "text", run_key: "text", run_id: "text?", trial: "int", successes: "int", count: "int", rate: "num?" } }, left_out: "int", left_out_never_succeeded: "int",
    left_out_never_succeeded_retried: "int", late_passes_counted: "int", is_representative: "bool", equivalent_definitions: "int",
  },
  "audit/audit_pass_at_k": {
    scope_by: "text", scope_value: "text?", k: "int", tasks: "int", skipped: "int", pass_at_k: "num?", pass_hat_k: "num?", successes: "int", trials: "int",
    shapes: { list: { n: "int", c: "int", tasks: "int" } },
  },
  "audit/benchmarks": { category: "text?" },
  "audit/standard_errors": { scope_by: "text", scope_value: "text?", simplicity: "int", tasks: "int", trials: "int", successes: "int", se_clustered_by_task: "num?" },
  "compare/attribution": {
    pairing_id: "int", side: "text", trials: "int", successes: "int", environment_failures: "int", timeouts: "int", timeouts_queue: "int",
    timeouts_external: "int", timeouts_loop: "int", timeouts_sluggish: "int", timeouts_unknown: "int", grader_errors: "int", invalid: "int",
    unrecognized: "int", trials_rescued: "int", tasks_with_several_trials: "int", tasks_disagreeing: "int", flaky_share: "num?",
  },
  "compare/cells": {
    pairing_id: "int", basis_order: "int", basis: "text", step: "int", denominator: "text", tasks: "int", baseline_successes: "int",
    baseline_count: "int", baseline_rate: "num?", candidate_successes: "int", candidate_count: "int", candidate_rate: "num?",
    difference: "num?", variance: "num?", se: "num?", ci95: "num[]?", test: "text", p_value: "num?", baseline_only: "int",
    candidate_only: "int", mde80: "num?", tasks_needed: "int?", verdict: "text",
  },
  "compare/coverage": {
    pairing_id: "int", common_tasks: "int", only_baseline: "int", only_candidate: "int", baseline_trials: "int", candidate_trials: "int",
    baseline_trials_paired: "int", candidate_trials_paired: "int",
  },
  "compare/discordant_tasks": {
    pairing_id: "int", task_id: "text", baseline_successes: "int", baseline_count: "int", baseline_share: "num", candidate_successes: "int",
    candidate_count: "int", candidate_share: "num", difference: "num", baseline_outcomes: "text", candidate_outcomes: "text",
  },
  "compare/flips": {
    pairing_id: "int", lead_basis: "text", lead_denominator: "text", lead_basis_order: "int", lead_step: "int", lead_difference: "num",
    trail_basis: "text", trail_denominator: "text", trail_basis_order: "int", trail_step: "int", trail_difference: "num", same_basis: "bool",
  },
  "compare/group_scopes": { scope_id: "int", group_value: "text?" },
  "compare/pairings": { pairing_id: "int", baseline_side: "int", candidate_side: "int" },
  "compare/removals": {
    pairing_id: "int", side: "text", basis: "text", denominator: "text", step: "int", fault: "text", status: "text", status_detail: "text?",
    timeout_cause: "text?", reason: "text", trials: "int",
  },
  "compare/settings": { z: "num", z_power: "num" },
  "compare/side_names": { side_id: "int", agents: "text[]?", models: "text[]?", tasks: "int", trials: "int" },
  "compare/unpaired_tasks": { pairing_id: "int", side: "text", task_id: "text" },
  "gate/gate_figures": { figure: "text", value: "num?", numerator: "int?", denominator: "int?", tasks: "int" },
  "meta/accounting": {
    lines: "int", records: "int", blank: "int", rejected: "int", non_finite: "int", unaccounted: "int", broken_sources: "int",
    duplicates: "int", duplicates_identical: "int", duplicates_differing: "int", unrecognized: "int", naive_timestamps: "int", secrets_masked: "int",
    duplicates_across_sources: "int", duplicate_keys: "int",
  },
  "meta/denominators": { denominator: "text", keeps: "text", removes: "text" },
  "ingest/added_sources": { name: "text", sha256: "text", lines: "int", records: "int", rejected: "int", attempts: "int", adapter: "text?" },
  "ingest/database_totals": { sources: "int", records: "int", attempts: "int" },
  "meta/id_lookalikes": { field: "text", folded: "text", variants: "text[]" },
  "meta/pooling": { dimension: "text", values: "int", split_by: "text", groups: { list: { value: "text?", trials: "int" } }, within_groups: "bool" },
  "meta/source_duplicates": { kept_source: "text", dropped_source: "text", duplicates: "int" },
  "meta/off_scale_runs": {
    run_id: "text?", agent: "text?", model: "text?", formats: "text", min_score: "num", max_score: "num", trials: "int", is_unscored: "bool", success_threshold: "num?",
  },
  "meta/exclusions": { basis: "text", denominator: "text", fault: "text", reason: "text", trials: "int" },
  "meta/attempt_ledger": {
    planned_trials: "int", recorded_trials: "int", missing_trials: "int", observed_attempts: "int", dropped_attempts: "int", first_tries_gone: "int",
    reruns: { list: { run: "text", rerun_of: "text", recognised_by: "text", attempts: "int", trials: "int", first_tries_gone: "int", owed_without_record: "int" } },
    unmatched: "text[]",
  },
  "meta/retry_policy": { max_attempts: "int?", trials_retried: "int", retried_statuses: { list: { status: "text", attempts: "int" }, nullable: true } },
  "meta/run_summary": { tasks: "int", trials: "int", attempts: "int", runs: "int", window_start: "time?", window_end: "time?", concurrency: "int?" },
  "meta/run_logs": {
    run_id: "text", invocation: "text?", task: "text?", model: "text?", status: "text?", error_message: "text?",
    total_samples: "int?", completed_samples: "int?", incomplete: "bool", owed_trials: "int", trials: "int",
    missing_trials: "int", dict_score_trials: "int", score_keys: "text?", source: "text",
  },
  "meta/secrets_masked": { kind: "text", secrets: "int", lines: "int" },
  "meta/skipped_files": { name: "text", reason: "text", top_keys: "text?" },
  "meta/sources": {
    name: "text", sha256: "text", bytes: "int", format: "text", lines: "int", records: "int", blank: "int", rejected: "int",
    attempts: "int", physical_lines: "int", problem: "text?", adapter: "text?",
  },
  "meta/timeout_limits": { timeout_limit_s: "num?", attempts: "int" },
  "query/schema": { name: "text", kind: "text", columns: { list: { name: "text", type: "text" } } },
  "report/agentcompass_verdict": {
    run_id: "text?", evaluation_failed: "bool", value: "num?", reference_value: "num?", tasks: "int", tasks_invalidated: "int",
    trials: "int", evaluated: "int", unavailable: "int", invalidated: "int", errors: "int", passes: "int",
  },
  "report/call_outcomes": { scope_id: "int", type: "text", status: "text", calls: "int", share: "num?" },
  "report/confidence_settings": { level: "num", z: "num", resamples: "int", seed: "int", clustered_from_tasks: "int" },
  "report/denominator_steps": { basis: "text", denominator: "text", removed: "int?" },
  "report/denominator_waterfall": {
    basis: "text", step: "int", denominator: "text", part: "text", fault: "text?", reason: "text?", trials: "int", y_lo: "int", y_hi: "int",
  },
  "report/diagnostics": { timeout_attempts: "int", timeouts_with_passing_score: "int", constraint_violations: "int", grader_errors: "int", missing: "int" },
  "report/duration_by_status": {
    scope_id: "int", status: "text", attempts: "int", timed_attempts: "int", duration_mean: "num?", duration_p50: "num?",
    duration_p95: "num?", duration_max: "num?",
  },
  "report/duration_histogram": { status: "text", bin: "int", bin_lo_s: "num", bin_hi_s: "num", attempts: "int" },
  "report/efficiency": {
    scope_id: "int", trials: "int", attempts: "int", timed_attempts: "int", duration_mean: "num?", duration_p50: "num?",
    duration_p95: "num?", duration_max: "num?", agent_time_s: "num?", wall_s: "num?", llm_tokens_mean: "num?",
    llm_tokens_attempts: "int", tool_calls_mean: "num?", tool_calls_attempts: "int", cost_usd_total: "num?",
    cost_missing_attempts: "int", cost_per_trial: "num?", cost_per_success: "num?", final_successes: "int",
    attempts_per_trial: "num?", trials_retried: "int", trials_rescued: "int", zero_retry_success_share: "num?",
  },
  "report/figure_intervals": {
    scope_id: "int", figure: "text", basis: "text?", denominator: "text?", k: "int?", basis_order: "int?", step: "int?",
    successes: "num?", count: "int", skipped: "int?", value: "num?", ci_method: "text", ci95: "num[]?",
  },
  "report/incomplete_tasks": { run_id: "text?", task_id: "text", trials_present: "int", trial_slots: "int", missing_slots: "int[]", listed_of: "int" },
  "report/inventory_runs": {
    run_id: "text?", agent: "text?", model: "text?", trial_slots: "int", tasks_present: "int", tasks_expected: "int?", tasks_missing: "int", tasks_unexpected: "int?",
    trials_present: "int", trials_missing: "int", slots_missing_in_present_tasks: "int",
  },
  "report/inventory_totals": { tasks_missing: "int", trials_missing: "int", tasks_missing_unnamed: "int", tasks_unexpected: "int", tasks_incomplete: "int" },
  "report/missing_tasks": { run_id: "text?", task_id: "text", trials: "int", named: "bool", listed_of: "int" },
  "report/rejects": { source: "text", line: "int", location: "text?", reason: "text" },
  "report/status_counts": { basis: "text", status: "text", trials: "int" },
  "report/status_detail_counts": { status: "text", status_detail: "text?", first_trials: "int", final_trials: "int" },
  "report/task_block_status": { block: "int", first_task: "text", last_task: "text", tasks: "int", status: "text", trials: "int" },
  "report/timeout_causes": { timeout_cause: "text", attempts: "int", share: "num?" },
  "report/timeout_rate": { timeouts: "int", trials: "int", rate: "num?" },
  "report/transitions": { first_status: "text", final_status: "text", trials: "int" },
  "report/trial_scopes": { scope_id: "int", group_value: "text?" },
  "report/trial_waffle": {
    run_id: "text?", task_id: "text", trial: "int", task_index: "int", slot_index: "int", task_band: "int", task_column: "int",
    status: "text", status_detail: "text?", attempts: "int", trial_wall_s: "num?",
  },
  "report/unexpected_tasks": { run_id: "text?", task_id: "text", trials: "int", listed_of: "int" },
  "report/unrecognized_statuses": { raw_status: "text", attempts: "int" },
  "report/waffle_trials": { trials: "int" },
  "timeouts/timeout_attempts": {
    run_id: "text?", task_id: "text", trial: "int", attempt: "int", cause: "text", started_at: "time?", ended_at: "time?", rules_fired: "text[]",
    evidence_source: "text", timeout_limit_s: "num?", agent_event_count: "int", queue_wait_s: "num?", queue_wait_share: "num?",
    queued_event_s: "num?", queued_event_share: "num?", waiting_s: "num?", waiting_share: "num?", queue_reason: "text?",
    agent_never_started: "bool", setup_s: "num?", agent_phase_s: "num?", last_event_type: "text?", last_event_name: "text?",
    last_event_status: "text?", last_event_at: "time?", is_waiting_request: "bool?", last_event_age_s: "num?",
    repeated_call_count: "int?", repeated_call_name: "text?", repeated_call_args: "text?", gap_count: "int",
    first_third_gap_mean_s: "num?", last_third_gap_mean_s: "num?", gap_ratio: "num?",
  },
} as const satisfies Record<string, Record<string, ColumnTag>>;

/** The name of a named SELECT, e.g. `report/status_counts`. */
export type SelectName = keyof typeof SELECT_ROWS;

/** The row of a named SELECT. */
export type RowOf<N extends SelectName> = { -readonly [K in keyof (typeof SELECT_ROWS)[N]]: (typeof SELECT_ROWS)[N][K] extends infer T extends ColumnTag ? TsOf<T> : never };
