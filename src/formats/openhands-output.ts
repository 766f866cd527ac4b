/**
 * OpenHands evaluation outputs: `output.jsonl`, one instance a line
 * (`{instance_id, instruction, instance, test_result, metadata, history,
 * metrics, error}`), as OpenHands' `evaluation/` and its `benchmarks` SDK write
 * it (real runs in test/fixtures/real/openhands-v0-multiswebench/). `output.swebench_eval.jsonl`
 * is the same records with the SWE-bench evaluation in `test_result.report`;
 * `output.critic_attempt_<n>.jsonl` holds attempt n of the same trials (the SDK's
 * critic retries; `output.jsonl` beside them is their aggregate, not read then:
 * `supersededFiles` below).
 *
 * The same harness under its earlier name (OpenDevin, up to v1.x, mid-2024)
 * wrote each benchmark's output by hand (LEGACY_IDS): the instance named by `id`
 * (logic reasoning: ProntoQA, ProofWriter; MINT), `task_id` (BIRD,
 * HumanEvalFix) or `question_id` / `qid` with a top-level `correct` (Gorilla
 * APIBench, ToolQA), and `history` as `[action, observation]` pairs; real runs
 * in test/fixtures/real/opendevin-v1.5-gorilla-apibench/.
 *
 * Status: the evaluation decides when the record carries one (TEST_RESULT_GRADES,
 * or a legacy verdict: LEGACY_VERDICTS); else an error that is the system's
 * (ERROR_CLASSES) makes the trial aborted; else it is `not_evaluated` (an
 * unrecognized status: in `total`, never a success), with the error's class as
 * the detail. A verdict is read off a boolean (or 0/1) only, never off a number
 * on a guessed scale (MiniWoB's bare reward is not_evaluated).
 */
import { folderOf, numberOf, objectOf, PROVIDER_HTTP_ERROR, textOf } from "./shared.js";
import { noAttemptFormat } from "./no-attempt.js";
import type { FieldRead, FormatAdapter } from "./types.js";

/** The raw status of an instance whose record carries no evaluation. */
export const NOT_EVALUATED = "not_evaluated";

/** How an `error` text is classified, first match wins: the class is the status_detail; `aborted` ones are the system's. */
export const ERROR_CLASSES: readonly { pattern: RegExp; detail: string; aborted: boolean; why: string }[] = [
  {
    pattern: /maximum iteration/i,
    detail: "max_iterations",
    aborted: false,
    why: "the agent used up its iteration budget (`metadata.max_iterations`): the agent's",
  },
  { pattern: /maximum budget|budget.*exceeded/i, detail: "max_budget", aborted: false, why: "the agent used up its spend budget: the agent's" },
  { pattern: /stuck in a loop/i, detail: "stuck_in_loop", aborted: false, why: "OpenHands' stuck detector stopped the agent: the agent's" },
  { pattern: /context.?window|context length/i, detail: "context_window", aborted: false, why: "the conversation outgrew the model's context: the agent's" },
  {
    pattern: PROVIDER_HTTP_ERROR,
    detail: "external_api_error",
    aborted: true,
    why: "a model provider's HTTP error (401, 402, 403, 429, 5xx) or its client's error class",
  },
  {
    pattern: /output from evaluator|evaluator\w* has no attribute|grade_checkpoints/i,
    detail: "grader_error",
    aborted: true,
    why: "the task's evaluator failed (no output, or its grading function missing): not graded, not the agent's fault",
  },
  {
    pattern:
      /AgentRuntime\w*|runtime (?:is |was )?(?:not|un|dis|fail|crash|died|error)|sandbox|docker|container|kubernetes|connection (?:refused|reset|error|aborted)|EVAL_SKIP_MAXIMUM_RETRIES_EXCEEDED|maximum retries exceeded|pending\/404/i,
    detail: "runtime_error",
    aborted: true,
    why: "the runtime or the infrastructure failed (sandbox, container, connection, evaluation retries exhausted)",
  },
  { pattern: /./, detail: "agent_error", aborted: false, why: "any other error text: the agent crashed (kept in error_message)" },
];

/** The evaluation shapes read from `test_result`, first present wins. */
export const TEST_RESULT_GRADES: readonly { path: readonly string[]; why: string }[] = [
  { path: ["report", "resolved"], why: "SWE-bench evaluation (output.swebench_eval.jsonl)" },
  { path: ["resolved"], why: "a benchmark that writes resolution at the top (Multi-SWE-bench, SWT-bench converters)" },
  { path: ["success"], why: "a boolean success" },
  { path: ["score"], why: "GAIA-style: true/false, or 1/0" },
  { path: ["result"], why: "OpenDevin's hand-written checks: logic reasoning (ProntoQA, ProofWriter), AgentBench" },
];

