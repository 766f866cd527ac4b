/**
 * SkillsBench leaderboard results (benchflow-ai/skillsbench-leaderboard
 * `results/<submission>.json`, read by AgentBeats with DuckDB): `{status,
 * participants {agent: <purple agent id>, green}, results [...]}`, where
 * `results` holds the public rows themselves (the flat layout) or one
 * `{status, participants, results [rows]}` per shard (the nested layout). A
 * row: `{task_id, trial_id, task_set, condition (with_skills / without_skills),
 * score_eligible, passed, reward, max_score, time_used, category, difficulty,
 * infra_failure_type, error_type, ...}`.
 *
 * One row is one trial (trial 0, attempt 1) of its task. A row with an
 * `infra_failure_type` is the infrastructure's failure (aborted, its type the
 * detail); a row the worker marked `score_eligible: false` without one is
 * aborted too (`not_score_eligible`): the leaderboard's queries count neither in
 * "Tasks passed"; else `passed` decides.
 */
import { numberOf, objectOf, stemOf, textOf } from "./shared.js";
import type { RecordShape } from "./shape.js";
import type { Adapted, AdaptContext, FieldRead, FormatAdapter } from "./types.js";

/** The status detail of a row the worker marked score-ineligible without naming an infrastructure failure. */
export const NOT_SCORE_ELIGIBLE = "not_score_eligible";

const ROW: RecordShape = {
  kind: "a public result row",
  required: { task_id: "string", trial_id: "string", score_eligible: "boolean", passed: "boolean", infra_failure_type: ["string", "null"] },
  optional: { reward: ["number", "null"], condition: ["string", "null"], time_used: ["number", "null"] },
};

const SHARD: RecordShape = {
  kind: "a shard's result (nested layout)",
  required: { status: "string", "participants.agent": "string", results: { items: "object" } },
  absent: ["task_id"],
};

/** Whether `row` fits the row shape (every required key with its type). */
function isRow(row: Record<string, unknown>): boolean {
  return (
    typeof row.task_id === "string" &&
    typeof row.trial_id === "string" &&
    typeof row.score_eligible === "boolean" &&
    typeof row.passed === "boolean" &&
    (row.infra_failure_type === null || typeof row.infra_failure_type === "string")
  );
}

/** The attempt of one row, its run the file's name and its agent the submission's participant (and the skills condition). */
function attemptOf(row: Record<string, unknown>, run: string, participant: string | null): Record<string, unknown> {
  const infra = textOf(row.infra_failure_type);
  const condition = textOf(row.condition);
  const status = infra !== null || row.score_eligible === false ? "aborted" : row.passed === true ? "success" : "failure";
  return {
    run_id: run,
    task_id: row.task_id,
    trial: 0,
    attempt: 1,
    status,
    status_detail: infra ?? (row.score_eligible === false ? NOT_SCORE_ELIGIBLE : null),
    score: numberOf(row.reward),
    agent: [participant, condition].filter((p) => p !== null).join(" ") || null,
    category: textOf(row.task_set),
    difficulty: textOf(row.difficulty),
    skillsbench_trial_id: row.trial_id,
    skillsbench_domain: textOf(row.category),
    skillsbench_condition: condition,
    skillsbench_time_used_s: numberOf(row.time_used),
    skillsbench_error_type: textOf(row.error_type),
  };
}

function adaptResult(record: Record<string, unknown>, context: AdaptContext): Adapted {
  const run = stemOf(context.source);
  const participant = textOf(objectOf(context.header?.participants)?.agent);
  if (!Array.isArray(record.results)) return { attempts: [attemptOf(record, run, participant)] };
  const rows = record.results as Record<string, unknown>[];
  const bad = rows.findIndex((r) => !isRow(r));
  if (bad >= 0)
    return {
      error: `skillsbench: results[${bad}] of the shard is not a result row {task_id, trial_id, score_eligible, passed, infra_failure_type} (keys ${Object.keys(rows[bad]).slice(0, 8).join(", ")}): the shard is not read`,
    };
  return { attempts: rows.map((r) => attemptOf(r, run, participant ?? textOf(objectOf(record.participants)?.agent))) };
}

const READS: readonly FieldRead[] = [
  { source: "task_id", canonical: "task_id", note: "one row = one trial (trial 0, attempt 1)" },
  { source: "(file) results/<submission>.json", canonical: "run_id", note: "the file's name: one submission, one run" },
  {
    source: "participants.agent, condition",
    canonical: "agent `<participant> <condition>`",
    note: "the submission's purple agent and the skills condition (with_skills, without_skills): each condition its own figure, never pooled",
  },
  {
    source: "infra_failure_type (not null)",
    canonical: "status aborted, status_detail the type",
    note: "the infrastructure's failure (sandbox_error, participant_error, participant_timeout): fault environment, out of `attributable`",
  },
  {
    source: "score_eligible false (no infra_failure_type)",
    canonical: `status aborted, status_detail ${NOT_SCORE_ELIGIBLE}`,
    note: 'the worker kept the row out of scoring: the leaderboard counts only eligible rows in "Tasks passed"',
  },
  {
    source: "passed",
    canonical: "status success / failure",
    note: "on a score-eligible row without an infrastructure failure: the field that decides success",
  },
  { source: "reward", canonical: "score", note: "kept; `passed` decides, not the reward" },
  { source: "task_set", canonical: "category", note: "the task set (deploy-smoke-v1, standard-v1): the benchmark the figure is about" },
  { source: "difficulty", canonical: "difficulty", note: "as written" },
  { source: "results[].results[] (nested layout)", canonical: "-", note: "a shard's rows, read as the flat layout's" },
  { source: "trial_id, category (the task's domain), time_used, error_type", canonical: "-", note: "kept in the raw record" },
];

export const skillsBenchFormat: FormatAdapter = {
  name: "skillsbench",
  describes:
    "SkillsBench leaderboard results/<submission>.json (AgentBeats): public rows with passed, reward, score_eligible, infra_failure_type; flat or per shard",
  success: "`passed` true on a row with `score_eligible` true and no `infra_failure_type` (an infrastructure failure or an ineligible row is aborted)",
  reads: READS,
  notes: ["skillsbench: a trial is one public row; the results record no retry, and no timestamps (time_used is kept raw)"],
  shapes: [ROW, SHARD],
  adapt: adaptResult,
};
