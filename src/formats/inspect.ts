/**
 * Inspect AI eval logs, both forms: `.json` (UKGovernmentBEIS/inspect_ai,
 * `EvalLog`: `{version, status, eval, plan, results, stats, error, samples,
 * reductions}`, src/inspect_ai/log/_log.py) and `.eval` archives (read member
 * by member by inspect-eval.ts, which hands each sample here with the
 * header). Each `EvalSample` is one epoch of one dataset sample, i.e. one
 * trial (`epoch` -> trial).
 *
 * Identity: a run is one eval, one task x one model
 * (`eval.eval_id`; logs older than eval_id: run_id/task_id/model). The task id
 * carries the Inspect task (`popularity/17`), since sample ids are numbered
 * from 1 in every task. `eval.eval_set_id` (else `eval.run_id`: one `inspect
 * eval` call over several tasks and models) is kept as `invocation`, which
 * `--by invocation` groups by. The header itself is read once per log (`header`
 * below): its status, error, sample counts and the trials it owes
 * (`eval.dataset.sample_ids` x `eval.config.epochs`), which enter `total` as
 * missing when no sample was written for them.
 *
 * Status of the sample's final attempt, the first rule that applies:
 * 1. `error` (EvalError: the sample was halted by an error and not scored) ->
 *    aborted, `status_detail` `sample_error`, the message as `error_message`;
 *    fault environment by the status model's default (docs/metrics.md).
 * 2. `limit` (EvalSampleLimit `{type, limit}`: a limit halted the sample, which
 *    Inspect then scores as it stands) -> LIMIT_STATUS, `status_detail`
 *    `<type>_limit`; a time or working limit's value is the attempt's `timeout_limit_s`.
 * 3. the first scorer's value in `scores`, read as Inspect's `value_to_float`
 *    does (`C` 1, `P` 0.5, `I` and `N` 0, booleans, numbers, numeric strings
 *    such as a grade "7"): 1 -> success, below -> failure, on the 0-1 scale
 *    the format declares (traits.scoreScale); the attempt is marked
 *    `score_decides`, so that a run whose scores leave [0, 1] (grades 0-10) is
 *    unscored, or decided by `--success-threshold X` (queries: stg_score_rule).
 *    A dict value (`{"problem": 1, "subproblem": 0.4}`) is
 *    read at `--score-key KEY`; without it the trial is unscored and its keys
 *    are kept (`score_keys`) for the report to name.
 * 4. no score -> status `unscored` (unrecognized: counted in total only).
 * Every element of `error_retries` (EvalRetryError: errors Inspect retried, with
 * `retry_on_error`) is an earlier attempt of the same trial, aborted, in order;
 * the sample itself is the last attempt.
 *
 * Times: `started_at`/`completed_at` of the sample when written (Inspect >=
 * 0.3.16x), else the first model or tool event's timestamp and that plus `total_time`
 * seconds. `waiting_s` = `total_time - working_time`: the time the sample
 * spent waiting (rate limits, shared resources), evidence for the timeout
 * classifier. Events: `model` -> `llm_call` (status `error`, `retried` when it
 * needed retries, else `ok`; a `pending` one is an `llm_request` still
 * waiting), `tool` -> `tool_call` (function and arguments, status `error` or
 * `ok`), `sample_limit` and `error` as themselves; the rest are not kept.
 */
import type { ArchiveReader } from "../ingest/types.js";
import { BigLiteral } from "../json-text.js";
import { inspectEvent } from "./inspect-events.js";
import { numberOf, objectOf, stemOf, textOf } from "./shared.js";
import type { Adapted, AdaptContext, FieldRead, FormatAdapter, OwedTrials, RunLog } from "./types.js";

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