/**
 * The verdicts of OpenDevin's earlier outputs that do not sit in an object
 * `test_result`: the whole `test_result` a boolean (MINT's `task_state.success`),
 * or a top-level `correct` (Gorilla APIBench's and ToolQA's AST or answer check).
 */
export const LEGACY_VERDICTS: readonly { field: string; why: string }[] = [
  { field: "test_result", why: "the whole `test_result` a boolean (OpenDevin MINT: task_state.success)" },
  { field: "correct", why: "OpenDevin Gorilla APIBench (AST match against the hub's API) and ToolQA (answer match)" },
];

/**
 * The id keys of OpenDevin's earlier outputs, in the order read: each benchmark
 * named its instance in its own key. Where `metadata.hub` names a sub-benchmark
 * (Gorilla APIBench's hf, tf, torch, which each number their questions from 1
 * and run apart), the task is `<hub>/<id>`, the run `<folder>/<hub>` and the
 * hub the category, so that question 1 of two hubs never becomes one task.
 */
export const LEGACY_IDS: readonly string[] = ["id", "task_id", "question_id", "qid"];

/**
 * Checkpoint scores (`test_result.final_score {result, total}`, the OpenHands
 * benchmarks SDK's OpenAgentSafety and TheAgentCompany): resolved when `result`
 * equals `total` and is above 0, as the harness's own report counts it
 * (benchmarks/openagentsafety/eval_infer.py); `result / total` is the score.
 */
export const CHECKPOINT_GRADE = {
  path: ["final_score"],
  why: "checkpoints passed of `total`: success when `result` = `total` > 0 (the harness's own report: eval_infer.py), else failure; `result / total` is the score",
} as const;

/** The error's class, or null for no error. */
export function classifyError(text: string | null): (typeof ERROR_CLASSES)[number] | null {
  if (text === null) return null;
  return ERROR_CLASSES.find((c) => c.pattern.test(text)) ?? null;
}

/** A boolean verdict, or 0/1 read as one; null for anything else. */
function verdictOf(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  return v === 0 || v === 1 ? v === 1 : null;
}

/** The evaluation's verdict and score, null when the record carries none; a `final_score` of another shape is an error (its text). */
function gradeOf(record: Record<string, unknown>): { passed: boolean; score: number | null } | null | string {
  // booleans only: a bare number here is a reward on a scale no one declared (MiniWoB)
  for (const v of LEGACY_VERDICTS) if (typeof record[v.field] === "boolean") return { passed: record[v.field] as boolean, score: null };
  const testResult = objectOf(record.test_result);
  if (!testResult) return null;
  for (const g of TEST_RESULT_GRADES) {
    let v: unknown = testResult;
    for (const k of g.path) v = objectOf(v)?.[k];
    // a verdict, not a score: the record's score stays unset
    const passed = verdictOf(v);
    if (passed !== null) return { passed, score: null };
  }
  const checkpoints = testResult.final_score;
  if (checkpoints === undefined || checkpoints === null) return null;
  const o = objectOf(checkpoints);
  const result = o?.result;
  const total = o?.total;
  if (typeof result !== "number" || typeof total !== "number" || !(total >= 0) || !(result >= 0))
    return `openhands-output: test_result.final_score is not {result, total} with two numbers >= 0 (${JSON.stringify(checkpoints).slice(0, 80)}); the grade is not read`;
  return { passed: result > 0 && result === total, score: total > 0 ? result / total : null };
}

/** Actions OpenHands records that are not the agent acting (the system prompt, its messages to the user). */
const NOT_TOOL_ACTIONS = new Set(["system", "message", "recall"]);

