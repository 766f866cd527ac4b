/**
 * HAL harness uploads (princeton-pli/hal-harness, `results/<benchmark>/<run_id>/<run_id>_UPLOAD.json`,
 * written by `BaseBenchmark.process_results`): one JSON document a run,
 * `{config {agent_name, benchmark_name, date, run_id, agent_args {model_name,
 * ...}, run_command, prompt_sensitivity}, results {accuracy, successful_tasks
 * [ids], failed_tasks [ids], total_cost, latencies {<task_id>:
 * {first_call_timestamp, last_call_timestamp, total_time}}, <benchmark
 * metrics>}, raw_eval_results, raw_logging_results, task_prompts, total_usage,
 * total_cost, git_info, agent_hash, wall_clock_times {<task_id>: seconds},
 * task_step_counts {<task_id>: steps}}`.
 *
 * One task id in `results.successful_tasks` is one trial (trial 0, attempt 1)
 * that succeeded, one in `results.failed_tasks` one that failed: each
 * benchmark's `get_metrics` sorts its evaluated tasks into the two lists, and
 * they are the only per-task verdict every benchmark writes. A task in both
 * lists, or a list element that is not an id, rejects the upload with the
 * reason (never guessed). `results.accuracy` is the benchmark's own figure,
 * whose denominator differs by benchmark (ACCURACY_DENOMINATORS): a published
 * claim (`denom audit <upload> --claims <upload>`). The upload states the run's
 * total cost only, no cost per task.
 */
import { UsageError } from "../errors.js";
import { fileNameOf, jsonDocumentOf, numberOf, objectOf, textOf } from "./shared.js";
import type { Adapted, FieldRead, FormatAdapter, PublishedClaim } from "./types.js";

/**
 * What `results.accuracy` is divided by, per benchmark (`config.benchmark_name`
 * prefix, first match wins), as each benchmark's `get_metrics` computes it; a
 * benchmark not listed is `undeclared`.
 */
export const ACCURACY_DENOMINATORS: readonly { benchmark: RegExp; denominator: string }[] = [
  { benchmark: /^scicode/, denominator: "the tasks in successful_tasks and failed_tasks (scicode.py)" },
  { benchmark: /^assistantbench/, denominator: "every task of the benchmark, run or not (len(self.benchmark), assistantbench.py)" },
  {
    benchmark: /^swebench_verified_mini$/,
    denominator: "50, fixed, whatever was run; the id lists are deduplicated (set) and failed_tasks holds the errored ids too (swebench.py)",
  },
  {
    benchmark: /^swebench/,
    denominator: "the SWE-bench harness's total_instances; the id lists are deduplicated (set) and failed_tasks holds the errored ids too (swebench.py)",
  },
  { benchmark: /^taubench/, denominator: "every task of the benchmark (len(self.benchmark)), over the sum of rewards, not of successes (taubench.py)" },
  { benchmark: /^corebench/, denominator: "the tasks evaluated (len(eval_results), corebench.py)" },
  { benchmark: /^gaia/, denominator: "the tasks evaluated (len(eval_results), gaia.py)" },
  { benchmark: /^usaco/, denominator: "the problems graded (len(sdict), usaco.py)" },
];

/** The denominator `results.accuracy` of `benchmark` is computed over, in words. */
export function accuracyDenominatorOf(benchmark: string | null): string {
  const known = benchmark === null ? undefined : ACCURACY_DENOMINATORS.find((d) => d.benchmark.test(benchmark));
  return known?.denominator ?? "undeclared (the benchmark's own get_metrics)";
}

