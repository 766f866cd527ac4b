/**
 * `denom gate INPUT... --min CELL=X --max METRIC=Y`: checks a run for CI
 * (docs/compare.md). Each condition names a figure of the view gate_figures
 * (queries/marts/gate/gate_figures.sql): a rate cell `basis/denominator` (a fraction) or a
 * metric (timeout_rate, environment_share: fractions; constraint_violations,
 * grader_errors, rejected: counts; p95_s: seconds; cost_per_success: USD) or
 * `cost_per_success/denominator` (the spend of the trials a denominator keeps over
 * their final successes, USD; view per_success).
 * A condition on a figure that is n/a (a rate over 0 trials, no cost recorded)
 * fails: nothing shows it holds; so does one that stands on fewer tasks than
 * `--min-tasks`, and a `--max` on a cost_per_success/denominator that is a lower
 * bound (attempts without a cost). The gate fails closed whatever its conditions when the inputs
 * yielded no record, or under `--strict` when a line was rejected, a source
 * broke part-way or differing duplicates met from two sources. Nothing is
 * computed here.
 */
import { UsageError } from "../errors.js";
import type { Session } from "../db/session.js";

/** The metrics a condition may name besides the cells (basis x the session's denominators). */
export const GATE_METRICS = ["timeout_rate", "environment_share", "constraint_violations", "grader_errors", "rejected", "p95_s", "cost_per_success"] as const;
const BASES = ["first", "final"];
/** The metric named per denominator as `cost_per_success/denominator` (docs/metrics.md, "Per solved task"). */
const PER_DENOMINATOR_METRIC = "cost_per_success";
/** Metrics that are fractions, as every cell is: `85%` is read as 0.85 for them. */
const FRACTION_METRICS = ["timeout_rate", "environment_share"];

/** A condition as given: `--min TEXT` or `--max TEXT`, parsed by runGate against the session's cells. */
export interface GateConditionText {
  text: string;
  bound: "min" | "max";
}

/** One condition: `figure op threshold`; `min` holds when value >= threshold, `max` when value <= threshold. */
export interface GateCondition {
  figure: string;
  bound: "min" | "max";
  threshold: number;
}

export interface GateOptions {
  conditions: GateConditionText[];
  /** `--min-tasks N`: a condition holds only on a figure standing on at least N tasks (DEFAULT_GATE_MIN_TASKS) */
  minTasks?: number;
  /** `--strict`: a rejected line, a broken source or differing duplicates across sources fail the gate */
  strict?: boolean;
}

/**
 * The least tasks a gated figure stands on by default: one. A rate bar needs a
 * measurement, not a spread (compare's default is two: a paired difference
 * needs a standard error).
 */
export const DEFAULT_GATE_MIN_TASKS = 1;

export interface GateResult {
  /** `final/total >= 0.85` */
  condition: string;
  figure: string;
  bound: "min" | "max";
  threshold: number;
  /** the measured figure (fraction, count, seconds or USD); null when n/a */
  value: number | null;
  /** successes/count for a cell, timeouts/trials or failures/trials for a share; null for the others */
  numerator: number | null;
  denominator: number | null;
  /** the tasks the figure stands on: a cell's, those with a trial in its denominator; a metric's, every task of the run */
  tasks: number;
  /**
   * cost_per_success/denominator only: its attempts without a cost, when there are any; the
   * value is then a lower bound, and a `max` condition on it fails (nothing shows it holds)
   */
  cost_missing_attempts?: number;
  /** holds: the value is not n/a, meets the threshold, stands on at least `min_tasks` tasks, and is no lower bound under a `max` */
  passed: boolean;
}

export interface GateData {
  /** every condition holds, the inputs yielded a record, and `--strict` found nothing */
  passed: boolean;
  conditions: GateResult[];
  /** `--min-tasks` */
  min_tasks: number;
  /** the inputs yielded no record: nothing to gate (fails, exit 4) */
  empty: boolean;
  /** `--strict` and a rejected line, a broken source or differing duplicates across sources (fails, exit 1) */
  strict_failed: boolean;
  lines: number;
  records: number;
  blank: number;
  rejected: number;
  broken_sources: number;
  duplicates_across_sources: number;
}

/**
 * Parses `final/total=0.85` (or `=85%` for a fraction) of `--min`/`--max`, `denominators`
 * the chain in order (select meta/denominators): the cells are each basis over each of them.
 * A fraction's threshold is a rate in [0, 1] or a percent in [0%, 100%]: a bare
 * 35 is no rate (35%, or 0.35, is meant). Throws UsageError naming the flag when
 * the figure is unknown, X no number, or a fraction's X out of range.
 */
