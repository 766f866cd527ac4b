/**
 * EleutherAI lm-evaluation-harness outputs (`lm_eval --output_path DIR --log_samples`):
 * - `samples_<task>_<date_id>.jsonl` (evaluation_tracker.py; `DIR/<model_name_sanitized>/`):
 *   one document a line, `{doc_id, doc, target, arguments, resps, filtered_resps,
 *   filter, metrics [names], doc_hash, prompt_hash, target_hash, <metric>: value, ...}`
 *   (evaluator.py, `example.update(metrics)`); lm-eval 0.4.0 wrote the same
 *   records, without `filter`, `metrics` and the hashes, as one indented JSON
 *   array in `<model_args, / and = as __>_<task>.jsonl`;
 * - `results_<date_id>.json` (0.4.0: `results.json`): the aggregate per task
 *   (`results {task: {"<metric>,<filter>": value, "<metric>_stderr,<filter>": ...}}`,
 *   `configs`, `versions`, `n-samples`, `config`): figures the harness computed,
 *   published claims (`denom audit DIR --claims results_<date_id>.json`), no trial.
 *
 * One sample line is one trial (trial 0, attempt 1) of task `<task>/<doc_id>`.
 * The harness declares no primary metric (a task's `metric_list` is a list, and
 * every entry is aggregated and reported alike), so a sample's metric decides
 * only when it is the one the line holds (or the one `--score-key` names) and
 * its value is on the 0-1 scale of a pass (true/false, 1/0: `acc`,
 * `exact_match`); a fractional value (`f1`, `bleu`, `mc2`), a list or a text
 * leaves the trial `unscored` with the metric named, and so do several metrics
 * without `--score-key`. lm-eval records no error, timeout or retry per sample.
 */
import { UsageError } from "../errors.js";
import { fileNameOf, folderOf, jsonDocumentOf, objectOf, stemOf, textOf } from "./shared.js";
import type { RecordShape } from "./shape.js";
import type { Adapted, AdaptContext, FieldRead, FormatAdapter, PublishedClaim } from "./types.js";

/** The keys evaluator.py writes on every sample line; any other key is a metric's value. */
export const SAMPLE_KEYS: ReadonlySet<string> = new Set([
  "doc_id",
  "doc",
  "target",
  "arguments",
  "resps",
  "filtered_resps",
  "filter",
  "metrics",
  "doc_hash",
  "prompt_hash",
  "target_hash",
]);

/** The raw status of a sample no metric decides (unrecognized: in `total`, never a success). */
export const UNSCORED = "unscored";

/** `samples_<task>_<date_id>.jsonl`, date_id as evaluation_tracker.py writes it (`2024-05-29T14-51-06.123456`). */
const SAMPLES_FILE = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)$/;

/**
 * The run, model and task of a samples file, from its name (stemOf) and folder:
 * `DIR/<model>/samples_<task>_<date_id>.jsonl` -> run `<model>/<date_id>` (one
 * `lm_eval` call writes all its files with one date_id), model `<model>`, task
 * `<task>`; lm-eval 0.4.0's `<model_args>_<task>.jsonl` (model_args with `/`
 * and `=` as `__`) -> the task after the first `_` that follows the last `__`
 * (a model argument's value holds no `_`), the model arguments before it, the
 * run the folder; a name of neither form is the task, its folder the run.
 */
export function samplesFileOf(source: string): { run_id: string | null; model: string | null; task: string } {
  const stem = stemOf(source);
  const folder = folderOf(source);
  const modern = SAMPLES_FILE.exec(stem);
  if (modern) return { run_id: folder ? `${folder}/${modern[2]}` : modern[2], model: folder, task: modern[1] };
  const last = stem.lastIndexOf("__");
  const cut = last < 0 ? -1 : stem.indexOf("_", last + 2);
  if (cut > 0 && cut < stem.length - 1) return { run_id: folder, model: stem.slice(0, cut), task: stem.slice(cut + 1) };
  return { run_id: folder, model: null, task: stem };
}

