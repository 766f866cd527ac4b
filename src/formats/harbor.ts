/**
 * Harbor job folders (`harbor run`, the harness of Terminal-Bench 2.x;
 * a real job in test/fixtures/real/harbor-openthoughts-datagen/). A job folder holds `config.json`
 * (JobConfig), `result.json` (JobResult, once the job finished) and one folder
 * per trial with `result.json` (TrialResult), `config.json` (TrialConfig),
 * `exception.txt`, `agent/` (`trajectory.json` in ATIF) and `verifier/`.
 *
 * - A TrialResult is one attempt (format `harbor`): task = `task_name`; run =
 *   `config.job_id` (Harbor's job identity, so two jobs never merge); the trial
 *   number is the trial's index among its task's repeats in `started_at` order,
 *   given in SQL (queries: stg_attempts), since Harbor's `n_attempts` launches
 *   exchangeable repeats and writes no index; the status from the reward and
 *   `exception_info.exception_type` (EXCEPTION_RULES, in order).
 * - A JobResult (`harbor-job`) holds no attempt: its `n_total_trials` is what the
 *   job owes; trials with no TrialResult enter `total` as missing.
 * - A JobConfig or TrialConfig (`harbor-config`) and an ATIF trajectory
 *   (`harbor-trajectory`) are read and mapped to nothing but the job's
 *   concurrency, so a job folder loads whole.
 *
 * Harbor deletes the folder of a trial it retries (`retry`): the attempts
 * before the last are not in the folder, so retries inside a job cannot be
 * counted (the meta block's notes say so). A second job that re-runs the first
 * job's errored trials is recognised as their further attempts (the format's
 * trait rerunRecognition; queries: run_reruns).
 */
import { isFullReward, numberOf, objectOf, PROVIDER_HTTP_ERROR, textOf } from "./shared.js";
import type { Adapted, FieldRead, FormatAdapter } from "./types.js";

/** A status rule for a trial that raised: which exception types (or message pattern), and what they mean. */
export interface ExceptionRule {
  /** exception types matched exactly, or `*` for any */
  types: readonly string[];
  /** matched against `exception_message` when set (then the types must match too) */
  message?: RegExp;
  /** `reward` = the reward decides (success when it passes), else this status */
  status: "timeout" | "aborted" | "failure" | "reward";
  /** status_detail written; `type` = the exception type itself */
  detail: string;
  /** the failure is the grader's: sets grader_error (status aborted, detail grader_error) */
  grader?: boolean;
  /** explicit fault when the status alone would say otherwise */
  fault?: "agent" | "environment";
  /** for the mapping table */
  why: string;
}

/** Setup and environment exception types (Harbor's trial/errors.py and its environments), besides a name pattern. */
const ENVIRONMENT_TYPE = /^(EnvironmentStartTimeoutError|AgentSetupTimeoutError)$|Environment|Docker|Daytona|Modal|Sandbox|Container|Image|Build|Setup/;

/**
 * How a trial that raised is read, first matching rule wins. The verifier's own
 * failures are the grader's (not the agent's); setup and environment failures,
 * provider HTTP errors and a cancelled job are the system's; an agent that exits
 * non-zero is still verified by Harbor, so its reward decides (the crash is the
 * agent's); any other exception ends a trial that says nothing about the agent
 * unless it was verified anyway.
 */
export const EXCEPTION_RULES: readonly ExceptionRule[] = [
  {
    types: ["AgentTimeoutError"],
    status: "timeout",
    detail: "AgentTimeoutError",
    why: "killed at the agent's time limit; a late pass when the reward passed anyway",
  },
  {
    types: ["VerifierTimeoutError", "RewardFileNotFoundError", "RewardFileEmptyError", "VerifierOutputParseError"],
    status: "aborted",
    detail: "grader_error",
    grader: true,
    why: "the verifier failed: not graded, not the agent's fault",
  },
  {
    types: ["*"],
    message: PROVIDER_HTTP_ERROR,
    status: "aborted",
    detail: "external_api_error",
    why: "a model provider's HTTP error (401, 402, 403, 429, 5xx) named in the message",
  },
  {
    types: [
      "EnvironmentStartTimeoutError",
      "AgentSetupTimeoutError",
      "(other types naming Environment, Docker, Daytona, Modal, Sandbox, Container, Image, Build or Setup)",
    ],
    status: "aborted",
    detail: "environment",
    why: "the sandbox or the agent's install failed before the agent ran",
  },
  {
    types: ["CancelledError", "KeyboardInterrupt"],
    status: "aborted",
    detail: "cancelled",
    why: "the job was cancelled or interrupted by its operator: not the agent's fault",
  },
  {
    types: ["NonZeroAgentExitCodeError"],
    status: "reward",
    detail: "NonZeroAgentExitCodeError",
    fault: "agent",
    why: "the agent's process exited non-zero (137 = killed); Harbor verifies it anyway, so the reward decides (failure without one)",
  },
  {
    types: ["*"],
    status: "reward",
    detail: "type",
    why: "any other exception: the reward decides when the trial was verified anyway, else aborted (environment), detail the exception type",
  },
];