export function parseCondition(text: string, bound: "min" | "max", denominators: readonly string[]): GateCondition {
  const cells = BASES.flatMap((b) => denominators.map((d) => `${b}/${d}`));
  const perDenominator = denominators.map((d) => `${PER_DENOMINATOR_METRIC}/${d}`);
  const fractions = new Set<string>([...cells, ...FRACTION_METRICS]);
  const flag = `--${bound}`;
  const eq = text.indexOf("=");
  if (eq < 0) throw new UsageError(`${flag} ${text}: write FIGURE=VALUE, e.g. ${bound === "min" ? "final/total=0.85" : "timeout_rate=0.10"}`);
  const figure = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  if (!cells.includes(figure) && !(GATE_METRICS as readonly string[]).includes(figure) && !perDenominator.includes(figure))
    throw new UsageError(
      `${flag} ${text}: ${figure || "(empty)"} is no figure; use a cell basis/denominator (${cells.join(", ")}) or a metric (${GATE_METRICS.join(", ")}; ${PER_DENOMINATOR_METRIC}/denominator for each denominator)`,
    );
  const isPercent = raw.endsWith("%");
  const n = Number(isPercent ? raw.slice(0, -1) : raw);
  if (raw === "" || !Number.isFinite(n)) throw new UsageError(`${flag} ${text}: ${raw || "(empty)"} is no number`);
  if (isPercent && !fractions.has(figure)) throw new UsageError(`${flag} ${text}: ${figure} is not a rate; give a plain number`);
  const threshold = isPercent ? n / 100 : n;
  if (fractions.has(figure) && !(threshold >= 0 && threshold <= 1))
    throw new UsageError(`${flag} ${text}: ${figure} is a rate: write a fraction in [0, 1] or a percent with %, e.g. ${figure}=0.35 or ${figure}=35%`);
  return { figure, bound, threshold };
}

/** Judges every condition on the session's runs, in the order given. Throws UsageError without a condition. */
export async function runGate(session: Session, options: GateOptions): Promise<GateData> {
  if (!options.conditions.length)
    throw new UsageError("no condition given: add --min CELL=X (e.g. --min final/total=0.8) or --max METRIC=Y (e.g. --max timeout_rate=0.1)");
  const denominators = (await session.select("meta/denominators")).map((d) => d.denominator);
  const parsed = options.conditions.map((c) => parseCondition(c.text, c.bound, denominators));
  const minTasks = options.minTasks ?? DEFAULT_GATE_MIN_TASKS;
  const figures = new Map((await session.select("gate/gate_figures")).map((r) => [r.figure, r]));
  const accounting = await session.selectOne("meta/accounting");
  const conditions = parsed.map((c): GateResult => {
    const f = figures.get(c.figure);
    const value = f?.value ?? null;
    const tasks = f?.tasks ?? 0;
    const missing = f?.cost_missing_attempts ?? 0;
    // a lower bound at or under a max says nothing of the figure itself
    const lowerBoundUnderMax = c.bound === "max" && missing > 0;
    const passed = value !== null && tasks >= minTasks && !lowerBoundUnderMax && (c.bound === "min" ? value >= c.threshold : value <= c.threshold);
    return {
      condition: `${c.figure} ${c.bound === "min" ? ">=" : "<="} ${c.threshold}`,
      figure: c.figure,
      bound: c.bound,
      threshold: c.threshold,
      value,
      numerator: f?.numerator ?? null,
      denominator: f?.denominator ?? null,
      tasks,
      ...(missing > 0 ? { cost_missing_attempts: missing } : {}),
      passed,
    };
  });
  const empty = accounting.records === 0;
  const strictFailed = Boolean(options.strict) && (accounting.rejected > 0 || accounting.broken_sources > 0 || accounting.duplicates_across_sources > 0);
  return {
    passed: !empty && !strictFailed && conditions.every((c) => c.passed),
    conditions,
    min_tasks: minTasks,
    empty,
    strict_failed: strictFailed,
    lines: accounting.lines,
    records: accounting.records,
    blank: accounting.blank,
    rejected: accounting.rejected,
    broken_sources: accounting.broken_sources,
    duplicates_across_sources: accounting.duplicates_across_sources,
  };
}