/** The fields read, for `denom formats` and docs/formats/inspect.md (generated from these). */
const READS: readonly FieldRead[] = [
  {
    source: ".eval header.json",
    canonical: "the eval header",
    note: "the EvalLog without samples, read first; a later copy of the member (rewritten in place) wins",
  },
  {
    source: ".eval samples/{id}_epoch_{n}.json",
    canonical: "one trial",
    note: "a monolith sample; or chunked: `samples/{id}_epoch_{n}/sample.json` with its events in `events/{start}.json`, read in order of start",
  },
  {
    source: ".eval summaries.json, _journal/summaries/{n}.json",
    canonical: "one trial",
    note: "only a summary with no sample member, when the log completed more samples than it holds",
  },
  { source: ".eval reductions.json", canonical: "-", note: "not read: denom reduces trials itself (pass@k, rates over trials)" },
  { source: "eval.eval_id", canonical: "run_id", note: "one run per eval (one task x one model); logs older than eval_id: `run_id/task_id/model`" },
  { source: "eval.eval_set_id, eval.run_id", canonical: "invocation", note: "the eval set, else the `inspect eval` call; `--by invocation` groups by it" },
  { source: "eval.task + samples[].id", canonical: "task_id", note: "`<task>/<id>` (`popularity/17`): sample ids restart at 1 in every task" },
  { source: "samples[].epoch", canonical: "trial", note: "1-based epoch" },
  { source: "samples[].error_retries[]", canonical: "attempt", note: "each retried error is an earlier attempt, aborted; the sample is the last" },
  { source: "samples[].error", canonical: "status aborted", note: "detail `sample_error`; wins over a limit and a score" },
  {
    source: "samples[].limit.type",
    canonical: "status",
    note: "time, working: timeout; operator: aborted; message, token, cost, context, custom: failure (detail `<type>_limit`)",
  },
  {
    source: "samples[].scores (first scorer)",
    canonical: "status, score",
    note: 'C 1, P 0.5, I/N 0, booleans, numbers and numeric strings on a 0-1 scale: 1 success, below failure; a run with a score outside [0, 1] (grades "0".."10") is unscored unless `--success-threshold X`; a dict value needs `--score-key KEY`, else unscored',
  },
  {
    source: "eval.config.time_limit, working_limit, limit.limit",
    canonical: "timeout_limit_s",
    note: "the limit of the type that stopped the sample, else time_limit",
  },
  {
    source: "samples[].started_at, completed_at",
    canonical: "started_at, ended_at",
    note: "else the first model or tool event's timestamp, and that plus total_time",
  },
  {
    source: "samples[].total_time - working_time",
    canonical: "waiting_s",
    note: "time spent waiting (rate limits, shared resources): queue evidence for a timeout",
  },
  { source: "samples[].model_usage", canonical: "llm_tokens, cost_usd", note: "total_tokens summed over models; total_cost when every model has one" },
  { source: "samples[].events[] model", canonical: "events llm_call", note: "status error, retried (retries > 0) or ok; pending: llm_request still waiting" },
  { source: "samples[].events[] tool", canonical: "events tool_call", note: "function and arguments (loop detection), status error or ok; tool_call_count" },
  { source: "eval.model", canonical: "model", note: "every trial of the eval; `--by model`" },
  { source: "status, error.message", canonical: "meta run_logs[]", note: "the log's own status (started, success, cancelled, error) and error, per run" },
  { source: "results.total_samples, completed_samples", canonical: "meta run_logs[]", note: "as the log counts them (sample x epoch)" },
  { source: "eval.dataset.sample_ids x eval.config.epochs", canonical: "missing trials", note: "owed trials with no sample enter total as missing" },
  {
    source: ".json keys after samples",
    canonical: "meta run_logs[]",
    note: "a .json log's keys are read in any order: results and status written after its samples are the run log's too",
  },
  {
    source: ".json without samples",
    canonical: "meta run_logs[]",
    note: "a log of its header only: its status shown, the samples it owes counted missing; never a record",
  },
  {
    source: "_journal/start.json (no header.json)",
    canonical: "meta run_logs[] status started",
    note: ".eval only: a log still running or crashed, flagged incomplete; its samples are read",
  },
];

