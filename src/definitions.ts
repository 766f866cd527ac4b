/**
 * The user-settable definitions behind every figure: extra status aliases, the
 * timeout classifier's thresholds, the expected tasks (`--expect`) and the
 * grouping key (`--by`). Kept apart from the commands so that the CLI can check
 * flags without loading DuckDB.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { UsageError } from "./errors.js";

/**
 * `--floor INPUT`: a trivial or oracle agent's records on the same tasks, read
 * in a session of their own; every cell of the grid then shows the floor's rate
 * and the lift over it (queries: floor_lift, floor_coverage; docs/metrics.md).
 */
export interface Floor {
  /** the floor's inputs, as given */
  inputs: string[];
  /** the floor's own grid: each cell's successes over its trials (counts, not rates) */
  cells: { basis: string; denominator: string; successes: number; count: number }[];
  /** the tasks the floor has records of */
  tasks: string[];
}

/** The canonical statuses a `--status-map` pair may map to (docs/metrics.md). */
export const CANONICAL_STATUSES = ["success", "failure", "timeout", "aborted", "invalid"] as const;

/** Timeout classifier thresholds (docs/metrics.md). */
export interface Thresholds {
  /** queue wait / timeout_limit_s at or above which a timeout is `queue`; a fraction, default 0.25 */
  queueShare: number;
  /** identical consecutive calls at or above which a timeout is `loop`; default 5 */
  loopMin: number;
  /** mean of the last third of gaps / mean of the first third at or above which it is `sluggish`; default 2 */
  sluggishRatio: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 };

/**
 * Parses `--status-map FROM=TO` pairs. Throws UsageError naming the pair when it
 * has no `=` or TO is not a canonical status.
 */
export function parseStatusMap(pairs: readonly string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.lastIndexOf("=");
    const from = pair.slice(0, eq).trim().toLowerCase();
    const to = pair
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (eq <= 0 || from === "") throw new UsageError(`--status-map ${pair}: expected FROM=TO, e.g. --status-map unsuccessful=failure`);
    if (!(CANONICAL_STATUSES as readonly string[]).includes(to))
      throw new UsageError(`--status-map ${pair}: ${JSON.stringify(to)} is not a status; use one of ${CANONICAL_STATUSES.join(", ")}`);
    map[from] = to;
  }
  return map;
}

/**
 * Parses `--success-threshold X`: a number >= 0 (`7`, `0.5`, `1e-3`), the
 * score at or above which an attempt whose status a score decided is a
 * success (docs/metrics.md, Scores; queries: stg_score_rule). Null when
 * absent. Throws UsageError naming the flag for anything else (`abc`, `-1`,
 * `7%`, empty, Infinity).
 */
export function parseSuccessThreshold(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  const x = /^[+]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(x) || x < 0)
    throw new UsageError(
      `--success-threshold ${value}: expected a number >= 0 on the scores' own scale, e.g. --success-threshold 7 (a grade of 7 or more out of 10 is a success)`,
    );
  return x;
}

/**
 * `--rerun-of RERUN=ORIGINAL`: the run whose run_id is RERUN re-ran trials of the
 * run ORIGINAL, so its attempts are further attempts of ORIGINAL's trials (the
 * first try kept; queries: run_reruns, rerun_attempts).
 */
export interface RerunPair {
  rerun: string;
  original: string;
}

/**
 * Parses `--rerun-of RERUN=ORIGINAL` pairs (run_ids as the inventory lists
 * them). Throws UsageError naming the pair when it has no `=`, a side is empty,
 * both sides are one run, one re-run is given two originals, or a run is both a
 * re-run and an original (one level only).
 */
export function parseReruns(pairs: readonly string[]): RerunPair[] {
  const out: RerunPair[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const rerun = pair.slice(0, eq).trim();
    const original = pair.slice(eq + 1).trim();
    if (eq <= 0 || rerun === "" || original === "")
      throw new UsageError(`--rerun-of ${pair}: expected RERUN=ORIGINAL, two run_ids (the inventory lists them), e.g. --rerun-of c5b3178a=8c5fa7a7`);
    if (rerun === original) throw new UsageError(`--rerun-of ${pair}: a run cannot re-run itself; name the later run, then the earlier one`);
    const earlier = out.find((p) => p.rerun === rerun);
    if (earlier && earlier.original !== original)
      throw new UsageError(`--rerun-of ${pair}: run ${rerun} is already a re-run of ${earlier.original}; a re-run has one original`);
    if (out.some((p) => p.original === rerun) || out.some((p) => p.rerun === original))
      throw new UsageError(`--rerun-of ${pair}: a run is both a re-run and an original; name each re-run with the first run it re-runs`);
    if (!earlier) out.push({ rerun, original });
  }
  return out;
}