/** A task id as HAL writes it in its lists: a text, or a number (written as text). */
function idOf(v: unknown): string | null {
  if (typeof v === "string" && v.trim() !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/**
 * The trials of an upload's two lists: `{ids: [[id, passed], ...]}` in list
 * order, successes first; or why the lists cannot be read (an element that is
 * not an id, a task in both lists). The same id twice in one list is kept
 * twice: two identical records, collapsed and reported as a duplicate.
 */
export function verdictsOf(results: Record<string, unknown>): { ids: [string, boolean][] } | { error: string } {
  const ids: [string, boolean][] = [];
  const seen = new Map<string, boolean>();
  for (const [key, passed] of [
    ["successful_tasks", true],
    ["failed_tasks", false],
  ] as const) {
    const list = results[key] as unknown[];
    for (let i = 0; i < list.length; i++) {
      const id = idOf(list[i]);
      if (id === null) return { error: `hal-upload: results.${key}[${i}] is not a task id (${JSON.stringify(list[i]).slice(0, 60)}): the upload is not read` };
      const before = seen.get(id);
      if (before !== undefined && before !== passed)
        return {
          error: `hal-upload: task ${JSON.stringify(id)} is in both results.successful_tasks and results.failed_tasks: its verdict is not guessed, the upload is not read`,
        };
      seen.set(id, passed);
      ids.push([id, passed]);
    }
  }
  return { ids };
}

const READS: readonly FieldRead[] = [
  {
    source: "results.successful_tasks[]",
    canonical: "task_id, status success",
    note: "one trial (trial 0, attempt 1) per task id; the field that decides success, as the benchmark's get_metrics sorted its tasks",
  },
  { source: "results.failed_tasks[]", canonical: "task_id, status failure", note: "one trial per task id" },
  {
    source: "a task in both lists, an element not an id",
    canonical: "(rejected)",
    note: "the upload is rejected with the reason: a verdict is never guessed",
  },
  { source: "config.run_id", canonical: "run_id", note: "as written (the upload's name is `<run_id>_UPLOAD.json`)" },
  { source: "config.agent_name", canonical: "agent", note: "as written" },
  { source: "config.agent_args.model_name", canonical: "model", note: "as written; absent when the agent takes no `-A model_name`" },
  { source: "config.benchmark_name", canonical: "category", note: "the benchmark (`scicode`, `corebench_hard`, `taubench_airline`)" },
  {
    source: "results.accuracy",
    canonical: "-",
    note: "a published claim (`denom audit <upload> --claims <upload>`), its denominator named per benchmark: s/(s+f) (scicode), every task of the benchmark (assistantbench, taubench), 50 (swebench_verified_mini)",
  },
  { source: "results.latencies.<task>.total_time, wall_clock_times.<task>", canonical: "-", note: "kept in the raw record (seconds)" },
  { source: "task_step_counts.<task>", canonical: "-", note: "kept in the raw record" },
  { source: "total_cost, results.total_cost", canonical: "-", note: "the run's spend (USD): the upload states no cost per task" },
  { source: "raw_logging_results, task_prompts", canonical: "-", note: "the Weave traces and prompts: not read" },
];

/** A number of seconds per task (`wall_clock_times`, `latencies.<task>.total_time`), or null. */
function secondsOf(v: unknown): number | null {
  const n = numberOf(v);
  return n !== null && n >= 0 ? n : null;
}

function adaptUpload(record: Record<string, unknown>): Adapted {
  const config = objectOf(record.config) ?? {};
  const results = objectOf(record.results) ?? {};
  const verdicts = verdictsOf(results);
  if ("error" in verdicts) return { error: verdicts.error };
  const latencies = objectOf(results.latencies) ?? {};
  const wall = objectOf(record.wall_clock_times) ?? {};
  const steps = objectOf(record.task_step_counts) ?? {};
  const run = {
    run_id: textOf(config.run_id),
    agent: textOf(config.agent_name),
    model: textOf(objectOf(config.agent_args)?.model_name),
    category: textOf(config.benchmark_name),
  };
  return {
    attempts: verdicts.ids.map(([task_id, passed]) => ({
      ...run,
      task_id,
      trial: 0,
      attempt: 1,
      status: passed ? "success" : "failure",
      hal_list: passed ? "successful_tasks" : "failed_tasks",
      hal_latency_s: secondsOf(objectOf(latencies[task_id])?.total_time),
      hal_wall_clock_s: secondsOf(wall[task_id]),
      hal_step_count: numberOf(steps[task_id]),
    })),
  };
}

/**
 * The claim of a HAL upload, or null when `text` is not one: `results.accuracy`
 * as printed, labelled with the benchmark and the denominator its get_metrics
 * divides by (accuracyDenominatorOf), scoped to the benchmark (the trials'
 * category). Throws UsageError when the upload holds no accuracy in [0, 1].
 */
export function uploadClaims(text: string, name: string): PublishedClaim[] | null {
  const o = objectOf(jsonDocumentOf(text, "{"));
  const results = objectOf(o?.results);
  const config = objectOf(o?.config);
  if (!o || !results || !config || !Array.isArray(results.successful_tasks) || !Array.isArray(results.failed_tasks) || !("raw_eval_results" in o)) return null;
  const accuracy = results.accuracy;
  const shown = typeof accuracy === "number" ? String(accuracy) : "";
  if (typeof accuracy !== "number" || !(accuracy >= 0 && accuracy <= 1) || shown.includes("e"))
    throw new UsageError(`--claims ${name}: a HAL upload without results.accuracy in [0, 1]`);
  const benchmark = textOf(config.benchmark_name);
  return [
    {
      claim: shown,
      at: " results.accuracy",
      label: `${benchmark ?? "the benchmark"} results.accuracy, denominator: ${accuracyDenominatorOf(benchmark)}, ${fileNameOf(name)}`,
      ...(benchmark !== null ? { benchmark } : {}),
    },
  ];
}

export const halUploadFormat: FormatAdapter = {
  name: "hal-upload",
  describes: "HAL harness <run_id>_UPLOAD.json: the run's config, results.successful_tasks / failed_tasks (one trial each) and its accuracy (a claim)",
  success: "the task's id in `results.successful_tasks` (in `failed_tasks`: a failure; in both: the upload is rejected)",
  reads: READS,
  notes: [
    "hal-upload: a trial is one task id of results.successful_tasks or failed_tasks; the upload records no error, timeout or retry per task and no cost per task (total_cost is the run's)",
  ],
  skipKeys: { names: /_UPLOAD\.json$/i, keys: ["raw_logging_results", "task_prompts"] },
  shapes: [
    {
      kind: "a run's upload (<run_id>_UPLOAD.json)",
      required: {
        config: "object",
        "results.successful_tasks": "array",
        "results.failed_tasks": "array",
        raw_eval_results: "any",
        total_usage: "any",
        git_info: "any",
      },
      absent: ["task_id", "status"],
    },
  ],
  adapt: adaptUpload,
  claims: uploadClaims,
};
