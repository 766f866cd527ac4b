/**
 * OpenHands Index (OpenHands/openhands-index-results, `results/<model>/`;
 * the results repository's README):
 * - `instance_results/<benchmark>.json`: one object `{instance_id: {resolved, cost}}`,
 *   each entry one trial of the run `<model>/<benchmark>`. Its README: `resolved`
 *   is true for resolved instances, false for unresolved *or terminal failure
 *   states* (errors and timeouts cannot be told apart), null when the archive
 *   does not expose an outcome. Instances absent from the file are absent:
 *   `--expect-count` puts them in `total` (swt-bench 433, gaia 165).
 * - `scores.json`: the published claims, an array of `{benchmark, score (percent),
 *   metric, cost_per_instance, ...}`: read as records that hold no attempt (so a
 *   model folder loads whole); audit them with `denom audit --claims scores.json`
 *   (scoresClaims, through FormatAdapter.claims), each against its own benchmark's records.
 * - `metadata.json`: the agent and model described; a record holding no attempt.
 */
import { NOT_INSTANCE_IDS } from "./swe-bench-instance.js";
import { fileNameOf, folderOf, jsonDocumentOf, objectOf, stemOf } from "./shared.js";
import { noAttemptFormat } from "./no-attempt.js";
import type { RecordShape } from "./shape.js";
import type { DocumentAdapter, FieldRead, FormatAdapter, PublishedClaim } from "./types.js";

/** The raw status of an instance whose `resolved` is null: no alias maps it, so it is counted as unrecognized. */
export const OUTCOME_UNKNOWN = "outcome_unknown";

const READS: readonly FieldRead[] = [
  { source: "<key>", canonical: "task_id", note: "as written (SWE-bench ids, GAIA's UUID-like ids)" },
  { source: "resolved: true", canonical: "status success", note: "" },
  {
    source: "resolved: false",
    canonical: "status failure",
    note: "also covers terminal failure states (errors, timeouts): they cannot be told apart, so all count against the agent",
  },
  {
    source: "resolved: null",
    canonical: `status ${OUTCOME_UNKNOWN}, status_detail \`resolved: null\``,
    note: "the archive exposes no outcome: an unrecognized status (fault unknown): in `total`, never a success, left out of `valid`",
  },
  {
    source: "cost",
    canonical: "cost_usd",
    note: "USD; null and 0.0 both mean not captured in these files, so 0.0 is read as not recorded and kept as `cost_as_written`",
  },
  { source: "(path)", canonical: "run_id `<model>/<benchmark>`, model, category `<benchmark>`", note: "`<model>/instance_results/<benchmark>.json`" },
  { source: "(none)", canonical: "trial 0, attempt 1", note: "one run per model and benchmark" },
];

/**
 * `{resolved, cost, ...}` without a task_id of its own (a record carrying one is
 * canonical), nor a per-instance SWE-bench report's flags (`{id: {patch_is_None, ..., resolved}}` is that report).
 */
const INSTANCE_RESULT: RecordShape = {
  kind: "an instance's result",
  required: { resolved: "any" },
  absent: ["task_id", "patch_is_None", "patch_exists", "patch_successfully_applied"],
};

export const openHandsInstancesFormat: DocumentAdapter = {
  kind: "document",
  name: "openhands-index",
  describes: "OpenHands Index instance_results/<benchmark>.json: one object {instance_id: {resolved, cost}}",
  success: "`resolved` true",
  reads: READS,
  // a per-instance SWE-bench report keyed by its instance id (`{id: {patch_is_None, ..., resolved}}`) is not one
  shape: {
    kind: "one run's instances",
    entries: { value: { shape: INSTANCE_RESULT }, keyNot: NOT_INSTANCE_IDS, shown: "<instance_id>: {resolved, cost}" },
  },
  unitsOf: () => "entry",
  adaptEntry(entry, context) {
    const v = objectOf(entry.value);
    if (!v) return { error: `${entry.key}: expected {resolved, cost}, got ${JSON.stringify(entry.value)}` };
    const { resolved, cost, ...rest } = v;
    if (resolved !== null && typeof resolved !== "boolean")
      return { error: `${entry.key}: resolved: expected true, false or null, got ${JSON.stringify(resolved)}` };
    const model = folderOf(context.source, 2);
    const benchmark = stemOf(context.source);
    return {
      attempts: [
        {
          ...rest,
          run_id: model ? `${model}/${benchmark}` : benchmark,
          task_id: entry.key,
          trial: 0,
          attempt: 1,
          status: resolved === true ? "success" : resolved === false ? "failure" : OUTCOME_UNKNOWN,
          status_detail: resolved === null ? "resolved: null" : null,
          // null or 0.0 = not captured (the index's own README)
          cost_usd: cost === 0 ? null : (cost ?? null),
          ...(cost === 0 ? { cost_as_written: 0 } : {}),
          model,
          category: benchmark,
        },
      ],
    };
  },
};

/**
 * The claims of an OpenHands Index `scores.json` (a JSON array of `{benchmark,
 * score (percent), metric}`), or null when `text` is not one: one claim per
 * entry, `score%` labelled `benchmark (metric), scores.json`, scoped to its
 * benchmark.
 */
export function scoresClaims(text: string, name: string): PublishedClaim[] | null {
  const entries = jsonDocumentOf(text, "[");
  if (!Array.isArray(entries) || entries.length === 0) return null;
  const isScore = (e: unknown): e is { benchmark: string; score: number; metric?: unknown } =>
    e !== null &&
    typeof e === "object" &&
    typeof (e as Record<string, unknown>).benchmark === "string" &&
    typeof (e as Record<string, unknown>).score === "number";
  if (!entries.every(isScore)) return null;
  return entries.map((e, i) => {
    const metric = typeof e.metric === "string" ? ` (${e.metric})` : "";
    return { claim: `${e.score}%`, at: `[${i}]`, label: `${e.benchmark}${metric}, ${fileNameOf(name)}`, benchmark: e.benchmark };
  });
}

export const openHandsScoresFormat: FormatAdapter = {
  ...noAttemptFormat(
    "openhands-scores",
    "OpenHands Index scores.json: the published claims [{benchmark, score, metric, ...}], records holding no attempt",
    [
      {
        source: "benchmark, score, metric",
        canonical: "-",
        note: "a published claim (percent, 1 decimal); `denom audit <model>/instance_results/<benchmark>.json --claims <model>/scores.json` audits the claim of that benchmark",
      },
    ],
    [{ kind: "a published claim", required: { benchmark: "string", score: "number", metric: "string" }, absent: ["task_id"] }],
  ),
  claims: scoresClaims,
};

export const openHandsMetadataFormat = noAttemptFormat(
  "openhands-metadata",
  "OpenHands Index metadata.json: the agent and model described (name, version, token prices), a record holding no attempt",
  [{ source: "agent_name, model, directory_name, ...", canonical: "-", note: "read, not mapped: the model is taken from the folder of instance_results/" }],
  [{ kind: "the agent and model described", required: { agent_name: "string", directory_name: "any", model: "any" }, absent: ["task_id"] }],
);
