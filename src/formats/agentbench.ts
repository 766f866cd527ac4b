/**
 * AgentBench task-server outputs (THUDM/AgentBench `outputs/<run>/<agent>/<task>/`;
 * a real run in test/fixtures/real/agentbench-medagentbench-gemini/):
 * - `runs.jsonl`: one finished sample a line, `{index, error, info, output
 *   {index, status, result, history}, time {timestamp (ms), str}}`;
 * - `error.jsonl`: the same shape for a sample whose session failed (`error`
 *   AGENT_FAILED, NETWORK_ERROR, ...; `output.status` still `running`): aborted,
 *   never dropped;
 * - `overall.json`: the harness's own figures (`total`, `validation` shares,
 *   `custom` per task): a published claim (`denom audit --claims overall.json`);
 *   when `custom.raw_results` holds the graded samples (MedAgentBench), each is
 *   an attempt, and `runs.jsonl` beside it (the same samples, ungraded) is left
 *   out.
 *
 * A sample's grade is task-specific: `output.result.result` (a boolean, as the
 * OS-interaction task writes it) decides when present; a task that grades only
 * in `overall.json` (MedAgentBench's `custom.raw_results[].status`
 * `completedCorrect` / `completedIncorrect`) is read from there, and without
 * that file a completed sample is `ungraded` (an unrecognized status: in
 * `total`, never a success).
 */
import { UsageError } from "../errors.js";
import { fileNameOf, folderOf, jsonDocumentOf, objectOf, textOf } from "./shared.js";
import type { Adapted, FieldRead, FormatAdapter, PublishedClaim } from "./types.js";

/** AgentBench's `SampleStatus` values (src/typings/status.py) other than `completed`, and what they mean here. */
export const SAMPLE_STATUS: Readonly<Record<string, { status: string; why: string }>> = {
  "agent context limit": { status: "failure", why: "the agent ran out of context" },
  "agent validation failed": { status: "failure", why: "the agent's output broke the task's format" },
  "agent invalid action": { status: "failure", why: "the agent made an action the task rejects" },
  "task limit reached": { status: "failure", why: "the task's round limit ran out" },
  "task error": { status: "aborted", why: "the task server failed (environment)" },
  unknown: { status: "aborted", why: "the harness recorded no outcome" },
  running: { status: "aborted", why: "the session never finished" },
};

/** The raw status of a completed sample with no grade in its record. */
export const UNGRADED = "ungraded";

const READS: readonly FieldRead[] = [
  { source: "index", canonical: "task_id", note: "as written (an integer)" },
  {
    source: "(path) <agent>/<task>/runs.jsonl",
    canonical: "run_id `<agent>/<task>`, model `<agent>`, category `<task>`",
    note: "runs.jsonl and error.jsonl of one folder are one run",
  },
  {
    source: "error (not null)",
    canonical: "status aborted, status_detail the error",
    note: "error.jsonl's AGENT_FAILED (the model call failed), NETWORK_ERROR, ...: fault environment",
  },
  { source: "output.status completed + output.result.result", canonical: "status success / failure", note: "the boolean grade the OS-interaction task writes" },
  {
    source: "output.status completed, no boolean grade",
    canonical: `status ${UNGRADED}, status_detail completed`,
    note: "the grade lives only in overall.json (MedAgentBench): unrecognized, in `total`, never a success",
  },
  ...Object.entries(SAMPLE_STATUS).map(([value, m]) => ({
    source: `output.status ${value}`,
    canonical: `status ${m.status}, status_detail \`${value}\``,
    note: m.why,
  })),
  { source: "time.timestamp", canonical: "ended_at", note: "epoch milliseconds, when the sample was recorded" },
  { source: "info", canonical: "error_message", note: "the harness's text beside an error" },
];

/** The run of a sample read from `<agent>/<task>/<file>`: run_id `<agent>/<task>`, model `<agent>`, category `<task>`. */
function runOf(source: string): { run_id: string | null; model: string | null; category: string | null } {
  const agent = folderOf(source, 2);
  const task = folderOf(source, 1);
  return { run_id: agent && task ? `${agent}/${task}` : (task ?? null), model: agent, category: task };
}

