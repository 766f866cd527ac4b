/**
 * Terminal-Bench 1 (`tb run`) `results.json`: an object whose `results[]` holds
 * one trial each (../shared/data/real/terminal-bench-1/MAPPING.md), and the
 * companion `run_metadata.json`.
 *
 * Status (issue 2): resolved with failure_mode unset/none -> success;
 * `agent_timeout` -> timeout, a late pass when `is_resolved` is true (kept as
 * `resolved`, never a success); `unknown_agent_error`, `agent_installation_failed`
 * -> aborted (environment); any other failure_mode -> failure, the original
 * value kept as `status_detail`. Trial k from `trial_name` `<task>.<k>-of-<n>[.<run>]`;
 * the run is the name's suffix, or else the file (its folder's name for `results.json`).
 */
import { basename } from "node:path";
import type { FormatAdapter } from "./types.js";

/** failure_mode values that decide the status by themselves. */
export const FAILURE_MODE_STATUS: Readonly<Record<string, string>> = {
  agent_timeout: "timeout",
  unknown_agent_error: "aborted",
  agent_installation_failed: "aborted",
};

/** failure_mode values that mean "no failure recorded". */
const NO_FAILURE = new Set(["unset", "none", ""]);

/** results.json fields that map onto canonical ones; every other field is kept in `extra`. */
const CONSUMED = new Set([
  "task_id", "trial_name", "is_resolved", "failure_mode", "trial_started_at", "trial_ended_at",
  "agent_started_at", "agent_ended_at", "test_started_at", "test_ended_at", "total_input_tokens", "total_output_tokens",
]);

const TRIAL_NAME = /^(.*)\.(\d+)-of-(\d+)(?:\.(.+))?$/;

export const terminalBenchFormat: FormatAdapter = {
  name: "terminal-bench",
  describes: "Terminal-Bench 1 results.json (tb harness): results[] of trials; run_metadata.json",
  containerKeys: ["results"],
  detect: (r) =>
    (typeof r.trial_name === "string" && r.task_id !== undefined && ("is_resolved" in r || "failure_mode" in r)) ||
    isRunMetadata(r) ||
    isResultsFile(r),
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
      // a whole results.json read as one JSONL line (minified): every trial of it
      const attempts: Record<string, unknown>[] = [];
      for (const trial of record.results as unknown[]) {
        if (trial === null || typeof trial !== "object") return { error: "results[]: expected objects" };
        attempts.push(trialToAttempt(trial as Record<string, unknown>, context.source));
      }
      return { attempts };
    }
    return { attempts: [trialToAttempt(record, context.source)] };
  },
};

function trialToAttempt(r: Record<string, unknown>, source: string): Record<string, unknown> {
  const name = typeof r.trial_name === "string" ? TRIAL_NAME.exec(r.trial_name) : null;
  const mode = typeof r.failure_mode === "string" ? r.failure_mode.trim().toLowerCase() : "";
  const resolved = typeof r.is_resolved === "boolean" ? r.is_resolved : null;
  let status: string;
  if (FAILURE_MODE_STATUS[mode]) status = FAILURE_MODE_STATUS[mode];
  else if (NO_FAILURE.has(mode)) status = resolved === true ? "success" : "failure";
  else status = "failure";
  const input = num(r.total_input_tokens), output = num(r.total_output_tokens);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (!CONSUMED.has(k)) extra[k === "id" ? "trial_uuid" : k] = v;
  return {
    ...extra,
    run_id: name?.[4] ?? runName(source),
    task_id: r.task_id,
    trial: name ? Number(name[2]) : 0,
    attempt: 1,
    status,
    status_detail: NO_FAILURE.has(mode) ? null : mode,
    resolved,
    started_at: r.trial_started_at ?? null,
    ended_at: r.trial_ended_at ?? null,
    // 0 tokens means "not reported" in tb (installed agents report none)
    llm_tokens: input + output > 0 ? input + output : null,
    events: phaseEvents(r),
  };
}

/** The harness's phase boundaries, as events (the agent phase that never started is evidence too). */
function phaseEvents(r: Record<string, unknown>): Record<string, unknown>[] {
  const phases: [string, unknown][] = [
    ["agent_started", r.agent_started_at],
    ["agent_ended", r.agent_ended_at],
    ["test_started", r.test_started_at],
    ["test_ended", r.test_ended_at],
  ];
  return phases.filter(([, ts]) => ts !== null && ts !== undefined).map(([type, ts]) => ({ ts, type: "phase", name: type }));
}

/** A run named after its file: `.../20250902_orchestrator_claude-4-sonnet/results.json` -> the folder's name. */
export function runName(source: string): string {
  return basename(source.replace(/[/!]results\.json$/i, ""));
}

function isRunMetadata(r: Record<string, unknown>): boolean {
  return typeof r.run_id === "string" && "dataset_name" in r && "agent_name" in r && r.task_id === undefined;
}

function isResultsFile(r: Record<string, unknown>): boolean {
  return Array.isArray(r.results) && ("n_resolved" in r || "accuracy" in r);
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
