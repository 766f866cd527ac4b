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
 * Status: the evaluation decides when the record carries one (TEST_RESULT_GRADES);
 * else an error that is the system's (ERROR_CLASSES) makes the trial aborted; else
 * it is `not_evaluated` (an unrecognized status: in `total`, never a success),
 * with the error's class as the detail.
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
];

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

/** The evaluation's verdict and score, null when the record carries none; a `final_score` of another shape is an error (its text). */
function gradeOf(testResult: Record<string, unknown> | null): { passed: boolean; score: number | null } | null | string {
  if (!testResult) return null;
  for (const g of TEST_RESULT_GRADES) {
    let v: unknown = testResult;
    for (const k of g.path) v = objectOf(v)?.[k];
    // a verdict, not a score: the record's score stays unset
    if (typeof v === "boolean") return { passed: v, score: null };
    if (v === 0 || v === 1) return { passed: v === 1, score: null };
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
    note: "each agent action (not system, message, recall) a `tool_call` named by its tool (`tool_call_metadata.function_name`, else the action) with its args but the thought; each observation an `observation`",
  },
  { source: "metadata.agent_class, metadata.llm_config.model", canonical: "agent, model", note: "" },
];

const CRITIC_ATTEMPT = /(?:^|[/!])output\.critic_attempt_(\d+)\.jsonl(?:\.gz)?$/i;

export const openHandsOutputFormat: FormatAdapter = {
  name: "openhands-output",
  describes: "OpenHands evaluation output.jsonl (also output.swebench_eval.jsonl, output.critic_attempt_<n>.jsonl): one instance a line",
  success:
    "`test_result.report.resolved`, `.resolved`, `.success` or `.score` true (or 1), else `test_result.final_score.result` = `.total` > 0; without an evaluation `not_evaluated`, never a success",
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
  shapes: [{ kind: "an instance's output", required: { instance_id: "string", test_result: "any", history: "any", metadata: "object" }, absent: ["task_id"] }],
  adapt(record, context) {
    const testResult = objectOf(record.test_result);
    const grade = gradeOf(testResult);
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
    const history = Array.isArray(record.history) ? record.history : [];
    const stamps = history.map((e) => objectOf(e)?.timestamp).filter((t) => t !== undefined && t !== null);
    const critic = CRITIC_ATTEMPT.exec(context.source);
    const report = objectOf(testResult?.report);
    return {
      attempts: [
        {
          run_id: folderOf(context.source),
          task_id: record.instance_id,
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
          model: textOf(objectOf(metadata.llm_config)?.model),
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
    } else if (typeof e.observation === "string") {
      events.push({ ts, type: "observation", name: e.observation, status: e.success === false ? "error" : null });
    }
  }
  return events;
}

/** An OpenHands run's metadata.json (`agent_class`, `llm_config`, `max_iterations`): the run described, no attempt. */
export const openHandsRunMetadataFormat = noAttemptFormat(
  "openhands-run-metadata",
  "OpenHands evaluation metadata.json beside output.jsonl: the agent, model and limits of the run; holds no attempt",
  [
    {
      source: "agent_class, llm_config, max_iterations, start_time",
      canonical: "-",
      note: "read, not mapped: every output.jsonl record repeats them in `metadata`",
    },
  ],
  [{ kind: "the run described", required: { agent_class: "string", llm_config: "object", max_iterations: "any" }, absent: ["instance_id"] }],
);
