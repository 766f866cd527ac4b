/**
 * `denom gate INPUT... --min CELL=X --max METRIC=Y`: checks a run for CI
 * (DESIGN section 11). Each condition names a figure of the view gate_figures
 * (queries/marts/gate/gate_figures.sql): a rate cell `basis/denominator` (a fraction) or a
 * metric (timeout_rate, environment_share: fractions; constraint_violations,
 * grader_errors, rejected: counts; p95_s: seconds; cost_per_success: USD).
 * A condition on a figure that is n/a (a rate over 0 trials, no cost recorded)
 * fails: nothing shows it holds. Nothing is computed here.
 */
import { UsageError } from "../errors.js";
import type { Session } from "../db/session.js";

/** The metrics a condition may name besides the eight cells. */
export const GATE_METRICS = ["timeout_rate", "environment_share", "constraint_violations", "grader_errors", "rejected", "p95_s", "cost_per_success"] as const;
const CELLS = ["first", "final"].flatMap((b) => ["total", "valid", "attributable", "completable"].map((d) => `${b}/${d}`));
/** Figures that are fractions: `85%` is read as 0.85 for them. */
const FRACTIONS = new Set<string>([...CELLS, "timeout_rate", "environment_share"]);

/** One condition: `figure op threshold`; `min` holds when value >= threshold, `max` when value <= threshold. */
export interface GateCondition {
  figure: string;
  bound: "min" | "max";
  threshold: number;
}

export interface GateOptions {
  conditions: GateCondition[];
}

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
  passed: boolean;
}

export interface GateData {
  passed: boolean;
  conditions: GateResult[];
  rejected: number;
  broken_sources: number;
}

/**
 * Parses `final/total=0.85` (or `=85%` for a fraction) of `--min`/`--max`.
 * Throws UsageError naming the flag when the figure is unknown or X no number.
 */
export function parseCondition(text: string, bound: "min" | "max"): GateCondition {
  const flag = `--${bound}`;
  const eq = text.indexOf("=");
  if (eq < 0) throw new UsageError(`${flag} ${text}: write FIGURE=VALUE, e.g. ${bound === "min" ? "final/total=0.85" : "timeout_rate=0.10"}`);
  const figure = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  if (!CELLS.includes(figure) && !(GATE_METRICS as readonly string[]).includes(figure))
    throw new UsageError(`${flag} ${text}: ${figure || "(empty)"} is no figure; use a cell basis/denominator (${CELLS.join(", ")}) or a metric (${GATE_METRICS.join(", ")})`);
  const isPercent = raw.endsWith("%");
  const n = Number(isPercent ? raw.slice(0, -1) : raw);
  if (raw === "" || !Number.isFinite(n)) throw new UsageError(`${flag} ${text}: ${raw || "(empty)"} is no number`);
  if (isPercent && !FRACTIONS.has(figure)) throw new UsageError(`${flag} ${text}: ${figure} is not a rate; give a plain number`);
  return { figure, bound, threshold: isPercent ? n / 100 : n };
}

/** Judges every condition on the session's runs, in the order given. Throws UsageError without a condition. */
export async function runGate(session: Session, options: GateOptions): Promise<GateData> {
  if (!options.conditions.length) throw new UsageError("no condition given: add --min CELL=X (e.g. --min final/total=0.8) or --max METRIC=Y (e.g. --max timeout_rate=0.1)");
  const figures = new Map((await session.select("gate/gate_figures")).map((r) => [r.figure, r]));
  const accounting = await session.selectOne("meta/accounting");
  const conditions = options.conditions.map((c): GateResult => {
    const f = figures.get(c.figure);
    const value = f?.value ?? null;
    const passed = value !== null && (c.bound === "min" ? value >= c.threshold : value <= c.threshold);
    return {
      condition: `${c.figure} ${c.bound === "min" ? ">=" : "<="} ${c.threshold}`,
      figure: c.figure,
      bound: c.bound,
      threshold: c.threshold,
      value,
      numerator: f?.numerator ?? null,
      denominator: f?.denominator ?? null,
      passed,
    };
  });
  return {
    passed: conditions.every((c) => c.passed),
    conditions,
    rejected: accounting.rejected,
    broken_sources: accounting.broken_sources,
  };
}