export const inspectFormat: FormatAdapter & { archive: ArchiveReader } = {
  name: "inspect",
  describes: "Inspect AI eval log (.eval archive or .json): one run per eval; samples with epoch, scores, error, limit, error_retries, events; the eval header",
  success:
    "the first scorer's value on a 0-1 scale: C, true or 1 (P = 0.5 and any value below 1 fail); a run with a score outside [0, 1] (grades 0-10) is unscored, decided only by `--success-threshold X` (score >= X); a dict-valued score decides only with `--score-key KEY`",
  traits: { scoreScale: "0-1", subBenchmark: { field: "inspect_task", one: "Inspect task", many: "Inspect tasks" } },
  reads: READS,
  containerKeys: ["samples"],
  // imported with the first .eval read: a report of other inputs never loads the archive reader
  archiveEndings: ["eval"],
  archive: async (zip, sink) => (await import("./inspect-eval.js")).readEvalArchive(zip, sink),
  sideFiles: {
    // Files Inspect AI writes beside its logs that hold no trial: the log directory listing
    // (`logs.json`, a viewer bundle's `listing.json`) and the eval set manifest (`eval-set.json`).
    // Each log's own header carries its eval set id, so they are skipped with a note (meta block),
    // never read as records.
    names: /^(logs|listing|eval-set)\.json$/i,
    reason: "Inspect log listing or eval-set manifest: the logs beside it carry the same ids, so it is not read",
  },
  shapes: [
    {
      kind: "an EvalSample (samples[] of a .json log, a sample member of an .eval)",
      required: { id: ["string", "number"], epoch: "number", input: "any", target: "any" },
    },
  ],
  header: {
    detect: (h) => objectOf(h.eval) !== null && textOf(objectOf(h.eval)?.task) !== null,
    adapt: (h, context) => runLog(h, context),
  },
  adapt(record, context): Adapted {
    const spec = objectOf(context.header?.eval);
    const config = objectOf(spec?.config);
    const task = textOf(spec?.task);
    const base: Record<string, unknown> = {
      run_id: runIdOf(spec, context.source),
      invocation: invocationOf(spec),
      task_id:
        task !== null && (typeof record.id === "string" || typeof record.id === "number" || record.id instanceof BigLiteral)
          ? `${task}/${String(record.id)}`
          : record.id,
      trial: record.epoch,
      model: textOf(spec?.model),
      inspect_task: task,
      inspect_sample_id: record.id,
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
    const { score, keys } = firstScore(record.scores, context.scoreKey ?? null);
    const events = (Array.isArray(record.events) ? record.events : [])
      .map((e) => (objectOf(e)?.event !== undefined ? inspectEvent(e) : objectOf(e)))
      .filter((e): e is Record<string, unknown> => e !== null);
    const total = numberOf(record.total_time);
    const working = numberOf(record.working_time);
    const started = record.started_at ?? (events.length ? events[0].ts : null);
    const ended = record.completed_at ?? (typeof started === "string" && total !== null ? shiftIso(started, total) : null);
    const last: Record<string, unknown> = {
      ...base,
      attempt: retries.length + 1,
      score,
      started_at: started ?? null,
      ended_at: ended ?? null,
      ...usage(record.model_usage),
      tool_call_count: events.length ? events.filter((e) => e.type === "tool_call").length : null,
      events,
      sample_uuid: record.uuid ?? null,
      total_time_s: total,
      working_time_s: working,
      waiting_s: total !== null && working !== null ? Math.max(0, total - working) : null,
    };
    if (keys) last.score_keys = keys;
    const error = objectOf(record.error);
    const limit = objectOf(record.limit);
    if (error || (typeof record.error === "string" && record.error !== "")) {
      const message = error ? textOf(error.message) : (record.error as string);
      attempts.push({ ...last, status: "aborted", status_detail: "sample_error", error_message: message ?? "error" });
    } else if (limit) {
      const type = textOf(limit.type)?.trim().toLowerCase() ?? "unknown";
      const status = LIMIT_STATUS[type] ?? "failure";
      const budget = numberOf(limit.limit) ?? (type === "working" ? numberOf(config?.working_limit) : null);
      const extra = status === "timeout" && budget !== null ? { timeout_limit_s: budget } : {};
      attempts.push({ ...last, ...extra, status, status_detail: `${type}_limit` });
    } else if (score === null) {
      attempts.push({ ...last, status: "unscored", ...(keys ? { status_detail: "dict_score" } : {}) });
    } else {
      // the declared 0-1 rule; a run off that scale is unscored in SQL (stg_score_rule)
      attempts.push({ ...last, status: score >= 1 ? "success" : "failure", score_decides: true });
    }
    return { attempts };
  },
};

/** The run of one eval: `eval.eval_id`; logs written before eval_id existed: run_id/task_id/model (one eval each); else the file's name. */
function runIdOf(spec: Record<string, unknown> | null, source: string): string {
  const evalId = textOf(spec?.eval_id);
  if (evalId !== null) return evalId;
  const parts = [textOf(spec?.run_id), textOf(spec?.task_id) ?? textOf(spec?.task), textOf(spec?.model)].filter((p): p is string => p !== null);
  return parts.length ? parts.join("/") : stemOf(source);
}

/** The eval set of the run, else the `inspect eval` call it came from. */
function invocationOf(spec: Record<string, unknown> | null): string | null {
  return textOf(spec?.eval_set_id) ?? textOf(spec?.run_id);
}

/** What an Inspect header says of its run (types.ts RunLog). */
function runLog(h: Record<string, unknown>, context: AdaptContext): RunLog {
  const spec = objectOf(h.eval);
  const config = objectOf(spec?.config);
  const results = objectOf(h.results);
  const task = textOf(spec?.task);
  const ids = objectOf(spec?.dataset)?.sample_ids;
  const epochs = numberOf(config?.epochs) ?? 1;
  const owed: OwedTrials[] = [];
  if (Array.isArray(ids) && task !== null && Number.isInteger(epochs) && epochs >= 1) {
    for (const id of ids) {
      if (typeof id !== "string" && typeof id !== "number") continue;
      for (let e = 1; e <= epochs; e++) owed.push({ task_id: `${task}/${String(id)}`, trial: e });
    }
  }
  const status = textOf(h.status);
  const detail = {
    eval_id: spec?.eval_id ?? null,
    run_id: spec?.run_id ?? null,
    eval_set_id: spec?.eval_set_id ?? null,
    task_id: spec?.task_id ?? null,
    inspect_ai: objectOf(spec?.packages)?.inspect_ai ?? null,
  };
  return {
    run_id: runIdOf(spec, context.source),
    invocation: invocationOf(spec),
    task,
    model: textOf(spec?.model),
    status,
    error_message: textOf(objectOf(h.error)?.message) ?? (typeof h.error === "string" ? textOf(h.error) : null),
    total_samples: numberOf(results?.total_samples),
    completed_samples: numberOf(results?.completed_samples),
    incomplete: status === "started",
    detail: JSON.stringify(detail),
    owed,
  };
}

/** An ISO 8601 timestamp `seconds` later, or null when it does not parse. */
function shiftIso(iso: string, seconds: number): string | null {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? new Date(t + seconds * 1000).toISOString() : null;
}

/**
 * The first scorer's value as a number (Inspect's value_to_float), or null
 * when there is none or it is not a single value. A dict value is read at
 * `key`; without a key (or a key it lacks) the score is null and `keys` lists
 * the dict's keys.
 */
export function firstScore(scores: unknown, key: string | null = null): { score: number | null; keys: string[] | null } {
  const all = objectOf(scores);
  if (!all) return { score: null, keys: null };
  const first = Object.values(all)[0];
  const value = objectOf(first)?.value;
  const dict = objectOf(value);
  if (dict) {
    if (key !== null && key in dict) return { score: scalarScore(dict[key]), keys: null };
    return { score: null, keys: Object.keys(dict) };
  }
  return { score: scalarScore(value), keys: null };
}

/** One score value as value_to_float reads it, or null. */
function scalarScore(value: unknown): number | null {
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
