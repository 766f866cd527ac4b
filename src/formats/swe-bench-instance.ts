/**
 * SWE-bench's per-instance evaluation report, `logs/<instance_id>/report.json`
 * (swebench.harness, one file per evaluated instance): the instance's verdict
 * `{patch_is_None, patch_exists, patch_successfully_applied, resolved,
 * tests_status}` with boolean flags at the top level (the instance id only in
 * the folder name), or, as newer harness versions write it, the same object
 * under the instance id: `{<instance_id>: {patch_is_None, ...}}`. The whole
 * object is one record; each report one attempt (trial 0, attempt 1) of the run
 * named after the folder above `logs/` (else the folder that holds the
 * instance folders). `resolved` decides success.
 */
import { CANONICAL_NAMES } from "./canonical-format.js";
import { ANY_KEY, type RecordShape } from "./shape.js";
import { folderOf, objectOf } from "./shared.js";
import type { FieldRead, FormatAdapter } from "./types.js";

/** The boolean flags of one instance's report. */
const FLAGS = ["patch_is_None", "patch_exists", "patch_successfully_applied", "resolved"] as const;

/** One instance's verdict: the four flags, each a boolean (`tests_status`, when present, an object). */
const VERDICT: RecordShape = {
  kind: "an instance's verdict",
  required: Object.fromEntries(FLAGS.map((k) => [k, "boolean"])),
  optional: { tests_status: "object" },
};

/**
 * Keys that are no instance id, for document shapes keyed by instance ids
 * (`{id: bool}`, `{id: {resolved, ...}}`): a canonical field name (`{"resolved":
 * true, ...}` is a record) or a field of this report (its flags at the top level).
 */
export const NOT_INSTANCE_IDS: readonly string[] = [...CANONICAL_NAMES, ...FLAGS, "tests_status"];

/** The declared shape of one instance's verdict: the four flags, each a boolean (`tests_status`, when present, an object). */
export function isInstanceVerdict(v: unknown): boolean {
  const o = objectOf(v);
  return o !== null && FLAGS.every((k) => typeof o[k] === "boolean") && (o.tests_status === undefined || objectOf(o.tests_status) !== null);
}

/** The status and detail of one verdict: `resolved` decides; a failure says why when a flag does. */
function outcomeOf(v: Record<string, unknown>): { status: string; status_detail: string | null } {
  if (v.resolved === true) return { status: "success", status_detail: null };
  if (v.patch_is_None === true || v.patch_exists === false) return { status: "failure", status_detail: "no_patch" };
  if (v.patch_successfully_applied === false) return { status: "failure", status_detail: "patch_not_applied" };
  return { status: "failure", status_detail: null };
}

const READS: readonly FieldRead[] = [
  { source: "resolved", canonical: "status success / failure", note: "true = resolved; decides success" },
  {
    source: "patch_is_None, patch_exists false",
    canonical: "status_detail no_patch",
    note: "an unresolved instance whose agent submitted no patch (a failure of the agent)",
  },
  {
    source: "patch_successfully_applied false",
    canonical: "status_detail patch_not_applied",
    note: "an unresolved instance whose patch did not apply (a failure of the agent)",
  },
  { source: "<instance_id> (the one key of the newer form)", canonical: "task_id", note: "`{<instance_id>: {patch_is_None, ...}}`" },
  {
    source: "(folder) logs/<instance_id>/report.json",
    canonical: "task_id, run_id",
    note: "the top-level form: the instance id is the folder's name; the run is the folder above `logs/`",
  },
  { source: "tests_status", canonical: "-", note: "kept as written (FAIL_TO_PASS / PASS_TO_PASS successes and failures), not read" },
  { source: "(none)", canonical: "trial 0, attempt 1", note: "one evaluation per instance" },
];

export const sweBenchInstanceFormat: FormatAdapter = {
  name: "swe-bench-instance",
  describes:
    "SWE-bench per-instance evaluation report logs/<instance_id>/report.json: {patch_is_None, patch_exists, patch_successfully_applied, resolved, tests_status}, at the top level or under the instance id",
  success: "`resolved` true",
  reads: READS,
  // only the flags' names and types decide, so the same object under any other file name is claimed too
  shapes: [
    { ...VERDICT, kind: "a report, its flags at the top level (logs/<instance_id>/report.json)" },
    { kind: "a report under its instance id", required: { [ANY_KEY]: { shape: VERDICT } } },
  ],
  adapt(record, context) {
    const keys = Object.keys(record);
    const nested = !isInstanceVerdict(record);
    const task = nested ? keys[0] : folderOf(context.source);
    if (task === null || task.trim() === "")
      return { error: "no instance id: the report lies in no instance folder (logs/<instance_id>/report.json) and is not keyed by one" };
    const verdict = (nested ? record[keys[0]] : record) as Record<string, unknown>;
    // `<run>/logs/<id>/report.json`: the run is the folder above `logs/`; without `logs/`, the folder above the instance's
    let level = 1;
    if (folderOf(context.source, level) === task) level++;
    if (folderOf(context.source, level) === "logs") level++;
    const run = folderOf(context.source, level);
    return {
      attempts: [
        {
          run_id: run,
          task_id: task,
          trial: 0,
          attempt: 1,
          ...outcomeOf(verdict),
          patch_successfully_applied: verdict.patch_successfully_applied,
          tests_status: verdict.tests_status ?? null,
        },
      ],
    };
  },
};
