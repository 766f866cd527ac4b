/**
 * AgentCompass attempts (docs/inputs.md, the canonical attempt record): an attempt whose `status` is
 * AgentCompass's own (`completed`, `run_error`, `eval_error`,
 * `run_error_or_eval_error`: where its FATAL and ERROR issues happened) and
 * which carries `issues: [{severity, phase, code, message}]`. The canonical
 * status comes from the issues, after AgentCompass's error-handling page
 * (its error-handling page, "失败如何分级"): FATAL means infrastructure or a
 * required service failed and the result says nothing about the agent; ERROR
 * means the agent did not end normally but its output may still be graded;
 * WARNING is diagnostic only.
 *
 * An attempt whose status is `skipped` was not run. The page never names that
 * status; it says the runtime never fills a missing observation with a failure
 * or 0 ("失败对分数的影响"), and that a cancelled run or one past its overall time
 * limit starts no new work ("重试失败的工作"). So a skipped attempt says nothing
 * about the agent: aborted, fault environment, `status_detail` `skipped` (the
 * strict figure counts it; the attributable denominator leaves it out, like a
 * missing trial), whatever its issues or grade.
 *
 * Otherwise the rules are data (ISSUE_RULES), tried in order; the first that
 * matches an issue decides. With none, the grade decides: `correct`, else
 * `resolved`, else `score` (full marks, >= 1, is a success); with no grade the
 * AgentCompass status is kept as written, so the attempt is counted as unrecognized.
 */
import { basename } from "node:path";
import { count, percent, plural } from "../number-format.js";
import type { FormatAdapter, VerdictHook } from "./types.js";

/**
 * AgentCompass's own verdict on each run (view agentcompass_verdict; the error-handling page,
 * "运行失败时"), printed beside denom's grid: with any task invalidated by a final
 * FATAL the evaluation failed and `value` is null, and `reference_value` is the
 * figure over the tasks not invalidated; otherwise `value` is the formal figure
 * and `reference_value` null. Both are `passes / evaluated` (fractions; null
 * over 0). Counts are trials (AgentCompass's logical attempts): `trials =
 * evaluated + unavailable + invalidated`; `errors` is counted apart. Two lines a run.
 */
const VERDICT: VerdictHook<"report/formats/agentcompass_verdict"> = {
  key: "agentcompass_verdict",
  select: "report/formats/agentcompass_verdict",
  heading: "AgentCompass's own verdict (a task ending on a FATAL after retries is invalidated)",
  describe(rows) {
    const lines: string[] = [];
    for (const v of rows) {
      const figure = `${count(v.passes)}/${count(v.evaluated)} ${percent(v.evaluation_failed ? v.reference_value : v.value)}`;
      const name = v.run_id ?? "(default run)";
      lines.push(
        v.evaluation_failed
          ? `  ${name}: evaluation failed, no formal value (${count(v.tasks_invalidated)} of ${plural(v.tasks, "task")} invalidated); reference value ${figure} over the evaluated trials of the tasks left`
          : `  ${name}: formal value ${figure} over the evaluated trials`,
      );
      lines.push(
        `    ${plural(v.trials, "trial")} = ${count(v.evaluated)} evaluated + ${count(v.unavailable)} unavailable (no grade) + ${count(v.invalidated)} invalidated; ${count(v.errors)} ended on an ERROR`,
      );
    }
    return lines;
  },
};

/** AgentCompass's attempt statuses: with an `issues` array they mark its records. */
export const AGENTCOMPASS_STATUSES: ReadonlySet<string> = new Set(["completed", "run_error", "eval_error", "run_error_or_eval_error", "skipped"]);

/** The canonical fields of a skipped attempt (never run), and the same in words for the README. */
export const SKIPPED = { status: "aborted", fault: "environment", status_detail: "skipped" } as const;
export const SKIPPED_OUTCOME = "aborted, fault environment, `status_detail` `skipped`";

/** What a matching issue makes of the attempt. */
export type IssueOutcome = "environment" | "grader_error" | "timeout" | "limit";

