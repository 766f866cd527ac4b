/**
 * SWE-bench predictions `all_preds.jsonl` (`{instance_id, model_name_or_path,
 * model_patch}`, one line per submitted instance): what the agent submitted, not
 * how it was judged, so each line is a record holding no attempt. Read so that a
 * submission folder (predictions beside `results/results.json`) loads whole; the
 * outcomes come from the report (swe-bench-results.ts).
 */
import type { FieldRead, FormatAdapter } from "./types.js";

const READS: readonly FieldRead[] = [
  { source: "instance_id, model_name_or_path, model_patch", canonical: "-", note: "a submitted patch: no outcome, so no attempt (the evaluation report holds the outcomes)" },
];

export const sweBenchPredsFormat: FormatAdapter = {
  name: "swe-bench-preds",
  describes: "SWE-bench predictions all_preds.jsonl: {instance_id, model_name_or_path, model_patch}, records holding no attempt",
  reads: READS,
  detect: (r) => typeof r.instance_id === "string" && "model_patch" in r && r.status === undefined,
  adapt: () => ({ attempts: [] }),
};