/**
 * Parses the classifier flags (`--queue-share`, `--loop-min`, `--sluggish-ratio`) as given
 * on the command line. Throws UsageError naming the flag when a value is out of range.
 */
export function parseThresholds(flags: { queueShare: string; loopMin: string; sluggishRatio: string }): Thresholds {
  const queueShare = Number(flags.queueShare);
  if (!(queueShare > 0 && queueShare <= 1)) throw new UsageError(`--queue-share ${flags.queueShare}: expected a fraction in (0, 1], e.g. 0.25`);
  const loopMin = Number(flags.loopMin);
  if (!Number.isInteger(loopMin) || loopMin < 2) throw new UsageError(`--loop-min ${flags.loopMin}: expected a whole number >= 2, e.g. 5`);
  const sluggishRatio = Number(flags.sluggishRatio);
  if (!(sluggishRatio > 1)) throw new UsageError(`--sluggish-ratio ${flags.sluggishRatio}: expected a number > 1, e.g. 2`);
  return { queueShare, loopMin, sluggishRatio };
}

/** The timeout causes of docs/metrics.md, in rule order: the first rule that fires wins. */
export const TIMEOUT_CAUSES = ["queue", "external", "loop", "sluggish", "unknown"] as const;
export type TimeoutCause = (typeof TIMEOUT_CAUSES)[number];

/** Parses `--cause NAME` (case-insensitive). Throws UsageError listing the causes when NAME is none of them. */
export function parseCause(value: string): TimeoutCause {
  const cause = value.trim().toLowerCase();
  if (!(TIMEOUT_CAUSES as readonly string[]).includes(cause))
    throw new UsageError(`--cause ${value}: not a timeout cause; use one of ${TIMEOUT_CAUSES.join(", ")}`);
  return cause as TimeoutCause;
}

/**
 * What `denom export --what` writes. Rows: trials (view trials), attempts
 * (attempts_classified), rejects, timeouts (attempt_timeout_cause). Figures, each
 * for every trial or per group of `--by`: rates (the grid with its 95% interval),
 * pass_at_k (pass@k and pass^k with intervals), durations (per attempt status and
 * over all), efficiency (time, tokens, cost, retries), per_success (cost, tokens and
 * agent time per solved task under each denominator), per_call (call-level
 * outcomes), timeout_causes. Here, not in commands/export.ts, so the flags are
 * wired without loading DuckDB.
 */
export const EXPORT_WHAT = [
  "trials",
  "attempts",
  "rejects",
  "timeouts",
  "rates",
  "pass_at_k",
  "durations",
  "efficiency",
  "per_success",
  "per_call",
  "timeout_causes",
] as const;
export type ExportWhat = (typeof EXPORT_WHAT)[number];

/** The grouping keys of `--by` (docs/metrics.md): canonical attempt fields. */
export const GROUP_KEYS = ["run_id", "agent", "model", "category", "difficulty", "invocation"] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];

/**
 * The tasks a run was meant to cover (`--expect FILE` or `--expect-count N`). Every run
 * owes each expected task one trial per trial slot it used; an expected task with no
 * record enters `total` as status `missing`, fault environment (docs/metrics.md).
 */
export interface Expectation {
  /** the task ids of `--expect FILE`, trimmed, blank lines dropped, first occurrence kept; null with `--expect-count` */
  tasks: string[] | null;
  /** `--expect-count N`: how many tasks each run should hold; null with `--expect FILE` */
  count: number | null;
  /** where the expectation came from, for the meta block: the file name, or `--expect-count N` */
  source: string;
  /** ids listed more than once in the file (counted once) */
  duplicates: number;
}

/**
 * Reads `--expect FILE` (one task id a line) or checks `--expect-count N`; null when
 * neither is given. Throws UsageError naming the flag when the file cannot be read,
 * lists no id, N is not a whole number >= 1, or both flags are given.
 */
