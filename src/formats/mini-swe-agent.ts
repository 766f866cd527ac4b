/**
 * mini-swe-agent's SWE-bench batch outputs (`mini-extra swebench`, one output
 * folder per run):
 * - `exit_statuses_<epoch>.yaml`: one file per pass over the instances (the
 *   epoch is when the pass started), `instances_by_exit_status: {<status>:
 *   [instance ids]}`. A run resumed into the same folder writes one file per
 *   pass, so an instance listed in two passes was run twice: both are attempts
 *   of its one trial, numbered in pass order (FormatTraits.attemptNumbering).
 *   A pass that ended `Submitted` or `LimitsExceeded` handed in a patch, which
 *   the evaluation report grades (swe-bench-results, the sb-cli report under
 *   `sb-cli-reports/`): it is that verdict's attempt, so it yields none of its
 *   own. Any other exit is the name of the exception that stopped the agent
 *   (`RetryError`: the model API's retries ran out) with nothing handed in: an
 *   aborted attempt (fault environment), earlier than the verdict.
 * - `preds.json`: `{<instance_id>: {instance_id, model_name_or_path,
 *   model_patch}}`: the patches handed in; each entry says the run's model (run
 *   metadata), no outcome.
 * - `<instance_id>/<instance_id>.traj.json`: the last pass's trajectory
 *   (`info.exit_status`, `info.model_stats`, `messages`): no outcome, a record
 *   holding no attempt.
 */
import { createRequire } from "node:module";
import { folderOf, objectOf, textOf } from "./shared.js";
import type { RecordShape } from "./shape.js";
import type { DocumentAdapter, FieldRead, FormatAdapter } from "./types.js";

/**
 * The YAML parser, loaded on the first exit-status file: every command loads the adapters,
 * and loading the parser took about 40 ms of each process's main thread at start (docs/benchmarks.md).
 */
let yaml: typeof import("yaml") | null = null;
const parseYaml = (text: string): unknown => (yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);

/** Exit statuses whose pass handed in a patch: the evaluation report grades it. */
export const HANDED_IN = new Set(["Submitted", "LimitsExceeded"]);

/** An exit-status file by its name (an archive member's too): the pass's start, epoch seconds, in the name. */
const EXIT_STATUS_FILE = /(^|[/\\!])exit_statuses_(\d+(?:\.\d+)?)\.yaml$/i;
const WALKED_EXIT_STATUS = /(^|[/\\])exit_statuses_\d+(?:\.\d+)?\.yaml$/i;

/** The record an exit-status file becomes: its parsed lists and the pass's start, or why it could not be read. */
function exitStatusRecord(text: string, source: string): Record<string, unknown> {
  const started = Number(EXIT_STATUS_FILE.exec(source)?.[2] ?? NaN);
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (e) {
    return { mini_swe_agent_pass: { error: `not YAML: ${(e as Error).message.split("\n")[0]}`, started_at: started } };
  }
  return { mini_swe_agent_pass: { instances_by_exit_status: objectOf(parsed)?.instances_by_exit_status ?? null, started_at: started } };
}

const PASS_READS: readonly FieldRead[] = [
  { source: "instances_by_exit_status.<status>[]", canonical: "task_id", note: "each instance listed: one pass of it (trial 0)" },
  {
    source: "Submitted, LimitsExceeded",
    canonical: "-",
    note: "a patch handed in: graded by the evaluation report (its verdict is this pass's attempt), so no attempt here",
  },
  {
    source: "any other status (RetryError, ...)",
    canonical: "status aborted, status_detail the status",
    note: "the exception that stopped the agent, nothing handed in: fault environment; an earlier attempt than the verdict of a later pass",
  },
  {
    source: "(file name) exit_statuses_<epoch>.yaml",
    canonical: "started_at",
    note: "the pass's start, epoch seconds: the passes' order numbers the attempts",
  },
  { source: "(folder)", canonical: "run_id", note: "the run's output folder (the sb-cli report under its `sb-cli-reports/` belongs to the same run)" },
];

