/**
 * `denom audit` as text: per claim, reproduced or not, every matching definition
 * in words with its figure and what it hides, or the nearest definitions and
 * their distance; the strict figure beside it. Rates are printed in the claim's
 * own form (87.5% or 0.3696) with two more digits than the claim, trailing zeros
 * dropped, so a reader sees why 0.1275 matches 0.128.
 */
import type { Claim } from "../formats/claims.js";
import type { AuditData, ClaimAudit, DefinitionFigure, NearDefinition } from "../commands/audit.js";
import { count, plural } from "../number-format.js";
import { heading, type TextOptions } from "./table.js";

/** Runs listed one by one for a mean over runs before the rest are counted. */
const RUNS_LISTED = 10;

export function renderAuditText(data: AuditData, options: TextOptions): string {
  const blocks = auditBlocks(data).map(([head, ...rest]) => [heading(head, options), ...rest].join("\n"));
  const total = auditTotal(data);
  if (total) blocks.push(total);
  return `${blocks.join("\n\n")}\n`;
}

/** Per claim its lines: first the verdict (a heading), then the definitions and figures, indented. */
export function auditBlocks(data: AuditData): string[][] {
  return data.audits.map((a, i) => claimBlock(a, data.claims[i], data));
}

/** "2 of 3 claims reproduced" when several claims were audited, else null. */
export function auditTotal(data: AuditData): string | null {
  if (data.audits.length < 2) return null;
  return `${data.audits.filter((a) => a.reproduced).length} of ${data.audits.length} claims reproduced`;
}

function claimBlock(a: ClaimAudit, claim: Claim, data: AuditData): string[] {
  const name = `Claim ${a.claim}${a.label ? ` (${a.label})` : ""}`;
  const se = a.standard_error
    ? ` with a standard error of ${bound(a.standard_error.tolerance[0], claim, 1)} to ${bound(a.standard_error.tolerance[1], claim, 1)}`
    : "";
  const range =
    claim.form === "ratio"
      ? `exactly ${rate(a.claim_value, claim)}`
      : `${bound(a.tolerance[0], claim)} to ${bound(a.tolerance[1], claim)}${se}, bounds included`;
  const searched = `${count(a.searched.distinct)} distinct of ${count(a.searched.definitions)} definitions searched${groupsText(a)}`;
  const lines: string[] = [];
  if (a.reproduced) {
    lines.push(`${name}: reproduced by ${plural(a.matches.length, "definition")} (${range}; ${searched})`);
    a.matches.forEach((m, i) => {
      lines.push(...definitionLines(m, i + 1, claim));
    });
  } else {
    lines.push(`${name}: not reproduced: no definition gives ${range} (${searched})`);
    if (a.value_matches?.length) {
      lines.push(`  the value is given by ${plural(a.value_matches.length, "definition")}, none with its standard error:`);
      a.value_matches.forEach((m, i) => {
        lines.push(...definitionLines(m, i + 1, claim));
      });
    } else if (a.nearest?.length) {
      lines.push("  nearest:");
      a.nearest.forEach((m, i) => {
        lines.push(...definitionLines(m, i + 1, claim));
      });
    }
  }
  const together = a.groups.length ? " (all groups together)" : "";
  if (a.group_strict.length) {
    // several agents, models or benchmarks: each group's strict figure; their pool is no one's
    lines.push(
      `  strict figure of each group (final successes over its trials; the ${a.group_strict.length} groups together match no claim, --pool pools them):`,
    );
    for (const g of a.group_strict) lines.push(`    ${g.group}: ${count(g.successes)}/${count(g.count)} = ${rate(g.rate, claim)}`);
  }
  lines.push(
    `  strict figure: final successes over all trials${together}: ${count(a.strict.successes)}/${count(a.strict.count)} = ${rate(a.strict.rate, claim)}`,
  );
  if (a.first_try.successes !== a.strict.successes || a.first_try.count !== a.strict.count)
    lines.push(
      `  first try: first-try successes over all trials${together}: ${count(a.first_try.successes)}/${count(a.first_try.count)} = ${rate(a.first_try.rate, claim)}`,
    );
  // the definitions count a re-run's attempts as retries of the trials it continues: say which
  for (const r of a.reruns)
    lines.push(
      `  re-run as retries: ${r.run} continues ${plural(r.trials, "trial")} of ${r.rerun_of} (${r.recognised_by === "named" ? "--rerun-of" : "recognised: only tasks it errored on"})`,
    );
  if (!a.reproduced && data.duplicates_across_sources > 0)
    lines.push(
      `  ${count(data.duplicates_across_sources)} differing copies of the same trials came from different sources and were merged as one run: --run-per-file audits each file as its own run`,
    );
  return lines;
}

/** ", on all trials and on each of 8 runs, 2 agents and 3 models", or nothing without groups. */
function groupsText(a: ClaimAudit): string {
  if (!a.groups.length) return "";
  const counts = new Map<string, number>();
  for (const g of a.groups) counts.set(g.by, (counts.get(g.by) ?? 0) + 1);
  const words: Record<string, string> = { run_id: "run", group: "group" };
  const parts = [...counts].map(([by, n]) => plural(n, words[by] ?? by));
  return counts.has("group") ? `, on each of ${parts.join(" and ")}` : `, on all trials and on each of ${parts.join(", ")}`;
}