export const agentBenchFormat: FormatAdapter = {
  name: "agentbench",
  describes: "AgentBench task outputs: runs.jsonl and error.jsonl, one sample a line",
  success:
    "`output.result.result` true on a completed sample (the boolean grade the task writes); a completed sample without one is `ungraded`, never a success",
  reads: READS,
  notes: [
    "an AgentBench task that grades only in overall.json (MedAgentBench: custom.raw_results) is read from it when it lies beside runs.jsonl; without it a completed sample is `ungraded`: in total, never a success",
  ],
  // MedAgentBench's overall.json repeats every sample of runs.jsonl with its grade; an
  // overall.json of another task (custom holds only rates) replaces nothing
  supersededFiles: [
    {
      file: /^runs\.jsonl$/i,
      by: /^overall\.json$/i,
      holding: '"raw_results"',
      reason: "AgentBench overall.json beside it holds the same samples with their grades (custom.raw_results, read instead)",
    },
  ],
  shapes: [{ kind: "a sample (runs.jsonl, error.jsonl)", required: { index: "any", output: "any", error: "any", time: "object" }, absent: ["task_id"] }],
  adapt(record, context) {
    const output = objectOf(record.output) ?? {};
    const run = runOf(context.source);
    const error = textOf(record.error);
    const raw = typeof output.status === "string" ? output.status.trim().toLowerCase() : null;
    let status: string;
    let detail: string | null = raw;
    if (error !== null) {
      status = "aborted";
      detail = error;
    } else if (raw === "completed") {
      const grade = objectOf(output.result)?.result;
      if (typeof grade === "boolean") status = grade ? "success" : "failure";
      else status = UNGRADED;
    } else if (raw !== null && SAMPLE_STATUS[raw]) status = SAMPLE_STATUS[raw].status;
    else status = raw ?? "unknown";
    const { index, error: _e, info, output: _o, time, ...rest } = record;
    return {
      attempts: [
        {
          ...rest,
          run_id: run.run_id,
          task_id: index,
          trial: 0,
          attempt: 1,
          status,
          status_detail: detail,
          error_message: error !== null ? [error, textOf(info)].filter(Boolean).join(": ") : null,
          ended_at: objectOf(time)?.timestamp ?? null,
          model: run.model,
          category: run.category,
          result: output.result ?? null,
        },
      ],
    };
  },
};

/** MedAgentBench's grades in `custom.raw_results[].status` (its task's calculate_overall), and what they mean. */
export const GRADED_STATUS: Readonly<Record<string, { status: string; why: string }>> = {
  completedCorrect: { status: "success", why: "completed, and the task's grader accepted the answer" },
  completedIncorrect: { status: "failure", why: "completed with a wrong answer" },
};

const RAW_RESULT_KEYS = "{index, status, result, history}";

export const agentBenchOverallFormat: FormatAdapter = {
  name: "agentbench-overall",
  describes: "AgentBench overall.json: the harness's own figures (a published claim); custom.raw_results, when present, one graded sample each",
  success: "`custom.raw_results[].status` `completedCorrect`",
  reads: [
    {
      source: "custom (accuracy, overall.acc, ...)",
      canonical: "-",
      note: "a published claim over `total` trials: `denom audit <task folder> --claims overall.json`",
    },
    { source: "total, validation", canonical: "-", note: "the sample count and each session status's share, as AgentBench computed them" },
    { source: "custom.raw_results[].index", canonical: "task_id", note: "as written (an integer); run, model and category from the folder, as for runs.jsonl" },
    ...Object.entries(GRADED_STATUS).map(([value, m]) => ({
      source: `custom.raw_results[].status ${value}`,
      canonical: `status ${m.status}`,
      note: `${m.why}: the field that decides success (runs.jsonl beside it is left out)`,
    })),
    ...Object.entries(SAMPLE_STATUS).map(([value, m]) => ({
      source: `custom.raw_results[].status ${value}`,
      canonical: `status ${m.status}, status_detail \`${value}\``,
      note: m.why,
    })),
    { source: "custom.raw_results[].history", canonical: "-", note: "the dialogue: not kept" },
  ],
  shapes: [{ kind: "the task's figures (overall.json)", required: { total: "number", validation: "object" }, absent: ["task_id", "index"] }],
  adapt: (record, context) => overallAttempts(record, context.source),
  claims: overallClaims,
};

