/**
 * SWE-agent trajectories (`trajs/<instance_id>.traj`: `{environment, trajectory,
 * history, info{exit_status, submission, model_stats}}`;
 * SWE-agent's `sweagent/types.py`). One file is one attempt
 * of one instance: its `trajectory` and `history` (the bulk of the file) are
 * skipped as the file is streamed, never assembled (ingest/types.ts DocumentOptions).
 *
 * A trajectory says how the agent stopped, not whether its patch resolved the
 * issue: that is the evaluation's (`results.json`). So `info.exit_status` is
 * kept as `status_detail` and maps as EXIT_STATUS says; a submitted patch has
 * no verdict here and keeps the status `submitted`, which denom counts as
 * unrecognized (in `total` only, reported by value) until `--status-map` says
 * otherwise.
 */
import { dirname, basename } from "node:path";
import { numberOf, objectOf, stemOf, textOf } from "./shared.js";
import type { FormatAdapter } from "./types.js";

/**
 * exit_status -> status. `submitted (exit_cost)` and the like (the budget ran
 * out and SWE-agent submitted what it had) are `submitted` too: their patch can
 * still resolve. Without a submission: the cost budget (`exit_cost`), the
 * context window (`exit_context`) and malformed output (`exit_format`) end a run
 * the agent did not finish, failures as a step limit is; `exit_error` and
 * `early_exit` are the harness stopping the run, aborted (environment).
 */
export const EXIT_STATUS: Readonly<Record<string, string>> = {
  submitted: "submitted",
  exit_cost: "failure",
  exit_context: "failure",
  exit_format: "failure",
  exit_error: "aborted",
  early_exit: "aborted",
};

/** The detail of a trajectory without an exit status: the run was interrupted before SWE-agent wrote one. */
export const NO_EXIT_STATUS = "no_exit_status";

export const sweAgentFormat: FormatAdapter = {
  name: "swe-agent",
  describes: "SWE-agent .traj: info.exit_status and info.model_stats of one instance",
  success: "never here: a submitted patch is `submitted` (unrecognized) until the evaluation's report grades it",
  documentEndings: ["traj"],
  skipKeys: { names: /\.traj(\.gz)?$/i, keys: ["trajectory", "history"] },
  // a .traj is read with its trajectory and history skipped (skipKeys), so `environment` is what is left to tell it by;
  // a trajectory written without one still has its trajectory or history
  shapes: [
    { kind: "a trajectory (.traj)", required: { "info.model_stats": "object", environment: "any" } },
    { kind: "a trajectory (.traj) without environment", required: { "info.model_stats": "object", trajectory: "any" } },
    { kind: "a trajectory (.traj) without environment", required: { "info.model_stats": "object", history: "any" } },
  ],
  adapt(record, context) {
    const info = objectOf(record.info)!;
    const stats = objectOf(info.model_stats)!;
    const exit = textOf(info.exit_status)?.trim().toLowerCase() ?? null;
    let status: string;
    if (exit === null) status = "aborted";
    else status = EXIT_STATUS[exit] ?? EXIT_STATUS[exit.replace(/\s*\(.*\)$/, "")] ?? exit;
    const sent = numberOf(stats.tokens_sent);
    const received = numberOf(stats.tokens_received);
    return {
      attempts: [
        {
          run_id: runOf(context.source),
          task_id: record.instance_id ?? stemOf(context.source),
          trial: 0,
          attempt: 1,
          status,
          status_detail: exit ?? NO_EXIT_STATUS,
          // instance_cost is this instance's; total_cost runs over the whole batch
          cost_usd: stats.instance_cost ?? null,
          llm_tokens: sent === null && received === null ? null : (sent ?? 0) + (received ?? 0),
          api_calls: numberOf(stats.api_calls),
          has_submission: textOf(info.submission) !== null,
        },
      ],
    };
  },
};

/**
 * The run of a trajectory: the submission folder holding `trajs/`, marked as
 * the trajectories' (`<submission>/trajs`), so they never collide with the
 * same submission's evaluation report (`results.json`) loaded beside them.
 */
function runOf(source: string): string | null {
  const dir = dirname(source.slice(source.lastIndexOf("!") + 1));
  if (basename(dir) === "trajs" && basename(dirname(dir)) !== ".") return `${basename(dirname(dir))}/trajs`;
  return dir === "." ? null : basename(dir);
}