const READS: readonly FieldRead[] = [
  { source: "instance_id", canonical: "task_id", note: "as written" },
  {
    source: LEGACY_IDS.join(", "),
    canonical: "task_id",
    note: "OpenDevin's earlier outputs, the first present; `<metadata.hub>/<id>` when the record names a hub (APIBench numbers each hub's questions from 1)",
  },
  { source: "metadata.hub", canonical: "category, run_id `<folder>/<hub>`", note: "the APIBench hub (hf, tf, torch): a sub-benchmark, run apart" },
  {
    source: "(path) <run folder>/output.jsonl",
    canonical: "run_id",
    note: "the folder's name (`<model>_maxiter_<N>_N_<version>-<note>-run_<k>`): run k is a run of its own",
  },
  {
    source: "(file) output.critic_attempt_<n>.jsonl",
    canonical: "attempt n",
    note: "the critic's attempts of the same trials; output.jsonl beside them (their aggregate) is skipped and listed",
  },
  ...TEST_RESULT_GRADES.map((g) => ({ source: `test_result.${g.path.join(".")}`, canonical: "status success / failure", note: g.why })),
  ...LEGACY_VERDICTS.map((v) => ({ source: `${v.field} (a boolean)`, canonical: "status success / failure", note: v.why })),
  { source: "test_result.final_score.result, .total", canonical: "status success / failure, score", note: CHECKPOINT_GRADE.why },
  {
    source: "(no evaluation)",
    canonical: `status ${NOT_EVALUATED}`,
    note: "unrecognized (fault unknown): in `total`, never a success; read output.swebench_eval.jsonl (beside it, it replaces output.jsonl) for resolution",
  },
  ...ERROR_CLASSES.map((c) => ({
    source: `error ~ ${c.detail}`,
    canonical: c.aborted ? `status aborted, status_detail ${c.detail}` : `status_detail ${c.detail}`,
    note: c.why,
  })),
  { source: "metrics.accumulated_cost", canonical: "cost_usd", note: "as given (0.0 when the model has no price)" },
  { source: "metrics.accumulated_token_usage", canonical: "llm_tokens", note: "prompt_tokens + completion_tokens" },
  {
    source: "history[0].timestamp, history[-1].timestamp",
    canonical: "started_at, ended_at",
    note: "naive local times (counted); `metadata.start_time` is the run's start, kept",
  },
  {
    source: "history[] actions",
    canonical: "events",
    note: "each agent action (not system, message, recall) a `tool_call` named by its tool (`tool_call_metadata.function_name`, else the action) with its args but the thought; each observation an `observation` (OpenDevin's `[action, observation]` pairs read in order, its `null` observations left out)",
  },
  {
    source: "metadata.agent_class, metadata.llm_config.model",
    canonical: "agent, model",
    note: "OpenDevin's earlier outputs: `metadata.model_name`, else `model_id`",
  },
];

const CRITIC_ATTEMPT = /(?:^|[/!])output\.critic_attempt_(\d+)\.jsonl(?:\.gz)?$/i;

export const openHandsOutputFormat: FormatAdapter = {
  name: "openhands-output",
  describes: "OpenHands evaluation output.jsonl (also output.swebench_eval.jsonl, output.critic_attempt_<n>.jsonl): one instance a line",
  success:
    "`test_result.report.resolved`, `.resolved`, `.success`, `.score` or `.result` true (or 1), or (OpenDevin) `test_result` or `correct` true, else `test_result.final_score.result` = `.total` > 0; without an evaluation `not_evaluated`, never a success",
  reads: READS,
  // OpenHands writes `output.jsonl` and then the same records with their SWE-bench evaluation
  // (`output.swebench_eval.jsonl`), or the critic's attempts (`output.critic_attempt_<n>.jsonl`)
  // whose aggregate output.jsonl is; reading both would load each trial twice
  supersededFiles: [
    {
      file: /^output\.jsonl$/i,
      by: /^output\.swebench_eval\.jsonl$/i,
      reason: "OpenHands output.swebench_eval.jsonl beside it holds the same records with their evaluation (read instead)",
    },
    {
      file: /^output\.jsonl$/i,
      by: /^output\.critic_attempt_\d+\.jsonl$/i,
      reason: "the aggregate of the OpenHands critic attempts beside it (output.critic_attempt_<n>.jsonl, read as attempts 1..n)",
    },
  ],
  shapes: [
    { kind: "an instance's output", required: { instance_id: "string", test_result: "any", history: "any", metadata: "object" }, absent: ["task_id"] },
    // OpenDevin's earlier outputs: history as [action, observation] pairs (a list of lists), the id in the benchmark's own key
    {
      kind: "an OpenDevin instance's output (`id`)",
      required: { id: ["string", "number"], test_result: "any", history: { items: "array" } },
      absent: ["instance_id", "task_id"],
    },
    {
      kind: "an OpenDevin instance's output (`task_id`)",
      required: { task_id: ["string", "number"], test_result: "any", history: { items: "array" }, metadata: "object" },
      absent: ["instance_id", "id"],
    },
    {
      kind: "an OpenDevin answer check (`question_id`)",
      required: { question_id: ["string", "number"], correct: ["boolean", "null"], history: { items: "array" }, metadata: "object" },
      absent: ["instance_id", "task_id"],
    },
    {
      kind: "an OpenDevin answer check (`qid`)",
      required: { qid: ["string", "number"], correct: ["boolean", "null"], history: { items: "array" }, metadata: "object" },
      absent: ["instance_id", "task_id"],
    },
  ],
  adapt(record, context) {
    const testResult = objectOf(record.test_result);
    const grade = gradeOf(record);
    if (typeof grade === "string") return { error: grade };
    const error = textOf(record.error);
    const cls = classifyError(error);
    let status: string;
    if (grade !== null) status = grade.passed ? "success" : "failure";
    else if (cls?.aborted) status = "aborted";
    else status = NOT_EVALUATED;
    const metadata = objectOf(record.metadata) ?? {};
    const metrics = objectOf(record.metrics) ?? {};
    const usage = objectOf(metrics.accumulated_token_usage);
    const prompt = numberOf(usage?.prompt_tokens);
    const completion = numberOf(usage?.completion_tokens);
    // OpenDevin's pairs read as the flat event list they stand for
    const history = Array.isArray(record.history) ? record.history.flatMap((e) => (Array.isArray(e) ? e : [e])) : [];
    const hub = textOf(metadata.hub);
    const id = record.instance_id ?? LEGACY_IDS.map((k) => record[k]).find((v) => v !== undefined && v !== null);
    const stamps = history.map((e) => objectOf(e)?.timestamp).filter((t) => t !== undefined && t !== null);
    const critic = CRITIC_ATTEMPT.exec(context.source);
    const report = objectOf(testResult?.report);
    return {
      attempts: [
        {
          // a hub is a run of its own (APIBench runs each hub apart, with its own metadata_<hub>.json)
          run_id: hub === null ? folderOf(context.source) : `${folderOf(context.source) ?? "-"}/${hub}`,
          task_id: hub !== null && record.instance_id === undefined ? `${hub}/${id}` : id,
          trial: 0,
          attempt: critic ? Number(critic[1]) : 1,
          status,
          status_detail: cls?.detail ?? null,
          error_message: error,
          score: grade?.score ?? null,
          started_at: stamps[0] ?? null,
          ended_at: stamps[stamps.length - 1] ?? null,
          cost_usd: numberOf(metrics.accumulated_cost),
          llm_tokens: prompt === null && completion === null ? null : (prompt ?? 0) + (completion ?? 0),
          agent: textOf(metadata.agent_class),
          model: textOf(objectOf(metadata.llm_config)?.model) ?? textOf(metadata.model_name) ?? textOf(record.model_id),
          category: hub,
          events: historyEvents(history),
          max_iterations: metadata.max_iterations ?? null,
          run_start_time: metadata.start_time ?? null,
          git_commit: metadata.git_commit ?? null,
          patch_chars: typeof testResult?.git_patch === "string" ? testResult.git_patch.length : null,
          report: report ?? null,
        },
      ],
    };
  },
};