/** One row of the mapping: an issue it matches, and the outcome. */
export interface IssueRule {
  severity: "fatal" | "error";
  /** the issue's code: exact, or `*_timeout` for any code ending in `_timeout`; absent = any code */
  code?: string;
  /** phases the issue may be in; absent = any phase (or none given) */
  phases?: readonly string[];
  outcome: IssueOutcome;
}

/** The phases of running the agent, before its result is evaluated. */
const RUN_PHASES = ["setup", "run", "collect"] as const;

/**
 * The mapping, in order; the first rule that matches any issue of the attempt
 * decides. A FATAL while running comes first: it is the cause, and a judge that
 * then fails on nothing is a consequence. Timeouts and limits count only
 * outside evaluation: an evaluation timeout is the grader's, and AgentCompass
 * scores it as the benchmark declares.
 */
export const ISSUE_RULES: readonly IssueRule[] = [
  { severity: "fatal", phases: RUN_PHASES, outcome: "environment" },
  { severity: "fatal", code: "judge_failed", outcome: "grader_error" },
  { severity: "fatal", phases: ["evaluate"], outcome: "grader_error" },
  { severity: "fatal", outcome: "environment" },
  { severity: "error", code: "model_timeout", phases: RUN_PHASES, outcome: "timeout" },
  // the runtime kills a harness still running after its budget plus the compensation time
  { severity: "error", code: "run_failed", phases: RUN_PHASES, outcome: "timeout" },
  // a harness reports its own timeout as an ERROR
  { severity: "error", code: "*_timeout", phases: RUN_PHASES, outcome: "timeout" },
  { severity: "error", code: "harness_max_iterations", outcome: "limit" },
  { severity: "error", code: "harness_limit_reached", outcome: "limit" },
];

/** Each outcome as canonical fields, and in words for the README. */
export const OUTCOMES: Readonly<Record<IssueOutcome, string>> = {
  environment: "aborted, fault environment, the code as `status_detail`",
  grader_error: "aborted with a grader error (the message as `grader_error`)",
  timeout: "timeout, the code as `status_detail`",
  limit: "failure, the code as `status_detail`",
};

const SEVERITIES = new Set(["fatal", "error", "warning"]);

interface Issue {
  severity: string;
  phase: string | null;
  code: string | null;
  message: string | null;
}

export const agentCompassFormat: FormatAdapter = {
  name: "agentcompass",
  describes: "AgentCompass attempts: status completed/run_error/eval_error with issues [{severity, phase, code, message}]",
  success:
    "`resolved` true, else a `score` of full marks (>= 1) on a 0-1 scale, on an attempt whose issues leave it graded; a run with a deciding score outside [0, 1] is unscored, decided only by `--success-threshold X` (score >= X)",
  // queries/formats/agentcompass/ reads these attempts; the report prints the verdict it makes of them
  traits: { ownViews: "agentcompass", scoreScale: "0-1" },
  verdict: VERDICT,
  shapes: [{ kind: "a task result", required: { issues: "array", status: { text: [...AGENTCOMPASS_STATUSES], fold: true } } }],
  adapt(record, context) {
    const issues: Issue[] = [];
    for (const [i, raw] of (record.issues as unknown[]).entries()) {
      if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { error: `issues[${i}]: expected an object` };
      const r = raw as Record<string, unknown>;
      const severity = lowerText(r.severity);
      if (severity === null || !SEVERITIES.has(severity))
        return { error: `issues[${i}].severity: expected fatal, error or warning, got ${JSON.stringify(r.severity)}` };
      issues.push({ severity, phase: lowerText(r.phase), code: lowerText(r.code), message: typeof r.message === "string" ? r.message : null });
    }
    // AgentCompass's `correct` is the verifier's verdict: `resolved` when the record has none,
    // so a timeout that passed anyway is counted as a late pass
    const out: Record<string, unknown> = { ...record, ...placement(context.source, record), agentcompass_status: record.status };
    // the attempt's final severity, as AgentCompass sorts tasks into details/fatal, error, normal:
    // its own verdict (view agentcompass_verdict) invalidates a task on a final FATAL
    out.agentcompass_severity = issues.some((x) => x.severity === "fatal")
      ? "fatal"
      : issues.some((x) => x.severity === "error")
        ? "error"
        : issues.length
          ? "warning"
          : "none";
    out.resolved = record.resolved ?? record.is_resolved ?? verdict(record.correct);
    if ((record.status as string).trim().toLowerCase() === "skipped") return { attempts: [{ ...out, ...SKIPPED }] };
    for (const rule of ISSUE_RULES) {
      const issue = issues.find((x) => matches(rule, x));
      if (!issue) continue;
      const code = issue.code ?? issue.severity;
      switch (rule.outcome) {
        case "environment":
          return { attempts: [{ ...out, status: "aborted", status_detail: code, fault: "environment" }] };
        case "grader_error":
          return { attempts: [{ ...out, status: "aborted", grader_error: issue.message?.trim() || code }] };
        case "timeout":
          return { attempts: [{ ...out, status: "timeout", status_detail: code }] };
        case "limit":
          return { attempts: [{ ...out, status: "failure", status_detail: code }] };
      }
    }
    // no deciding issue: the grade decides; without one the status stays AgentCompass's
    const graded = verdict(record.correct) ?? verdict(out.resolved);
    const scored = graded === null && typeof record.score === "number" && Number.isFinite(record.score);
    const passed = graded ?? (scored ? (record.score as number) >= 1 : null);
    // a score that decided is marked: a run of them off the 0-1 scale is unscored in SQL (stg_score_rule)
    const marks = scored ? { score_decides: true } : {};
    return { attempts: [{ ...out, ...marks, status: passed === null ? record.status : passed ? "success" : "failure" }] };
  },
};

