/**
 * Terminal-Bench 1 (`tb run`) `results.json`: an object whose `results[]` holds
 * one trial each (`tb run`'s `terminal_bench/harness/models.py`), and the
 * companion `run_metadata.json`.
 *
 * Status: resolved with failure_mode unset/none -> success;
 * `agent_timeout` -> timeout, a late pass when `is_resolved` is true (kept as
 * `resolved`, never a success); `unknown_agent_error`, `agent_installation_failed`
 * -> aborted (environment); any other failure_mode -> failure, the original
 * value kept as `status_detail`. Trial k from `trial_name` `<task>.<k>-of-<n>[.<run>]`;
 * the run is the name's suffix, or else the file (its folder's name for `results.json`).
 * Agent: the leaderboard repository files every submission under a
 * folder `<yyyymmdd>_<agent>_<model>` (`20250825_swe-agent-mini_claude-4-sonnet`),
 * holding either its `results.json` or one folder per run named by tb's run id
 * (`2025-08-07__20-46-16/results.json`); the agent is read from that name, so
 * that a folder of submissions splits by agent, not one pool. The model stays
 * the run_metadata.json's (a name in a folder is no model id).
 */
import { basename } from "node:path";
import { readField, type FieldSpec } from "./canonical-record.js";
import { folderOf } from "./shared.js";
import type { Adapted, FormatAdapter } from "./types.js";

/** failure_mode values that decide the status by themselves. */
export const FAILURE_MODE_STATUS: Readonly<Record<string, string>> = {
  agent_timeout: "timeout",
  unknown_agent_error: "aborted",
  agent_installation_failed: "aborted",
};

/** failure_mode values that mean "no failure recorded". */
const NO_FAILURE = new Set(["unset", "none", ""]);

/** The phase boundaries of a trial, in order, each as a `phase` event named after its start or end. */
const PHASE_FIELDS = ["agent_started_at", "agent_ended_at", "test_started_at", "test_ended_at"] as const;

/**
 * The trial's typed fields under their results.json names, checked by the
 * canonical checks (canonical-record.ts) so a reject names the field as the file
 * writes it: `is_resolved: "yes"` is not a failure, `total_input_tokens: "many"`
 * is not a count.
 */
const TRIAL_FIELDS: readonly FieldSpec[] = [
  { field: "is_resolved", kind: "boolean", doc: "the tests passed" },
  { field: "failure_mode", kind: "status", doc: "why the trial failed (`unset` when it did not); a string" },
  { field: "total_input_tokens", kind: "bigint", min: 0, doc: "prompt tokens; 0 = not reported" },
  { field: "total_output_tokens", kind: "bigint", min: 0, doc: "completion tokens; 0 = not reported" },
  { field: "trial_started_at", kind: "timestamp", doc: "start" },
  { field: "trial_ended_at", kind: "timestamp", doc: "end" },
  ...PHASE_FIELDS.map((field): FieldSpec => ({ field, kind: "timestamp", doc: "phase boundary" })),
];

/** results.json fields that map onto canonical ones; every other field is kept in `extra`. */
const CONSUMED = new Set(["task_id", "trial_name", ...TRIAL_FIELDS.map((f) => f.field)]);

const TRIAL_NAME = /^(.*)\.(\d+)-of-(\d+)(?:\.(.+))?$/;

export const terminalBenchFormat: FormatAdapter = {
  name: "terminal-bench",
  describes: "Terminal-Bench 1 results.json (tb harness): results[] of trials; run_metadata.json",
  success: "`is_resolved` true with `failure_mode` unset or none (resolved after `agent_timeout` is a late pass: a timeout)",
  // the phase events phaseEvents() writes, named after PHASE_FIELDS without `_at`
  traits: { agentPhase: { start: "agent_started", end: "agent_ended" } },
  containerKeys: ["results"],
  shapes: [
    { kind: "a trial (results[] of results.json)", required: { trial_name: "string", task_id: "any", is_resolved: "any" } },
    { kind: "a trial (results[] of results.json) without is_resolved", required: { trial_name: "string", task_id: "any", failure_mode: "any" } },
    { kind: "the run's metadata (run_metadata.json)", required: { run_id: "string", dataset_name: "any", agent_name: "any" }, absent: ["task_id"] },
    { kind: "a results file", required: { results: "array", n_resolved: "any" } },
    { kind: "a results file", required: { results: "array", accuracy: "any" } },
  ],
  adapt(record, context) {
    if (isRunMetadata(record)) {
      return {
        metadata: {
          run_id: str(record.run_id),
          agent: str(record.agent_name),
          model: str(record.model_name),
          concurrency: typeof record.n_concurrent_trials === "number" ? record.n_concurrent_trials : null,
        },
      };
    }
    if (isResultsFile(record)) {
      // A JSON document streams the trials of its `results` one by one (reader.ts); a whole
      // results file reaches an adapter only as one line of a file named .jsonl/.ndjson, or
      // as an element of an array. Read as one record, one bad trial would reject them all.
      return {
        error:
          "a whole Terminal-Bench results file as one record: its trials are read one by one from a JSON document whose top level holds `results` (name the file .json, or pipe it to -)",
      };
    }
    return trialToAttempt(record, context.source);
  },
};

