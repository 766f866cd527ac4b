/**
 * The row type of every named SELECT of queries/select/ (sqlc style: the SQL
 * file is the contract, this is its declared result). Each column as a tag;
 * TypeScript types the rows of Session.select from these, and
 * test/select-rows.test.ts checks each against DuckDB's DESCRIBE of the
 * query: same columns, same order, a DuckDB type of the tag's kind.
 *
 * Tags: `text`, `int` (any integer; a number in JavaScript, values.ts),
 * `num` (DOUBLE or DECIMAL), `bool`, `time` (TIMESTAMPTZ, an ISO 8601 UTC
 * string), `int[]`, `num[]`, `list` (a list of structs); `?` = may be NULL.
 */
import type { Cell } from "./values.js";

export type Tag = "text" | "int" | "num" | "bool" | "time" | "int[]" | "num[]" | "list";
export type ColumnTag = Tag | `${Tag}?`;

type Base<T extends Tag> = T extends "text" | "time"
  ? string
  : T extends "int" | "num"
    ? number
    : T extends "bool"
      ? boolean
      : T extends "int[]" | "num[]"
        ? number[]
        : Cell[];
type TsOf<T extends ColumnTag> = T extends `${infer B extends Tag}?` ? Base<B> | null : T extends Tag ? Base<T> : never;

export const SELECT_ROWS = {
  "audit/audit_figures": {
    scope_by: "text?", scope_value: "text?", simplicity: "int", basis: "text", numerator: "text", invalid_scope: "text", environment_scope: "text", timeout_scope: "text",
    unrecognized_scope: "text", aggregation: "text", exclusions: "int", any_scopes: "int", is_strict: "bool", successes: "int",
    count: "int", rate: "num?", runs: "int", run_figures: "list", left_out: "int", left_out_never_succeeded: "int",
    left_out_never_succeeded_retried: "int", late_passes_counted: "int", is_representative: "bool", equivalent_definitions: "int",
  },
  "audit/benchmarks": { category: "text?" },
  "meta/accounting": {
    lines: "int", records: "int", blank: "int", rejected: "int", non_finite: "int", unaccounted: "int", broken_sources: "int",
    duplicates: "int", duplicates_identical: "int", duplicates_differing: "int", unrecognized: "int", naive_timestamps: "int", secrets_masked: "int",
    duplicates_across_sources: "int", duplicate_keys: "int",
  },
  "meta/denominators": { denominator: "text", keeps: "text", removes: "text" },
  "meta/exclusions": { basis: "text", denominator: "text", fault: "text", reason: "text", trials: "int" },
  "meta/retry_policy": { max_attempts: "int?", trials_retried: "int", retried_statuses: "list?" },
  "meta/run_summary": { tasks: "int", trials: "int", attempts: "int", runs: "int", window_start: "time?", window_end: "time?", concurrency: "int?" },
  "meta/run_logs": {
    run_id: "text?", invocation: "text?", task: "text?", model: "text?", status: "text?", error_message: "text?",
    total_samples: "int?", completed_samples: "int?", incomplete: "bool?", owed_trials: "int?", trials: "int",
    missing_trials: "int?", dict_score_trials: "int?", score_keys: "text?", source: "text?",
  },
  "meta/secrets_masked": { kind: "text", secrets: "int", lines: "int" },
  "meta/skipped_files": { name: "text", reason: "text", top_keys: "text?" },
  "meta/sources": {
    name: "text", sha256: "text", bytes: "int", format: "text", lines: "int", records: "int", blank: "int", rejected: "int",
    attempts: "int", physical_lines: "int", problem: "text?", adapter: "text?",
  },
  "meta/timeout_limits": { timeout_limit_s: "num?", attempts: "int" },
  "report/agentcompass_verdict": {
    run_id: "text?", evaluation_failed: "bool", value: "num?", reference_value: "num?", tasks: "int", tasks_invalidated: "int",
    trials: "int", evaluated: "int", unavailable: "int", invalidated: "int", errors: "int", passes: "int",
  },
  "report/call_outcomes": { scope_id: "int", type: "text", status: "text", calls: "int", share: "num?" },
  "report/confidence_settings": { level: "num", z: "num", resamples: "int", seed: "int" },
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
    run_id: "text?", trial_slots: "int", tasks_present: "int", tasks_expected: "int?", tasks_missing: "int", tasks_unexpected: "int?",
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
    status: "text", status_detail: "text?", attempts: "int?", trial_wall_s: "num?",
  },
  "report/unexpected_tasks": { run_id: "text?", task_id: "text", trials: "int", listed_of: "int" },
  "report/unrecognized_statuses": { raw_status: "text", attempts: "int" },
  "report/waffle_trials": { trials: "int" },
} as const satisfies Record<string, Record<string, ColumnTag>>;

/** The name of a named SELECT, e.g. `report/status_counts`. */
export type SelectName = keyof typeof SELECT_ROWS;

/** The row of a named SELECT. */
export type RowOf<N extends SelectName> = { -readonly [K in keyof (typeof SELECT_ROWS)[N]]: TsOf<(typeof SELECT_ROWS)[N][K] & ColumnTag> };
