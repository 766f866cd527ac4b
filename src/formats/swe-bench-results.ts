/**
 * SWE-bench-style evaluation report `results.json` (the SWE-bench harness's run
 * report, and Multi-SWE-bench's `results/results.json`): counts plus id lists
 * per outcome (the harness's `make_run_report`). Every id in
 * an outcome list becomes one trial (trial 0, attempt 1) of the run named after
 * the submission folder; the count fields and the bookkeeping lists
 * (`completed_ids`, `submitted_ids`, `unstopped_containers`, `unremoved_images`)
 * are not records. The outcome lists are disjoint in the harness's report; an id
 * listed twice is a duplicate attempt (docs/metrics.md), counted and reported.
 */
import { folderOf } from "./shared.js";
import type { DocumentAdapter, DocumentEntry, FieldRead } from "./types.js";

/** One outcome list: the canonical fields each id in it gets. */
interface Outcome {
  status: string;
  /** kept as `status_detail` (the list's own name), null when the status says it all */
  detail: string | null;
  note: string;
}

/** The outcome lists, by key as the report writes it; the status each id gets. */
export const OUTCOME_LISTS: Readonly<Record<string, Outcome>> = {
  resolved: { status: "success", detail: null, note: "the tests passed (Multi-SWE-bench's name)" },
  resolved_ids: { status: "success", detail: null, note: "the tests passed (SWE-bench harness's name)" },
  unresolved_ids: { status: "failure", detail: null, note: "the patch was evaluated and the tests failed" },
  empty_patch_ids: {
    status: "failure",
    detail: "empty_patch_ids",
    note: "the agent submitted no patch: a failure of the agent, not a broken task (denom counts it against the agent)",
  },
  error_ids: {
    status: "aborted",
    detail: "error_ids",
    note: "the evaluation harness errored on the instance: the result says nothing about the agent (fault environment)",
  },
  incomplete_ids: {
    status: "aborted",
    detail: "incomplete_ids",
    note: "never evaluated (e.g. gpt-4o-mini's partial report: 90 of 91): in `total`, left out of `attributable` as environment, like a missing task",
  },
};

/** Keys only a SWE-bench run report has; one of them among the first entries claims the document. */
const REPORT_KEYS = new Set([
  "total_instances",
  "submitted_instances",
  "completed_instances",
  "resolved_instances",
  "unresolved_instances",
  "empty_patch_instances",
  "error_instances",
  "completed_ids",
  "incomplete_ids",
  "empty_patch_ids",
  "submitted_ids",
  "resolved_ids",
  "unresolved_ids",
  "error_ids",
  "schema_version",
]);

const READS: readonly FieldRead[] = [
  ...Object.entries(OUTCOME_LISTS).map(([key, o]) => ({
    source: `${key}[]`,
    canonical: `task_id; status ${o.status}${o.detail ? `, status_detail ${o.detail}` : ""}`,
    note: o.note,
  })),
  { source: "(folder)", canonical: "run_id", note: "the submission folder: `<submission>/results/results.json` or `<submission>/results.json`" },
  { source: "(none)", canonical: "trial 0, attempt 1", note: "one evaluation per submission" },
  {
    source: "*_instances, completed_ids, submitted_ids, unstopped_containers, unremoved_images",
    canonical: "-",
    note: "counts and bookkeeping lists, not read (an id of submitted_ids is also in an outcome list)",
  },
];

export const sweBenchResultsFormat: DocumentAdapter = {
  kind: "document",
  name: "swe-bench-results",
  describes:
    "SWE-bench / Multi-SWE-bench evaluation report results.json: id lists per outcome (resolved, unresolved_ids, empty_patch_ids, error_ids, incomplete_ids)",
  success: "the instance id listed in `resolved` or `resolved_ids`",
  reads: READS,
  // the report's `schema_version` is a number (2); a text one is another tool's (Harbor's ATIF trajectories: "ATIF-v1.5")
  shape: { kind: "a run's report", someKey: Object.fromEntries([...REPORT_KEYS].map((k) => [k, k === "schema_version" ? "number" : "any"])) },
  unitsOf: (key) => (key in OUTCOME_LISTS ? "elements" : "skip"),
  adaptEntry(entry: DocumentEntry, context) {
    const outcome = OUTCOME_LISTS[entry.key];
    if (entry.index === null) return { error: `${entry.key}: expected a list of instance ids, got ${JSON.stringify(entry.value)}` };
    if (typeof entry.value !== "string" || entry.value.trim() === "")
      return { error: `${entry.key}[${entry.index}]: expected an instance id (a non-empty string), got ${JSON.stringify(entry.value)}` };
    return {
      attempts: [
        {
          run_id: runOf(context.source),
          task_id: entry.value,
          trial: 0,
          attempt: 1,
          status: outcome.status,
          status_detail: outcome.detail,
        },
      ],
    };
  },
};

/**
 * `<submission>/results/results.json` -> `<submission>`; `<submission>/results.json` -> `<submission>`;
 * sb-cli's report in a mini-swe-agent run folder, `<run>/sb-cli-reports/<report>.json` -> `<run>`
 * (the run whose exit-status passes are the attempts this report grades).
 */
function runOf(source: string): string | null {
  const own = folderOf(source);
  return own === "results" || own === "sb-cli-reports" ? folderOf(source, 2) : own;
}
