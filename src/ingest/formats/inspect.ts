/**
 * Inspect AI eval logs in `.json` (UKGovernmentBEIS/inspect_ai, `EvalLog`:
 * `{version, status, eval, plan, results, stats, error, samples, reductions}`,
 * src/inspect_ai/log/_log.py). Each element of `samples[]` is an `EvalSample`:
 * one epoch of one dataset sample, i.e. one trial (`epoch` -> trial); the log's
 * `eval` (EvalSpec: `run_id`, `task`, `model`, `config.time_limit`), read before
 * the samples, gives every trial its run and model.
 *
 * Status of the sample's final attempt, the first rule that applies:
 * 1. `error` (EvalError: the sample was halted by an error and not scored) ->
 *    aborted, `status_detail` `sample_error`, the message as `error_message`;
 *    fault environment by DESIGN section 3's default.
 * 2. `limit` (EvalSampleLimit `{type, limit}`: a limit halted the sample, which
 *    Inspect then scores as it stands) -> LIMIT_STATUS, `status_detail`
 *    `<type>_limit`; a time limit's value is the attempt's `timeout_limit_s`.
 * 3. the first scorer's value in `scores`, read as Inspect's `value_to_float`
 *    does (`C` 1, `P` 0.5, `I` and `N` 0, booleans, numbers): 1 -> success,
 *    below -> failure.
 * 4. no score -> status `unscored` (unrecognized: counted in total only).
 * Every element of `error_retries` (EvalRetryError: errors Inspect retried, with
 * `retry_on_error`) is an earlier attempt of the same trial, aborted, in order;
 * the sample itself is the last attempt.
 */
import { numberOf, objectOf, stemOf, textOf } from "./shared.js";
import type { Adapted, FormatAdapter } from "./types.js";

/**
 * EvalSampleLimit.type -> status. `time` (wall clock) and `working` (time
 * spent working) are time budgets: timeouts, late passes when the score passed
 * anyway. `operator` is a person or the harness stopping the sample: aborted.
 * A message, token, cost or context limit ends a run the agent did not finish
 * within its budget: a failure whatever Inspect's score of what it left (the
 * score is kept in `score`; Inspect's own accuracy counts such a pass).
 */
export const LIMIT_STATUS: Readonly<Record<string, string>> = {
  time: "timeout",
  working: "timeout",
  operator: "aborted",
  message: "failure",
  token: "failure",
  cost: "failure",
  context: "failure",
  custom: "failure",
};

/** Inspect's letter grades as value_to_float reads them. */
const GRADES: Readonly<Record<string, number>> = { C: 1, P: 0.5, I: 0, N: 0 };

export const inspectFormat: FormatAdapter = {
  name: "inspect",
  describes: "Inspect AI eval log (.json): samples[] with epoch, scores, error, limit, error_retries; eval header",
  containerKeys: ["samples"],
  detect: (r) => r.id !== undefined && typeof r.epoch === "number" && "input" in r && "target" in r,
  adapt(record, context): Adapted {
    const spec = objectOf(context.header?.eval);
    const config = objectOf(spec?.config);
    const base: Record<string, unknown> = {
      run_id: textOf(spec?.run_id) ?? textOf(spec?.eval_id) ?? stemOf(context.source),
      task_id: record.id,
      trial: record.epoch,
      model: textOf(spec?.model),
      inspect_task: textOf(spec?.task),
      timeout_limit_s: numberOf(config?.time_limit),
    };
    const retries = Array.isArray(record.error_retries) ? record.error_retries : [];
    const attempts: Record<string, unknown>[] = retries.map((e, i) => ({
      ...base,
      attempt: i + 1,
      status: "aborted",
      status_detail: "sample_error",
      error_message: textOf(objectOf(e)?.message) ?? "retried error",
    }));
    const score = firstScore(record.scores);
    const last: Record<string, unknown> = {
      ...base,
      attempt: retries.length + 1,
      score,
      started_at: record.started_at ?? null,
      ended_at: record.completed_at ?? null,
      ...usage(record.model_usage),
      sample_uuid: record.uuid ?? null,
      total_time_s: numberOf(record.total_time),
      working_time_s: numberOf(record.working_time),
    };
    const error = objectOf(record.error);
    const limit = objectOf(record.limit);
    if (error || (typeof record.error === "string" && record.error !== "")) {
      const message = error ? textOf(error.message) : (record.error as string);
      attempts.push({ ...last, status: "aborted", status_detail: "sample_error", error_message: message ?? "error" });
    } else if (limit) {
      const type = textOf(limit.type)?.trim().toLowerCase() ?? "unknown";
      const status = LIMIT_STATUS[type] ?? "failure";
      const extra = status === "timeout" && numberOf(limit.limit) !== null ? { timeout_limit_s: limit.limit } : {};
      attempts.push({ ...last, ...extra, status, status_detail: `${type}_limit` });
    } else if (score === null) {
      attempts.push({ ...last, status: "unscored" });
    } else {
      attempts.push({ ...last, status: score >= 1 ? "success" : "failure" });
    }
    return { attempts };
  },
};

/** The first scorer's value as a number (Inspect's value_to_float), or null when there is none or it is not a single value. */
export function firstScore(scores: unknown): number | null {
  const all = objectOf(scores);
  if (!all) return null;
  const first = Object.values(all)[0];
  const value = objectOf(first)?.value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value !== "string") return null;
  if (value in GRADES) return GRADES[value];
  const word = value.trim().toLowerCase();
  if (word === "yes" || word === "true") return 1;
  if (word === "no" || word === "false") return 0;
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) ? n : null;
}

/** Tokens and spend over every model of `model_usage` (ModelUsage: total_tokens, total_cost when recorded). */
function usage(modelUsage: unknown): { llm_tokens: number | null; cost_usd: number | null } {
  const models = Object.values(objectOf(modelUsage) ?? {}).map(objectOf);
  const tokens = models.map((m) => numberOf(m?.total_tokens)).filter((v): v is number => v !== null);
  const costs = models.map((m) => numberOf(m?.total_cost)).filter((v): v is number => v !== null);
  return {
    llm_tokens: tokens.length ? tokens.reduce((a, b) => a + b, 0) : null,
    cost_usd: costs.length && costs.length === models.length ? costs.reduce((a, b) => a + b, 0) : null,
  };
}