/**
 * The graded samples of an overall.json's `custom.raw_results` as attempts, or
 * none when it has no such list (a task whose custom block holds only rates).
 * A list of another shape (not an array, an element without an integer
 * `index` or a string `status`) is an error naming the element: a grade that
 * cannot be read is never guessed.
 */
function overallAttempts(record: Record<string, unknown>, source: string): Adapted {
  const custom = objectOf(record.custom);
  if (!custom || !("raw_results" in custom)) return { attempts: [] };
  const results = custom.raw_results;
  if (!Array.isArray(results)) return { error: `agentbench-overall: custom.raw_results is ${typeOf(results)}, expected a list of ${RAW_RESULT_KEYS}` };
  const run = runOf(source);
  const attempts: Record<string, unknown>[] = [];
  for (const [i, r] of results.entries()) {
    const o = objectOf(r);
    if (!o || !Number.isInteger(o.index) || typeof o.status !== "string")
      return {
        error: `agentbench-overall: custom.raw_results[${i}] is not ${RAW_RESULT_KEYS} (index ${typeOf(o?.index)}, status ${typeOf(o?.status)}); the file's grades are not read`,
      };
    const raw = o.status.trim();
    const graded = GRADED_STATUS[raw];
    const sample = SAMPLE_STATUS[raw.toLowerCase()];
    attempts.push({
      run_id: run.run_id,
      task_id: o.index,
      trial: 0,
      attempt: 1,
      status: graded?.status ?? sample?.status ?? raw,
      status_detail: graded ? null : raw,
      model: run.model,
      category: run.category,
      result: o.result ?? null,
    });
  }
  return { attempts };
}

/** A value's JSON type, for an error: `missing`, `null`, `a string`, `a number`, `a list`, `an object`. */
function typeOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** The keys of an AgentBench overall.json `custom` block that hold a success rate (a fraction). */
const RATE_KEYS = new Set(["acc", "accuracy", "success_rate", "pass_rate"]);

/**
 * The claims of an AgentBench `overall.json` (`{total, validation, custom}`), or
 * null when `text` is not one: every fraction in [0, 1] under a rate key of
 * `custom` (`custom.accuracy`, `custom.overall.acc`), labelled with its path,
 * as printed (its decimals set the tolerance). AgentBench computes them over
 * `total` samples. Throws UsageError when the file holds none.
 */
export function overallClaims(text: string, name: string): PublishedClaim[] | null {
  const o = jsonDocumentOf(text, "{") as Record<string, unknown> | null;
  if (o === null || typeof o !== "object" || typeof o.total !== "number" || typeof o.validation !== "object") return null;
  const claims: PublishedClaim[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (v === null || typeof v !== "object" || Array.isArray(v) || depth > 2) return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      // 0 and 1 as 0% and 100%; a fraction as printed (JSON never writes 0.5 in exponent form, 1e-7 is skipped)
      const shown = typeof x === "number" ? (Number.isInteger(x) ? `${x * 100}%` : String(x)) : "";
      if (typeof x === "number" && RATE_KEYS.has(k) && x >= 0 && x <= 1 && !shown.includes("e"))
        claims.push({ claim: shown, at: ` ${path}.${k}`, label: `${path}.${k} over ${o.total} samples, ${fileNameOf(name)}` });
      else walk(x, `${path}.${k}`, depth + 1);
    }
  };
  walk(o.custom, "custom", 0);
  if (claims.length === 0) throw new UsageError(`--claims ${name}: an AgentBench overall.json without a rate under custom (${[...RATE_KEYS].join(", ")})`);
  return claims;
}