function matches(rule: IssueRule, issue: Issue): boolean {
  if (issue.severity !== rule.severity) return false;
  if (rule.phases && (issue.phase === null || !rule.phases.includes(issue.phase))) return false;
  if (rule.code === undefined) return true;
  if (issue.code === null) return false;
  return rule.code.startsWith("*") ? issue.code.endsWith(rule.code.slice(1)) : issue.code === rule.code;
}

function lowerText(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim().toLowerCase() : null;
}

/** A pass/fail flag as the canonical `resolved` reads it: true/false or 1/0. */
function verdict(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  return v === 1 || v === 0 ? v === 1 : null;
}

/**
 * Where a task result sits in an AgentCompass run directory says which trial
 * and attempt it is (the error-handling page, "重试失败的工作"): `<run>/details/<severity>/<task>/attempt-<n>/...`
 * holds logical attempt n, an independent scoring sample: trial n - 1. Its
 * discarded retries sit in `attempt-<n>/retries/`, numbered by the first number
 * of their name (`retry-2.json`, `2/result.json`): attempt k of that trial.
 * The result kept is the last attempt: 1 + its retry count (`retries`, a number
 * or a list, or `retry_count`), so it follows its retries. The run is the folder
 * holding `details/`; the task, when the result names none, its folder. A
 * source elsewhere keeps the record's own fields.
 */
export function placement(source: string, record: Record<string, unknown>): Record<string, unknown> {
  const path = source.slice(source.lastIndexOf("!") + 1).replaceAll("\\", "/");
  const at = /(?:^|\/)attempt-(\d+)\/(.*)$/.exec(path);
  if (!at) return {};
  const placed: Record<string, unknown> = { trial: Number(at[1]) - 1 };
  const retry = /^retries\/\D*(\d+)/.exec(at[2]);
  placed.attempt = retry ? Number(retry[1]) : retryCount(record) + 1;
  const taskDir = path.slice(0, at.index);
  // the task's folder names it when the result does not
  if (record.task_id === undefined && record.instance_id === undefined && record.sample_id === undefined && record.id === undefined)
    placed.task_id = basename(taskDir) || undefined;
  const run = /^(.*?)\/?details\//.exec(taskDir + "/");
  if (run) placed.run_id = basename(run[1]) || null;
  return placed;
}

/** How many retries the kept result says it made (0 when it does not say). */
function retryCount(record: Record<string, unknown>): number {
  const v = record.retries ?? record.retry_count;
  if (Array.isArray(v)) return v.length;
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0;
}