/** The metrics a sample holds: its `metrics` list when written, else every key that is not a sample key (0.4.0). */
function metricNames(record: Record<string, unknown>): string[] {
  if (Array.isArray(record.metrics)) return record.metrics.filter((m): m is string => typeof m === "string" && m in record);
  return Object.keys(record).filter((k) => !SAMPLE_KEYS.has(k));
}

/** A pass on the 0-1 scale: true/1 -> true, false/0 -> false; anything else null. */
function passOf(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  if (v === 1 || v === 0) return v === 1;
  return null;
}

/** What decides one sample: its status, the metric and its score. */
function verdictOf(
  record: Record<string, unknown>,
  scoreKey: string | null,
): { status: string; detail: string | null; metric: string | null; score: number | null; keys?: string[] } {
  const names = metricNames(record);
  const chosen = scoreKey !== null && names.includes(scoreKey) ? scoreKey : names.length === 1 ? names[0] : null;
  if (chosen === null) {
    if (names.length === 0) return { status: UNSCORED, detail: "no_metric", metric: null, score: null };
    return { status: UNSCORED, detail: "several_metrics", metric: null, score: null, keys: names };
  }
  const v = record[chosen];
  const score = typeof v === "number" && Number.isFinite(v) ? v : typeof v === "boolean" ? Number(v) : null;
  const pass = passOf(v);
  if (pass === null) return { status: UNSCORED, detail: `metric_not_0_1:${chosen}`, metric: chosen, score };
  return { status: pass ? "success" : "failure", detail: null, metric: chosen, score };
}

const SAMPLE: RecordShape = {
  kind: "a sample line (samples_<task>_<date_id>.jsonl)",
  required: { doc_id: "number", doc: "any", target: "any", resps: "array", filtered_resps: "array" },
  optional: { filter: "string", metrics: { items: "string" }, doc_hash: "string", prompt_hash: "string", target_hash: "string" },
  absent: ["task_id", "status"],
};

const READS: readonly FieldRead[] = [
  { source: "doc_id", canonical: "task_id `<task>/<doc_id>`", note: "the document's index in the task's split; one line = one trial (trial 0, attempt 1)" },
  {
    source: "(file) <model>/samples_<task>_<date_id>.jsonl",
    canonical: "run_id `<model>/<date_id>`, model `<model>`, category `<task>`",
    note: "one `lm_eval` call writes every task's file with one date_id: one run; the task is the benchmark its results_<date_id>.json figures are about",
  },
  {
    source: "(file) <model_args>_<task>.jsonl (lm-eval 0.4.0)",
    canonical: "run_id (the folder), model `<model_args>`, category `<task>`",
    note: "model_args with `/` and `=` written `__`: the task is read after the first `_` following the last `__`",
  },
  {
    source: "filter",
    canonical: "agent `filter <name>` (none: no agent)",
    note: "a task with several answer filters (gsm8k's strict-match, flexible-extract) writes one line per filter: each filter's figure stands apart, never pooled with another's",
  },
  {
    source: "metrics[] + <metric>",
    canonical: "status success / failure, score",
    note: "the one metric the line holds (or `--score-key NAME`): true/1 success, false/0 failure; lm-eval declares no primary metric",
  },
  {
    source: "<metric> not 0/1 (f1, bleu, a list)",
    canonical: `status ${UNSCORED}, status_detail metric_not_0_1:<metric>`,
    note: "a metric on another scale is never read as a pass: in `total`, never a success",
  },
  {
    source: "several metrics (acc, acc_norm)",
    canonical: `status ${UNSCORED}, status_detail several_metrics`,
    note: "which decides is not declared: name it with `--score-key NAME`",
  },
  { source: "doc, target, resps, filtered_resps, arguments", canonical: "-", note: "kept in the raw record" },
];