function trialToAttempt(r: Record<string, unknown>, source: string): Adapted {
  const typed: Record<string, unknown> = {};
  for (const spec of TRIAL_FIELDS) {
    const v = readField(spec, r[spec.field]);
    if ("error" in v) return { error: v.error };
    typed[spec.field] = v.value;
  }
  const name = typeof r.trial_name === "string" ? TRIAL_NAME.exec(r.trial_name) : null;
  const mode = typeof typed.failure_mode === "string" ? typed.failure_mode.trim().toLowerCase() : "";
  const resolved = typed.is_resolved as boolean | null;
  let status: string;
  if (FAILURE_MODE_STATUS[mode]) status = FAILURE_MODE_STATUS[mode];
  else if (NO_FAILURE.has(mode)) status = resolved === true ? "success" : "failure";
  else status = "failure";
  const tokens = ((typed.total_input_tokens as number | null) ?? 0) + ((typed.total_output_tokens as number | null) ?? 0);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (!CONSUMED.has(k)) extra[k === "id" ? "trial_uuid" : k] = v;
  return {
    attempts: [
      {
        ...extra,
        run_id: name?.[4] ?? runName(source),
        ...submissionOf(source),
        task_id: r.task_id,
        trial: name ? Number(name[2]) : 0,
        attempt: 1,
        status,
        status_detail: NO_FAILURE.has(mode) ? null : mode,
        resolved,
        // as written: the canonical record reads them again (and counts the naive ones)
        started_at: r.trial_started_at ?? null,
        ended_at: r.trial_ended_at ?? null,
        // 0 tokens means "not reported" in tb (installed agents report none)
        llm_tokens: tokens > 0 ? tokens : null,
        events: phaseEvents(r),
      },
    ],
  };
}

/** The harness's phase boundaries, as events (the agent phase that never started is evidence too). */
function phaseEvents(r: Record<string, unknown>): Record<string, unknown>[] {
  return PHASE_FIELDS.filter((f) => r[f] !== null && r[f] !== undefined).map((f) => ({
    ts: r[f],
    type: "phase",
    name: f.replace(/_at$/, ""),
  }));
}

/** A run named after its file: `.../20250902_orchestrator_claude-4-sonnet/results.json` -> the folder's name. */
export function runName(source: string): string {
  return basename(source.replace(/[/!]results\.json$/i, ""));
}

/** tb's own run ids: the time the run started, `2025-08-07__20-46-16`. */
const TB_RUN_ID = /^\d{4}-\d{2}-\d{2}__\d{2}-\d{2}-\d{2}$/;
/** A leaderboard submission folder: `<yyyymmdd>_<agent>_<model>`. */
const SUBMISSION = /^\d{8}_(.+)_([^_]+)$/;

const submissions = new Map<string, { agent?: string }>();

/**
 * The agent a source's submission folder names (see the module comment), or
 * nothing when its folders follow no such convention.
 */
export function submissionOf(source: string): { agent?: string } {
  let known = submissions.get(source);
  if (known === undefined) {
    const own = folderOf(source);
    const folder = own !== null && TB_RUN_ID.test(own) ? folderOf(source, 2) : own;
    const m = folder === null ? null : SUBMISSION.exec(folder);
    known = m ? { agent: m[1] } : {};
    if (submissions.size > 1000) submissions.clear();
    submissions.set(source, known);
  }
  return known;
}

function isRunMetadata(r: Record<string, unknown>): boolean {
  return typeof r.run_id === "string" && "dataset_name" in r && "agent_name" in r && r.task_id === undefined;
}

function isResultsFile(r: Record<string, unknown>): boolean {
  return Array.isArray(r.results) && ("n_resolved" in r || "accuracy" in r);
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
