/**
 * SWE-Bench Pro `eval_results.json` (scaleapi/SWE-bench_Pro-os `traj/<run>/`):
 * one object `{instance_id: true|false}`, true = resolved
 * (test/fixtures/swe-bench-pro/). Each entry is one trial of the
 * run named after the file's folder. Instances the run did not attempt are
 * simply absent: `--expect-count 731` (or `--expect FILE`) puts them in `total`.
 */
import { folderOf } from "./shared.js";
import { NOT_INSTANCE_IDS } from "./swe-bench-instance.js";
import type { DocumentAdapter, FieldRead } from "./types.js";

const READS: readonly FieldRead[] = [
  { source: "<key>", canonical: "task_id", note: "verbatim, `instance_` prefix and version suffix included" },
  {
    source: "<value> true / false",
    canonical: "status success / failure",
    note: "false covers a wrong patch, an empty patch, an agent error and a turn or cost limit alike: they cannot be told apart",
  },
  { source: "(folder)", canonical: "run_id", note: "`<model>-paper` ($2 cost limit) or `<model>-<MMDDYYYY>` (250 turns)" },
  { source: "(absent id)", canonical: "-", note: "not attempted or not evaluated: give the benchmark size (`--expect-count 731`) to count it as missing" },
];

export const sweBenchProFormat: DocumentAdapter = {
  kind: "document",
  name: "swe-bench-pro",
  describes: "SWE-Bench Pro eval_results.json: one object {instance_id: true|false}",
  success: "`<instance_id>: true`",
  reads: READS,
  // every first entry a boolean, under a key that is no canonical field (`{"resolved": true, ...}` is a record),
  // and not a per-instance SWE-bench report (`{patch_is_None: false, patch_exists: true, ...}`)
  shape: { kind: "one run's verdicts", entries: { value: "boolean", keyNot: NOT_INSTANCE_IDS, shown: "<instance_id>: true|false" } },
  unitsOf: () => "entry",
  adaptEntry(entry, context) {
    if (typeof entry.value !== "boolean") return { error: `${entry.key}: expected true or false (resolved), got ${JSON.stringify(entry.value)}` };
    return {
      attempts: [{ run_id: folderOf(context.source), task_id: entry.key, trial: 0, attempt: 1, status: entry.value ? "success" : "failure" }],
    };
  },
};
