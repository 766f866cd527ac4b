/**
 * `denom gate` as text: one line per condition with its measured value, then
 * the verdict. Fractions print as percents, p95_s in seconds, cost in USD.
 */
import type { GateData, GateResult } from "../commands/gate.js";
import { nothingRead, percent, plural, strictProblems } from "../number-format.js";

const FRACTION = /\/|_rate$|_share$/;

/** A figure's value in its unit: "82.0% (82/100)", "312 s", "$0.42", "3". */
export function gateValue(r: Pick<GateResult, "figure" | "numerator" | "denominator">, value: number | null): string {
  if (value === null) return "n/a";
  if (r.figure === "cost_per_success" || r.figure.startsWith("cost_per_success/")) return `$${value.toFixed(4)}`;
  if (FRACTION.test(r.figure)) return percent(value);
  if (r.figure === "p95_s") return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
  return String(value);
}

/**
 * One line per condition, then the verdict, which agrees with the exit code:
 * --strict's refusal (exit 1) first, then inputs that yielded no record and
 * conditions not met (exit 4).
 */
export function renderGateText(data: GateData): string {
  const lines = data.conditions.map((c) => {
    const counts = c.numerator !== null && c.denominator !== null ? ` (${c.numerator}/${c.denominator})` : "";
    const why = gateNote(c, data.min_tasks);
    return `${c.passed ? "ok  " : "FAIL"} ${c.figure} = ${gateValue(c, c.value)}${counts}, ${c.bound} ${gateValue(c, c.threshold)}${why ? `: ${why}` : ""}`;
  });
  lines.push(gateVerdict(data));
  return `${lines.join("\n")}\n`;
}

/** Why a condition's value cannot pass, or what it stands on: n/a, too few tasks, a lower bound; "" when nothing. */
export function gateNote(c: GateResult, minTasks: number): string {
  if (c.value === null) return "n/a never passes";
  if (c.tasks < minTasks) return `${plural(c.tasks, "task")}, fewer than --min-tasks ${minTasks}`;
  if (c.cost_missing_attempts)
    return `a lower bound (${plural(c.cost_missing_attempts, "attempt")} without a cost)${c.bound === "max" ? ", which never passes a max" : ""}`;
  return "";
}

/**
 * The verdict, which agrees with the exit code: --strict's refusal (exit 1)
 * first, then inputs that yielded no record and conditions not met (exit 4).
 */
export function gateVerdict(data: GateData): string {
  const failed = data.conditions.filter((c) => !c.passed).length;
  if (data.strict_failed) return `gate failed: ${strictProblems(data)} and --strict is set (exit 1)`;
  if (data.empty) return `gate failed: the inputs yielded no record (${nothingRead(data)}): nothing to gate (exit 4)`;
  if (failed) return `gate failed: ${plural(failed, "condition")} of ${data.conditions.length} not met (exit 4)`;
  return data.conditions.length === 1 ? "gate passed: the condition holds" : `gate passed: all ${data.conditions.length} conditions hold`;
}