/** The rule for one exception. */
export function exceptionRule(type: string, message: string): ExceptionRule {
  for (const rule of EXCEPTION_RULES) {
    const typed = rule.types.includes(type) || rule.types.includes("*") || (rule.detail === "environment" && ENVIRONMENT_TYPE.test(type));
    if (!typed) continue;
    if (rule.message && !rule.message.test(message)) continue;
    return rule;
  }
  return EXCEPTION_RULES[EXCEPTION_RULES.length - 1];
}

/**
 * The trial phases Harbor times, in order, and the `phase` events each becomes
 * (start, end). The agent's phase is named as the timeout classifier reads the
 * harness's phases (queries: attempt_facts): `agent_started` / `agent_ended`, as
 * Terminal-Bench 1's, so a timeout whose agent never started is a queue timeout;
 * the verifier's as Terminal-Bench's tests.
 */
export const PHASES: readonly (readonly [phase: string, start: string, end: string])[] = [
  ["environment_setup", "environment_setup_started", "environment_setup_ended"],
  ["agent_setup", "agent_setup_started", "agent_setup_ended"],
  ["agent_execution", "agent_started", "agent_ended"],
  ["verifier", "test_started", "test_ended"],
];

const TRIAL_READS: readonly FieldRead[] = [
  {
    source: "task_name",
    canonical: "task_id",
    note: "`task_id` (an object `{path}` or `{org, name, ref}`) is kept as `harbor_task_id`; never parsed from `trial_name` (cut to 32 characters)",
  },
  { source: "config.job_id", canonical: "run_id", note: "Harbor's job identity; the job folder's name when absent" },
  {
    source: "started_at (order)",
    canonical: "trial",
    note: "0, 1, ... in `started_at` order (then `trial_name`) among the task's trials of the job, numbered in SQL; `trial_name` kept",
  },
  {
    source: "(none)",
    canonical: "attempt 1",
    note: "Harbor deletes a retried trial's folder: retries inside a job are not recorded (meta notes); a later job over only the tasks an earlier job of the same agent, model and dataset errored on continues their trials (attempt 2, ...), as does `--rerun-of`",
  },
  {
    source: "verifier_result.rewards.reward",
    canonical: "score; status success when 1, else failure",
    note: "partial credit (0.8) is a failure with its score; the other rewards are kept in `rewards`; null with no exception: aborted, grader_error (verifier disabled or no reward)",
  },
  { source: "exception_info.exception_type", canonical: "status, status_detail", note: "first matching rule of the exception table below" },
  { source: "exception_info.exception_message", canonical: "error_message", note: "`<type>: <message>`; also searched for a provider's HTTP error" },
  { source: "started_at, finished_at", canonical: "started_at, ended_at", note: "whole trial, as written (naive times are counted)" },
  ...PHASES.map(([phase, start, end]) => ({
    source: `${phase}.started_at, .finished_at`,
    canonical: `events (phase ${start}, ${end})`,
    note: phase === "agent_execution" ? "the agent's phase: a timeout whose agent never started is a queue timeout (the sandbox or setup ate the budget)" : "",
  })),
  {
    source: "config.agent.override_timeout_sec",
    canonical: "timeout_limit_s",
    note: "capped by `max_timeout_sec`, times `agent_timeout_multiplier` (else `timeout_multiplier`); null when the limit lives in the task's task.toml",
  },
  {
    source: "agent_result.n_input_tokens + n_output_tokens",
    canonical: "llm_tokens",
    note: "as given (input includes cache; 0 is also written when nothing was reported)",
  },
  { source: "agent_result.cost_usd", canonical: "cost_usd", note: "as given (0.0 can mean no price mapping)" },
  { source: "agent_info.name, config.agent.model_name", canonical: "agent, model", note: "model falls back to `agent_info.model_info.name`" },
];