function definitionLines(d: DefinitionFigure | NearDefinition, n: number, claim: Claim): string[] {
  const distance = "offset" in d ? ` (${signed(d.offset, claim)})` : "";
  const lines: string[] = [];
  const group = d.group ? `${d.group.by === "run_id" ? `run ${d.group.value}` : d.group.value}: ` : "";
  if (d.runs) {
    lines.push(`  ${n}. ${group}${d.description}`);
    const shown = d.runs.slice(0, RUNS_LISTED).map((r) => `${count(r.successes)}/${count(r.count)}`);
    const more = d.runs.length > RUNS_LISTED ? `, ... (${d.runs.length} runs)` : "";
    lines.push(`     runs ${shown.join(", ")}${more}; mean = ${rate(d.rate, claim)}${distance}`);
  } else {
    lines.push(
      `  ${n}. ${group}${d.description}: ${d.aggregation === "pass@k" || d.aggregation === "pass^k" ? "" : `${count(d.successes)}/${count(d.count)} = `}${rate(d.rate, claim)}${distance}`,
    );
  }
  const hides = hidesText(d);
  if (hides) lines.push(`     ${hides}`);
  if (d.standard_error) {
    const e = d.standard_error;
    const mark = (kind: "over_runs" | "clustered_by_task") => (e.matched_by === kind ? " (matches)" : "");
    const parts = [
      e.over_runs !== null ? `over runs ${stderr(e.over_runs, claim)}${mark("over_runs")}` : "over runs n/a",
      e.clustered_by_task !== null ? `clustered by task ${stderr(e.clustered_by_task, claim)}${mark("clustered_by_task")}` : "clustered by task n/a",
    ];
    lines.push(`     standard error: ${parts.join("; ")}`);
  }
  return lines;
}

/** "leaves out 20 trials; 12 of them never succeeded, even after retries; counts 27 late passes ..." */
function hidesText(d: DefinitionFigure): string {
  const parts: string[] = [];
  const { trials, never_succeeded: never, never_succeeded_retried: retried, late_passes_counted: late } = d.hides;
  if (trials === 1) {
    parts.push(`leaves out 1 trial, which ${never ? `never succeeded${retried ? ", even after retries" : ""}` : "succeeded in the end"}`);
  } else if (trials > 1) {
    const after = retried === 0 ? "" : retried === never ? ", even after retries" : ` (${retried} of them after retries)`;
    if (never === 0) parts.push(`leaves out ${trials} trials, all of which succeeded in the end`);
    else if (never === trials) parts.push(`leaves out ${trials} trials; none of them ever succeeded${after}`);
    else parts.push(`leaves out ${trials} trials; ${never} of them never succeeded${after}`);
  }
  if (late > 0) parts.push(`counts ${plural(late, "late pass", "late passes")} (timeouts that passed verification) as successes`);
  return parts.join("; ");
}

/** A rate in the claim's form, two digits finer than the claim, trailing zeros dropped. */
function rate(value: number | null, claim: Claim): string {
  if (value === null) return "n/a";
  const percent = claim.form !== "decimal";
  const digits = claim.form === "ratio" ? 1 : claim.decimals;
  return percent ? `${trim((value * 100).toFixed(digits + 2))}%` : trim(value.toFixed(digits + 2));
}

/** A tolerance bound: one digit finer than the claim (`of` 1: than its standard error). */
function bound(value: number, claim: Claim, of: 0 | 1 = 0): string {
  const digits = (of ? seDecimals(claim) : claim.decimals) + 1;
  return claim.form === "decimal" ? value.toFixed(digits) : `${(value * 100).toFixed(digits)}%`;
}

/** Digits after the point of the claim's standard error as written (its S), in the claim's form. */
function seDecimals(claim: Claim): number {
  const text = claim.standard_error?.text ?? "";
  return (text.replace("%", "").split(".")[1] ?? "").length;
}

/** A standard error in the claim's form, two digits finer than its S. */
function stderr(value: number, claim: Claim): string {
  const digits = seDecimals(claim) + 2;
  return claim.form === "decimal" ? value.toFixed(digits) : `${(value * 100).toFixed(digits)}%`;
}

/** A difference to the claim: "+1.2 points" for percents, "+0.0016" for fractions. */
function signed(diff: number, claim: Claim): string {
  const sign = diff >= 0 ? "+" : "-";
  const abs = Math.abs(diff);
  return claim.form === "decimal" ? `${sign}${abs.toFixed(claim.decimals + 1)}` : `${sign}${(abs * 100).toFixed(2)} points`;
}

/** Drops trailing zeros after the decimal point (and the point when nothing is left). */
function trim(text: string): string {
  const dot = text.indexOf(".");
  if (dot < 0) return text;
  let end = text.length;
  while (end > dot + 1 && text[end - 1] === "0") end--;
  return text.slice(0, end === dot + 1 ? dot : end);
}