export const miniSweAgentPassFormat: FormatAdapter = {
  name: "mini-swe-agent-exit-statuses",
  describes: "mini-swe-agent exit_statuses_<epoch>.yaml: the instances of one pass by exit status (passes of a resumed run are attempts)",
  success: "never here: a pass that handed in a patch is graded by the evaluation report (sb-cli, swe-bench-results)",
  reads: PASS_READS,
  notes: [
    "mini-swe-agent-exit-statuses: a pass that ended with an exception (RetryError, ...) is an attempt before the evaluation's verdict; an instance whose exception was never re-run is graded by the report on its empty patch, so it shows an aborted attempt before a failed one",
  ],
  textRecords: { walked: WALKED_EXIT_STATUS, named: EXIT_STATUS_FILE, record: exitStatusRecord },
  traits: { attemptNumbering: "start_order" },
  shapes: [{ kind: "one pass (exit_statuses_<epoch>.yaml, as read)", required: { mini_swe_agent_pass: "object" } }],
  adapt(record, context) {
    const pass = objectOf(record.mini_swe_agent_pass)!;
    if (typeof pass.error === "string") return { error: pass.error };
    const lists = objectOf(pass.instances_by_exit_status);
    if (lists === null) return { error: "instances_by_exit_status: missing, or not a mapping of exit status to instance ids" };
    const started = typeof pass.started_at === "number" && Number.isFinite(pass.started_at) ? pass.started_at : null;
    const attempts: Record<string, unknown>[] = [];
    for (const [status, ids] of Object.entries(lists)) {
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string" && id.trim() !== ""))
        return { error: `instances_by_exit_status.${status}: expected a list of instance ids, got ${JSON.stringify(ids)}` };
      if (HANDED_IN.has(status)) continue;
      for (const id of ids)
        attempts.push({ run_id: folderOf(context.source), task_id: id, trial: 0, attempt: 1, status: "aborted", status_detail: status, started_at: started });
    }
    return { attempts };
  },
};

/** The value of one preds.json entry: `{instance_id (its key), model_name_or_path, model_patch}`. */
const PREDICTION: RecordShape = { kind: "a prediction", required: { instance_id: "string", model_patch: ["string", "null"] } };

/** One preds.json entry: `{instance_id (its key), model_name_or_path, model_patch}`. */
function isPrediction(key: string, v: unknown): boolean {
  const o = objectOf(v);
  return o !== null && o.instance_id === key && "model_patch" in o && (typeof o.model_patch === "string" || o.model_patch === null);
}

export const miniSweAgentPredsFormat: DocumentAdapter = {
  kind: "document",
  name: "mini-swe-agent-preds",
  describes: "mini-swe-agent preds.json: {instance_id: {instance_id, model_name_or_path, model_patch}}, the patches handed in (the run's model)",
  reads: [
    { source: "<key>.model_name_or_path", canonical: "model (run metadata)", note: "the run's model, for every attempt of the run naming none" },
    { source: "<key>.model_patch", canonical: "-", note: "the patch handed in: no outcome (the evaluation report grades it)" },
    { source: "(folder)", canonical: "run_id", note: "the run's output folder" },
  ],
  shape: {
    kind: "the patches handed in",
    entries: { value: { shape: PREDICTION }, keyIs: "instance_id", shown: "<instance_id>: {instance_id, model_name_or_path, model_patch}" },
    path: { pattern: /(^|[/\\!])preds\.json$/i, shown: "preds.json" },
  },
  unitsOf: () => "entry",
  adaptEntry(entry, context) {
    if (!isPrediction(entry.key, entry.value))
      return {
        error: `${entry.key}: expected {instance_id: "${entry.key}", model_name_or_path, model_patch}, got ${JSON.stringify(entry.value).slice(0, 200)}`,
      };
    const model = textOf(objectOf(entry.value)!.model_name_or_path);
    return { metadata: { run_id: folderOf(context.source), agent: null, model, concurrency: null } };
  },
};

export const miniSweAgentTrajectoryFormat: FormatAdapter = {
  name: "mini-swe-agent-trajectory",
  describes: "mini-swe-agent <instance_id>.traj.json: the last pass's trajectory (trajectory_format mini-swe-agent-1); holds no attempt",
  reads: [
    {
      source: "info.exit_status, info.model_stats, messages",
      canonical: "-",
      note: "the last pass of the instance, its outcome the evaluation report's: no attempt (cost and calls are not joined to it)",
    },
  ],
  skipKeys: { names: /\.traj\.json$/i, keys: ["messages"] },
  shapes: [{ kind: "a trajectory", required: { trajectory_format: { prefix: "mini-swe-agent" }, "info.exit_status": "string" } }],
  adapt: () => ({ attempts: [] }),
};