export const harborTrialFormat: FormatAdapter = {
  name: "harbor",
  describes: "Harbor job folder (Terminal-Bench 2.x): <trial>/result.json (TrialResult), one attempt each",
  success:
    "`verifier_result.rewards.reward` = 1 on a 0-1 scale (partial credit is a failure with its score); a job with a reward outside [0, 1] is unscored, decided only by `--success-threshold X` (reward >= X)",
  // no trial index in a TrialResult: queries/staging/stg_attempts.sql numbers a task's trials by start, then trial_name
  // a second job over the first job's crashed tasks is the usual way to finish a Harbor run
  traits: { trialNumbering: "start_order", trialTiebreak: "trial_name", rerunRecognition: "errored_trials", scoreScale: "0-1" },
  reads: [
    ...TRIAL_READS,
    ...EXCEPTION_RULES.map((r) => ({
      source: `exception ${r.types.join(", ")}${r.message ? " (message names a provider HTTP error)" : ""}`,
      canonical: r.status === "reward" ? `reward decides; detail ${r.detail === "type" ? "the type" : r.detail}` : `${r.status}, detail ${r.detail}`,
      note: r.why,
    })),
  ],
  notes: [
    "Harbor deletes the folder of a trial it retries inside a job (retry in the job's config.json): only each trial's last attempt of the job is in the folder, so those retries were not recorded; a later job that re-ran a job's errored trials is read as their further attempts (see the attempt ledger)",
  ],
  shapes: [
    { kind: "a TrialResult", required: { task_name: "string", trial_name: "string", agent_info: "object", verifier_result: "any", exception_info: "any" } },
  ],
  adapt: (record, context) => trialToAttempt(record, context.source),
};

function trialToAttempt(r: Record<string, unknown>, source: string): Adapted {
  const config = objectOf(r.config) ?? {};
  const agentConfig = objectOf(config.agent) ?? {};
  const agentInfo = objectOf(r.agent_info) ?? {};
  const rewards = objectOf(objectOf(r.verifier_result)?.rewards);
  const reward = numberOf(rewards?.reward);
  const passed = reward === null ? null : isFullReward(reward);
  const exception = objectOf(r.exception_info);
  const type = textOf(exception?.exception_type);
  const message = typeof exception?.exception_message === "string" ? exception.exception_message : "";
  const result = objectOf(r.agent_result) ?? {};
  const inTokens = numberOf(result.n_input_tokens);
  const outTokens = numberOf(result.n_output_tokens);

  const { status, detail, fault, graderError, decides } = trialStatus(type, message, reward, passed);

  const { id, task_id, config: _config, verifier_result: _verifier, exception_info: _exception, agent_result: _result, agent_info: _info, ...rest } = r;
  for (const [p] of PHASES) delete rest[p];
  delete rest.started_at;
  delete rest.finished_at;
  delete rest.task_name;
  const model = textOf(agentConfig.model_name) ?? textOf(objectOf(agentInfo.model_info)?.name);
  return {
    attempts: [
      {
        ...rest,
        trial_uuid: id ?? null,
        harbor_task_id: task_id ?? null,
        run_id: textOf(config.job_id) ?? jobFolder(source),
        task_id: r.task_name,
        // numbered in started_at order among the task's trials of the job (stg_attempts)
        trial: 0,
        attempt: 1,
        status,
        status_detail: detail,
        fault,
        grader_error: graderError,
        error_message: type === null ? null : message ? `${type}: ${message}` : type,
        score: reward,
        ...(decides ? { score_decides: true } : {}),
        resolved: passed,
        rewards: rewards ?? null,
        started_at: r.started_at ?? null,
        ended_at: r.finished_at ?? null,
        timeout_limit_s: agentLimit(config, agentConfig),
        llm_tokens: inTokens === null && outTokens === null ? null : (inTokens ?? 0) + (outTokens ?? 0),
        cost_usd: numberOf(result.cost_usd),
        agent: textOf(agentInfo.name),
        agent_version: textOf(agentInfo.version),
        model,
        events: phaseEvents(r),
        exception_occurred_at: exception?.occurred_at ?? null,
      },
    ],
  };
}

/**
 * A trial's canonical status from its exception (type and message; type null
 * when none was raised) and its reward: `decides` when the reward set it (its
 * 0-1 scale is checked per job in SQL: stg_score_rule), `graderError` when the
 * verifier wrote no reward or failed itself.
 */
function trialStatus(
  type: string | null,
  message: string,
  reward: number | null,
  passed: boolean | null,
): { status: string; detail: string | null; fault: string | null; graderError: string | null; decides: boolean } {
  let status: string;
  let detail: string | null = null;
  let fault: string | null = null;
  let graderError: string | null = null;
  let decides = false;
  if (type === null) {
    if (reward === null) {
      status = "aborted";
      graderError = "no verifier_result.rewards.reward (verifier disabled or wrote no reward)";
    } else {
      status = passed ? "success" : "failure";
      decides = true;
    }
  } else {
    const rule = exceptionRule(type, message);
    detail = rule.detail === "type" ? type : rule.detail;
    if (rule.grader) {
      status = "aborted";
      graderError = `${type}: ${message}`.trim();
    } else if (rule.status === "reward") {
      if (reward !== null) {
        status = passed ? "success" : "failure";
        decides = true;
      } else status = rule.fault === "agent" ? "failure" : "aborted";
      fault = rule.fault ?? null;
    } else status = rule.status;
  }
  return { status, detail, fault, graderError, decides };
}