export function parseExpectation(flags: { expect?: string; expectCount?: string }): Expectation | null {
  if (flags.expect !== undefined && flags.expectCount !== undefined)
    throw new UsageError("--expect and --expect-count: give one of them (a list of task ids, or how many tasks)");
  if (flags.expectCount !== undefined) {
    const count = Number(flags.expectCount);
    if (!Number.isInteger(count) || count < 1)
      throw new UsageError(`--expect-count ${flags.expectCount}: expected a whole number >= 1, e.g. --expect-count 500`);
    return { tasks: null, count, source: `--expect-count ${count}`, duplicates: 0 };
  }
  if (flags.expect === undefined) return null;
  let text: string;
  try {
    text = readFileSync(flags.expect, "utf8");
  } catch (e) {
    throw new UsageError(
      `--expect ${flags.expect}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a file with one task id a line`,
    );
  }
  const ids = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const tasks = [...new Set(ids)];
  if (tasks.length === 0) throw new UsageError(`--expect ${flags.expect}: the file lists no task id; give one task id a line`);
  return { tasks, count: null, source: flags.expect, duplicates: ids.length - tasks.length };
}

/** `--exclude-tasks FILE`: task ids known to be broken, each with its reason; they leave the `validated` denominator. */
export interface ExcludedTasks {
  /** the file as given */
  file: string;
  /** sha256 of the file's bytes, hex */
  sha256: string;
  /** in file order, the first listing of an id kept */
  tasks: { task_id: string; reason: string }[];
}

/**
 * Reads `--exclude-tasks FILE`: one task a line, `TASK_ID REASON` (the id, then
 * a tab or spaces, then why it is excluded); blank lines and lines starting
 * with `#` are skipped. Null without the flag. Throws UsageError naming the file
 * and line for a line without a reason, an id listed twice, or a file that
 * cannot be read or lists nothing.
 */
export function parseExcludedTasks(file: string | undefined): ExcludedTasks | null {
  if (file === undefined) return null;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new UsageError(`--exclude-tasks ${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const tasks: ExcludedTasks["tasks"] = [];
  const seen = new Map<string, number>();
  bytes
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return;
      const m = /^(\S+)\s+(.+)$/.exec(line);
      if (!m)
        throw new UsageError(
          `--exclude-tasks ${file}:${i + 1}: "${line}" has no reason; write TASK_ID REASON (e.g. "django__django-11099 tests fail on the gold patch")`,
        );
      const first = seen.get(m[1]);
      if (first !== undefined) throw new UsageError(`--exclude-tasks ${file}:${i + 1}: task ${m[1]} is listed again (first on line ${first}); list it once`);
      seen.set(m[1], i + 1);
      tasks.push({ task_id: m[1], reason: m[2] });
    });
  if (!tasks.length) throw new UsageError(`--exclude-tasks ${file}: the file lists no task; write one TASK_ID REASON a line`);
  return { file, sha256: createHash("sha256").update(bytes).digest("hex"), tasks };
}

/**
 * Parses `--min-tasks N` of the gates (`gate`, `compare --fail-if-worse`): a whole
 * number >= 1; `fallback` when absent. Throws UsageError naming the flag otherwise.
 */
export function parseMinTasks(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--min-tasks ${value}: expected a whole number >= 1, e.g. --min-tasks 30`);
  return n;
}

/**
 * `--label A=NAME,B=NAME` (or the flag twice, `--label A=x --label B=y`): the
 * names of compare's two sides. Either side may be left out (it keeps its
 * default name). Throws UsageError for a part that is not A=... or B=..., an
 * empty name, or a side named twice.
 */
export function parseLabels(values: readonly string[]): { baseline?: string; candidate?: string } {
  const labels: { baseline?: string; candidate?: string } = {};
  for (const part of values.flatMap((v) => v.split(/,(?=\s*[AaBb]\s*=)/))) {
    const m = /^\s*([AaBb])\s*=(.*)$/s.exec(part);
    const name = m?.[2].trim();
    if (!m || !name) throw new UsageError(`--label ${part}: expected A=NAME or B=NAME (e.g. --label A=gpt-4o,B=claude)`);
    const side = m[1].toUpperCase() === "A" ? "baseline" : "candidate";
    if (labels[side] !== undefined) throw new UsageError(`--label names ${m[1].toUpperCase()} twice; give it once`);
    labels[side] = name;
  }
  return labels;
}