export const lmEvalSampleFormat: FormatAdapter = {
  name: "lm-eval",
  describes: "EleutherAI lm-evaluation-harness samples_<task>_<date_id>.jsonl (--log_samples): one document a line with its metrics",
  success: "the line's one metric (or `--score-key NAME`) true or 1 (`acc`, `exact_match`); a metric not 0/1, or several without `--score-key`, is unscored",
  reads: READS,
  notes: [
    "lm-eval: a trial is one document of a task; the harness records no error, timeout or retry per document, so every denominator but `total` removes nothing",
  ],
  shapes: [SAMPLE],
  adapt(record: Record<string, unknown>, context: AdaptContext): Adapted {
    const file = samplesFileOf(context.source);
    const filter = textOf(record.filter);
    const verdict = verdictOf(record, context.scoreKey ?? null);
    const attempt: Record<string, unknown> = {
      run_id: file.run_id,
      task_id: `${file.task}/${String(record.doc_id)}`,
      trial: 0,
      attempt: 1,
      status: verdict.status,
      status_detail: verdict.detail,
      score: verdict.score,
      model: file.model,
      agent: filter !== null && filter !== "none" ? `filter ${filter}` : null,
      category: file.task,
      doc_id: record.doc_id,
      lm_eval_filter: filter,
      lm_eval_metric: verdict.metric,
    };
    if (verdict.keys) attempt.score_keys = verdict.keys;
    return { attempts: [attempt] };
  },
};

const RESULTS: RecordShape = {
  kind: "the aggregate per task (results_<date_id>.json)",
  required: { results: "object", configs: "object", versions: "object", config: "object" },
  optional: { "n-samples": "object", "n-shot": "object", groups: "object" },
  absent: ["task_id", "status", "doc_id"],
};

/**
 * The claims of an lm-eval results file (`{results: {task: {"<metric>,<filter>":
 * value}}, configs, versions, config}`), or null when `text` is not one: every
 * value in [0, 1] of a task's `results`, but its standard errors and `alias`,
 * as printed, labelled `<task> <metric>,<filter>` and scoped to the task (the
 * samples' category), so `denom audit <samples file> --claims results.json`
 * checks the claims about the task the samples hold. Throws UsageError when it
 * holds none.
 */
export function resultsClaims(text: string, name: string): PublishedClaim[] | null {
  const o = objectOf(jsonDocumentOf(text, "{"));
  const results = objectOf(o?.results);
  if (!o || !results || !objectOf(o.configs) || !objectOf(o.versions) || !objectOf(o.config)) return null;
  const claims: PublishedClaim[] = [];
  for (const [task, figures] of Object.entries(results)) {
    for (const [key, v] of Object.entries(objectOf(figures) ?? {})) {
      if (typeof v !== "number" || !(v >= 0 && v <= 1) || key === "alias" || /_stderr,/.test(key)) continue;
      const shown = String(v);
      if (shown.includes("e")) continue;
      claims.push({ claim: shown, at: ` results.${task}.${key}`, label: `${task} ${key}, ${fileNameOf(name)}`, benchmark: task });
    }
  }
  if (claims.length === 0) throw new UsageError(`--claims ${name}: an lm-eval results file without a figure in [0, 1] under results.<task>`);
  return claims;
}

export const lmEvalResultsFormat: FormatAdapter = {
  name: "lm-eval-results",
  describes: "EleutherAI lm-evaluation-harness results_<date_id>.json: the aggregate per task (a published claim), a record holding no attempt",
  reads: [
    {
      source: 'results.<task>."<metric>,<filter>"',
      canonical: "-",
      note: "a published claim about the task (the mean of the metric over its samples): `denom audit <model>/samples_<task>_<date_id>.jsonl --claims results_<date_id>.json`",
    },
    {
      source: "configs, versions, n-samples, config",
      canonical: "-",
      note: "the tasks' configurations (metric_list), the sample counts (`effective`) and the call's arguments: read, not mapped",
    },
  ],
  shapes: [RESULTS],
  adapt: () => ({ attempts: [] }),
  claims: resultsClaims,
};