/** The agent's time limit as Harbor computes it from the trial's config: override, capped by the maximum, times the multiplier. */
function agentLimit(config: Record<string, unknown>, agent: Record<string, unknown>): number | null {
  const base = numberOf(agent.override_timeout_sec);
  if (base === null || base <= 0) return null;
  const max = numberOf(agent.max_timeout_sec);
  const multiplier = numberOf(config.agent_timeout_multiplier) ?? numberOf(config.timeout_multiplier) ?? 1;
  const limit = (max !== null && max > 0 ? Math.min(base, max) : base) * multiplier;
  return limit > 0 ? limit : null;
}

/** Each timed phase as two `phase` events, at its start and its end (PHASES). */
function phaseEvents(r: Record<string, unknown>): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const [phase, start, end] of PHASES) {
    const timing = objectOf(r[phase]);
    if (!timing) continue;
    if (timing.started_at != null) events.push({ ts: timing.started_at, type: "phase", name: start });
    if (timing.finished_at != null) events.push({ ts: timing.finished_at, type: "phase", name: end });
  }
  return events;
}

/** The job folder of `<job>/<trial>/result.json`: the run when a trial names no job id. */
function jobFolder(source: string): string | null {
  const parts = source.replace(/!/g, "/").split("/");
  return parts.length >= 3 ? parts[parts.length - 3] : null;
}

export const harborJobFormat: FormatAdapter = {
  name: "harbor-job",
  describes: "Harbor job folder: result.json (JobResult), the trials the job owes; holds no attempt",
  reads: [
    { source: "id", canonical: "run_id", note: "the job id every TrialResult of the job carries as `config.job_id`" },
    {
      source: "n_total_trials",
      canonical: "(missing trials)",
      note: "the trials the job owes: those with no TrialResult enter `total` as missing (environment), unnamed",
    },
    { source: "stats.evals", canonical: "-", note: "Harbor's own mean reward and pass@k per agent and dataset: not read (denom recomputes from the trials)" },
  ],
  shapes: [{ kind: "a JobResult", required: { n_total_trials: "number", stats: "object", id: "any" }, absent: ["task_name"] }],
  adapt(record) {
    const n = numberOf(record.n_total_trials);
    const run = textOf(record.id);
    return {
      metadata: {
        run_id: run,
        agent: null,
        model: null,
        concurrency: null,
        owed: run !== null && n !== null && n >= 0 ? [{ task_id: null, trials: Math.floor(n) }] : [],
      },
    };
  },
};

export const harborConfigFormat: FormatAdapter = {
  name: "harbor-config",
  describes: "Harbor job folder: config.json of the job (JobConfig) or of a trial (TrialConfig); holds no attempt",
  reads: [
    {
      source: "n_concurrent_trials (older Harbor: orchestrator.n_concurrent_trials)",
      canonical: "(run metadata) concurrency",
      note: "the job's concurrency setting; the meta block's concurrency is measured from the trials' times",
    },
    {
      source: "retry (orchestrator.retry), n_attempts, timeout_multiplier, agents[].override_timeout_sec",
      canonical: "-",
      note: "read, not mapped: each TrialResult carries its own config (its time limit); retried trials are not in the folder",
    },
  ],
  shapes: [
    { kind: "a JobConfig", required: { job_name: "string", orchestrator: "object", agents: "array" } },
    {
      kind: "a JobConfig (newer: n_concurrent_trials and retry at the top level)",
      required: { job_name: "string", n_concurrent_trials: "number", retry: "object", agents: "array" },
    },
    { kind: "a TrialConfig", required: { trial_name: "string", trials_dir: "any", task: "object", agent: "object" }, absent: ["verifier_result"] },
  ],
  adapt(record) {
    if (typeof record.job_name !== "string") return { attempts: [] };
    const agent = objectOf(Array.isArray(record.agents) ? record.agents[0] : null);
    return {
      metadata: {
        run_id: null,
        agent: textOf(agent?.name),
        model: textOf(agent?.model_name),
        concurrency: numberOf(objectOf(record.orchestrator)?.n_concurrent_trials) ?? numberOf(record.n_concurrent_trials),
      },
    };
  },
};

export const harborTrajectoryFormat: FormatAdapter = {
  name: "harbor-trajectory",
  describes: "Harbor trial agent/trajectory.json (ATIF); holds no attempt",
  reads: [
    { source: "schema_version ATIF-*, steps", canonical: "-", note: "read, not mapped: the TrialResult's phases are the events; `steps` is skipped unread" },
  ],
  skipKeys: { names: /(^|[/!])trajectory(\.atif)?\.json$/i, keys: ["steps"] },
  shapes: [{ kind: "an ATIF trajectory", required: { schema_version: { prefix: "ATIF" } }, absent: ["task_id"] }],
  adapt: () => ({ attempts: [] }),
};
