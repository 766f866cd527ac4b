/**
 * SWE-bench's legacy evaluation report (the harness's `get_model_report`, the
 * form of SWE-bench experiments submissions until mid-2024, of SWE-bench-docker
 * and of AutoCodeRover): one JSON object of instance-id lists, one list per
 * stage an instance reached, in the harness's order: `no_generation`,
 * `generated`, `with_logs`, `install_fail`, `reset_failed`, `no_apply`,
 * `applied`, `test_errored`, `test_timeout`, `resolved`. The lists are
 * cumulative (a resolved instance is also in `generated`, `with_logs` and
 * `applied`), so the whole object is one record and each instance becomes one
 * attempt (trial 0, attempt 1) whose status comes from the deepest stage that
 * decides it (STAGE_RULES, first match wins). Written as `report.json` or
 * `results.json`; the run is the folder the file lies in, so two reports of one
 * run in one folder are one run, and where they disagree on an instance the
 * report names both files (differing duplicates from two sources).
 */
import { folderOf } from "./shared.js";
import type { RecordShape } from "./shape.js";
import type { FieldRead, FormatAdapter } from "./types.js";

/** The stage lists, as the harness writes them, in its order. */
export const LEGACY_STAGES = [
  "no_generation",
  "generated",
  "with_logs",
  "install_fail",
  "reset_failed",
  "no_apply",
  "applied",
  "test_errored",
  "test_timeout",
  "resolved",
] as const;

type Stage = (typeof LEGACY_STAGES)[number];

/** The status an instance gets from the deepest stage that decides it; the first rule whose list holds the id wins. */
export const STAGE_RULES: readonly { stage: Stage; status: string; detail: string | null; note: string }[] = [
  { stage: "resolved", status: "success", detail: null, note: "the tests passed" },
  { stage: "test_timeout", status: "timeout", detail: "test_timeout", note: "the test run hit the harness's time limit" },
  {
    stage: "test_errored",
    status: "aborted",
    detail: "test_errored",
    note: "the harness's test command errored out (not a test failure): fault environment",
  },
  { stage: "install_fail", status: "aborted", detail: "install_fail", note: "the testbed's installation failed: fault environment" },
  { stage: "reset_failed", status: "aborted", detail: "reset_failed", note: "the repository could not be reset to the task's commit: fault environment" },
  { stage: "no_apply", status: "failure", detail: "no_apply", note: "the agent's patch did not apply: a failure of the agent (its patch is malformed)" },
  { stage: "applied", status: "failure", detail: null, note: "the patch applied, the tests ran and failed" },
  {
    stage: "with_logs",
    status: "aborted",
    detail: "with_logs",
    note: "a log was written but records no later stage: the evaluation stopped before a verdict (fault environment)",
  },
  {
    stage: "generated",
    status: "aborted",
    detail: "generated",
    note: "a patch was submitted and never evaluated (no log): fault environment, like a missing task",
  },
  { stage: "no_generation", status: "failure", detail: "no_generation", note: "the agent produced no patch: a failure of the agent" },
];

/** A legacy report: at least `generated`, `applied` and `resolved`, every key a stage, every value a list of ids. */
const REPORT: RecordShape = {
  kind: "the stage lists",
  required: { generated: { items: "string" }, applied: { items: "string" }, resolved: { items: "string" } },
  optional: Object.fromEntries(LEGACY_STAGES.map((s) => [s, { items: "string" }])),
  closed: true,
};

const READS: readonly FieldRead[] = [
  ...STAGE_RULES.map((r) => ({
    source: `${r.stage}[]`,
    canonical: `task_id; status ${r.status}${r.detail ? `, status_detail ${r.detail}` : ""}`,
    note: r.note,
  })),
  {
    source: "(every list)",
    canonical: "-",
    note: "an id's status comes from the first row above whose list holds it (the lists are cumulative: a resolved id is also generated and applied); `resolved` decides success",
  },
  {
    source: "(folder)",
    canonical: "run_id",
    note: "the folder of `report.json` / `results.json`: two reports of one run in one folder are one run, their disagreements reported as differing duplicates",
  },
  { source: "(none)", canonical: "trial 0, attempt 1", note: "one evaluation per instance" },
];

export const sweBenchLegacyFormat: FormatAdapter = {
  name: "swe-bench-legacy",
  describes: "SWE-bench legacy evaluation report report.json / results.json: id lists per stage (no_generation, generated, with_logs, ..., applied, resolved)",
  success: "the instance id listed in `resolved`",
  reads: READS,
  notes: [
    "swe-bench-legacy: `total` counts every instance of the report, patch or not; a figure over `applied` (resolved/applied) leaves out the agent's own failures to produce a patch that applies (no_generation, no_apply), which no denominator of denom removes",
  ],
  shapes: [REPORT],
  adapt(record, context) {
    const lists = new Map<string, ReadonlySet<string>>(LEGACY_STAGES.map((s) => [s, new Set((record[s] as string[] | undefined) ?? [])]));
    const ids = new Set<string>();
    for (const s of LEGACY_STAGES) for (const id of (record[s] as string[] | undefined) ?? []) ids.add(id);
    const run = folderOf(context.source);
    const attempts: Record<string, unknown>[] = [];
    for (const id of ids) {
      if (id.trim() === "") return { error: `an instance id is empty` };
      const rule = STAGE_RULES.find((r) => lists.get(r.stage)!.has(id))!;
      attempts.push({
        run_id: run,
        task_id: id,
        trial: 0,
        attempt: 1,
        status: rule.status,
        status_detail: rule.detail,
        stages: LEGACY_STAGES.filter((s) => lists.get(s)!.has(id)),
      });
    }
    return { attempts };
  },
};