/** Agent actions as tool calls (tool name and args, the thought left out) and observations, in order. */
function historyEvents(history: readonly unknown[]): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const raw of history) {
    const e = objectOf(raw);
    if (!e) continue;
    const ts = e.timestamp ?? null;
    if (typeof e.action === "string" && e.source === "agent" && !NOT_TOOL_ACTIONS.has(e.action)) {
      const { thought: _thought, ...args } = objectOf(e.args) ?? {};
      const tool = textOf(objectOf(e.tool_call_metadata)?.function_name) ?? e.action;
      events.push({ ts, type: "tool_call", name: tool, args });
    } else if (typeof e.observation === "string" && e.observation !== "null") {
      events.push({ ts, type: "observation", name: e.observation, status: e.success === false ? "error" : null });
    }
  }
  return events;
}

/** An OpenHands run's metadata.json (`agent_class`, `llm_config`, `max_iterations`): the run described, no attempt. */
export const openHandsRunMetadataFormat = noAttemptFormat(
  "openhands-run-metadata",
  "OpenHands evaluation metadata.json beside output.jsonl (OpenDevin's too): the agent, model and limits of the run; holds no attempt",
  [
    {
      source: "agent_class, llm_config, max_iterations, start_time",
      canonical: "-",
      note: "read, not mapped: every output.jsonl record repeats them in `metadata`",
    },
    {
      source: "(OpenDevin) agent_class, model_name, max_iterations; `Agent class`, `Model name`, `Final Accuracy`",
      canonical: "-",
      note: "read, not mapped: Gorilla's metadata_<hub>.json and logic reasoning's metadata.json (its accuracy, two decimals, is the harness's own figure: `denom audit --claim`)",
    },
  ],
  [
    { kind: "the run described", required: { agent_class: "string", llm_config: "object", max_iterations: "any" }, absent: ["instance_id"] },
    {
      kind: "an OpenDevin run described",
      required: { agent_class: "string", model_name: "string", max_iterations: "any" },
      absent: ["instance_id", "llm_config"],
    },
    {
      kind: "an OpenDevin run summary",
      required: { "Agent class": "string", "Model name": "string", "Number of Samples": "number", "Final Accuracy": ["string", "number"] },
    },
  ],
);
