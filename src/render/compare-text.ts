/**
 * `denom compare` as text for a terminal: the sides and their coverage first,
 * then the paired differences per cell, tests and power, the ranking flip in a
 * sentence, where the difference comes from, the first discordant tasks, and
 * each side's own grid. Fits 80 columns.
 */
import type { Attribution, CompareData, Comparison, CostSide, TieGroups } from "../commands/compare.js";
import { percent, plural, ratio } from "../number-format.js";
import { denominatorsOf } from "./chain.js";
import { ci, usd } from "./metrics-text.js";
import {
  failIfWorseLine,
  flipSentence,
  headlineSentence,
  points,
  pointsInterval,
  pValue,
  rankRange,
  SIDE_FIGURES_NOTE,
  sideFraction,
  sideName,
  testName,
  tieGroupsNote,
  tieGroupsSentence,
  tieName,
} from "./compare-words.js";
import { heading, table, type TextOptions } from "./table.js";

/** Discordant tasks listed in text (all of them are in --json). */
export const DISCORDANT_SHOWN = 20;

export function renderCompareText(data: CompareData, options: TextOptions): string {
  const parts = data.comparisons.map((c) => comparisonText(c, data, options));
  if (!parts.length) parts.push("nothing to compare");
  if (data.tie_groups) parts.push(tieGroupsText(data.tie_groups, options));
  return `${parts.join("\n\n\n")}\n`;
}

/** The groups of --by in the order of their rates, with the ranks the tests allow and their tie groups. */
function tieGroupsText(t: TieGroups, options: TextOptions): string {
  return [
    heading(`Tie groups: ${tieGroupsSentence(t)}`, options),
    table(
      ["group", "rate", "rank", "tie group"],
      t.groups.map((m) => [tieName(m), ratio(m), rankRange(m), `${m.tie_group} (${m.leader ?? "(none)"})`]),
      ["left", "right", "right", "left"],
      options,
    ),
    ...tieGroupsNote(t).map((line) => `  ${line}`),
  ].join("\n");
}

function comparisonText(c: Comparison, data: CompareData, options: TextOptions): string {
  const out: string[] = [];
  // several candidates against one baseline: each p also adjusted for the others (Holm)
  const holm = data.comparisons.length > 1;
  const cov = c.coverage;
  out.push(
    [
      heading(`denom compare · B - A, paired by task`, options),
      `  ${sideName(c.baseline)}`,
      `  ${sideName(c.candidate)}`,
      `Coverage: ${plural(cov.common_tasks, "task")} on both sides (paired), ${cov.only_baseline} only on A, ${cov.only_candidate} only on B`,
      `  paired trials: A ${cov.baseline_trials_paired} of ${cov.baseline_trials}, B ${cov.candidate_trials_paired} of ${cov.candidate_trials}`,
      ...unpairedLines("A", cov.only_baseline_tasks),
      ...unpairedLines("B", cov.only_candidate_tasks),
    ].join("\n"),
  );
  out.push(`${heading("Verdict:", options)} ${headlineSentence(c)}`);

  out.push(
    [
      heading("Paired difference B - A (mean over tasks of each side's success share among kept trials)", options),
      table(
        ["cell", "tasks", "A", "B", "A mean", "B mean", "B - A", "95% CI (points)", "p", ...(holm ? ["p Holm"] : [])],
        c.cells.map((x) => [
          `${x.basis}/${x.denominator}`,
          x.tasks,
          sideFraction(x.baseline),
          sideFraction(x.candidate),
          percent(x.baseline.rate),
          percent(x.candidate.rate),
          points(x.difference, ""),
          pointsInterval(x.ci95),
          pValue(x.p_value),
          ...(holm ? [pValue(x.p_holm)] : []),
        ]),
        ["left", "right", "right", "right", "right", "right", "right", "right", "right", "right"],
        options,
      ),
      ...SIDE_FIGURES_NOTE.map((line) => `  ${line}`),
      "  se over tasks (the trials of one task are one cluster)",
      ...(holm ? [`  p Holm: p adjusted over the ${data.comparisons.length} comparisons against A (Holm's step-down)`] : []),
    ].join("\n"),
  );

  out.push(
    [
      heading('Test and power (Miller 2024, "Adding Error Bars to Evals")', options),
      table(
        ["cell", "test", "A only", "B only", "mde80", "tasks needed"],
        c.cells.map((x) => [
          `${x.basis}/${x.denominator}`,
          testName(x),
          x.discordant.baseline_only,
          x.discordant.candidate_only,
          x.mde80 === null ? "n/a" : points(x.mde80, "").replace("+", ""),
          x.tasks_needed ?? "n/a",
        ]),
        ["left", "left", "right", "right", "right", "right"],
        options,
      ),
      "  A only / B only: tasks where that side's share is higher (McNemar's discordant pairs with one trial each)",
      "  mde80: smallest difference (points) these tasks detect with 80% power at alpha 0.05;",
      "  tasks needed: paired tasks to detect a difference as large as the observed one, same power",
    ].join("\n"),
  );

  const cost = costText(c, options);
  if (cost) out.push(cost);

  const sentence = flipSentence(c);
  out.push(`${heading("Ranking flips:", options)} ${sentence ?? "none: every cell with a difference has the same sign"}`);
  const verdict = failIfWorseLine(c);
  if (verdict) out.push(verdict);

  out.push(attributionText(c, options));
  out.push(discordantText(c, options));
  out.push(gridText(c, options));
  return out.join("\n\n");
}

/** A side's cost per solved task, `>=` before a lower bound. */
function costFigure(s: CostSide): string {
  return s.cost_per_success_usd !== null && s.cost_lower_bound ? `>= ${usd(s.cost_per_success_usd)}` : usd(s.cost_per_success_usd);
}

/** "+$0.050", "-$0.120": a difference in USD with its sign. */
function signedUsd(v: number): string {
  return `${v < 0 ? "-" : "+"}${usd(Math.abs(v))}`;
}

/** The title of the cost section of the text and markdown outputs. */
export const COST_TITLE = "Cost per solved task (final basis, paired tasks): B - A";

/**
 * Cost per solved task per denominator (final basis, paired tasks): each side's and B - A with
 * its interval, as table rows, and the notes under it; null when neither side recorded a cost.
 * Shared by the text and the markdown output.
 */
export function costTable(c: Comparison): { head: string[]; rows: (string | number)[][]; notes: string[] } | null {
  const rows = c.cost_per_success;
  if (!rows.some((r) => r.baseline.cost_usd !== null || r.candidate.cost_usd !== null)) return null;
  const notes = ["each side: every attempt of its kept trials (retries too) / its final successes"];
  const all = rows[0];
  for (const [letter, side] of [
    ["A", all.baseline],
    ["B", all.candidate],
  ] as const)
    if (side.cost_missing_attempts > 0)
      notes.push(`${letter}: ${plural(side.cost_missing_attempts, "attempt")} without a cost (not read as 0): >= a lower bound, B - A unbounded`);
  return {
    head: ["denominator", "tasks", "A", "B", "B - A", "95% CI"],
    rows: rows.map((r) => [
      r.denominator,
      r.tasks,
      costFigure(r.baseline),
      costFigure(r.candidate),
      r.difference_usd === null ? "n/a" : signedUsd(r.difference_usd),
      r.difference_usd_ci95 ? `[${signedUsd(r.difference_usd_ci95[0])}, ${signedUsd(r.difference_usd_ci95[1])}]` : "",
    ]),
    notes,
  };
}

function costText(c: Comparison, options: TextOptions): string | null {
  const t = costTable(c);
  if (!t) return null;
  return [
    heading(COST_TITLE, options),
    table(t.head, t.rows, ["left", "right", "right", "right", "right", "left"], options),
    ...t.notes.map((n) => `  ${n}`),
  ].join("\n");
}

function unpairedLines(letter: string, tasks: string[]): string[] {
  if (!tasks.length) return [];
  const shown = tasks.slice(0, DISCORDANT_SHOWN).join(", ");
  return [
    `  only on ${letter} (not paired): ${shown}${tasks.length > DISCORDANT_SHOWN ? `, ... ${tasks.length - DISCORDANT_SHOWN} more (--json lists all)` : ""}`,
  ];
}

function attributionText(c: Comparison, options: TextOptions): string {
  const a = c.attribution.baseline;
  const b = c.attribution.candidate;
  const row = (label: string, f: (x: Attribution) => string | number) => [label, f(a), f(b)];
  const rows = [
    row("trials", (x) => x.trials),
    row("successes", (x) => x.successes),
    row("environment failures", (x) => x.environment_failures),
    row("timeouts", (x) => x.timeouts),
    ...(["queue", "external", "loop", "sluggish", "unknown"] as const)
      .filter((k) => a.timeouts_by_cause[k] || b.timeouts_by_cause[k])
      .map((k) => row(`  cause ${k}`, (x) => x.timeouts_by_cause[k])),
    row("grader errors", (x) => x.grader_errors),
    row("invalid tasks", (x) => x.invalid),
    row("unrecognized statuses", (x) => x.unrecognized),
    row("rescued by a retry", (x) => x.trials_rescued),
    row("tasks whose trials disagree", (x) =>
      x.flaky.tasks_with_several_trials ? `${x.flaky.tasks_disagreeing}/${x.flaky.tasks_with_several_trials} ${percent(x.flaky.share)}` : "n/a",
    ),
  ];
  const lines = [
    heading("Where the difference comes from (final basis, trials of the paired tasks)", options),
    table(["", "A", "B"], rows, ["left", "right", "right"], options),
  ];
  for (const [letter, x] of [
    ["A", a],
    ["B", b],
  ] as const) {
    if (!x.removed.length) continue;
    lines.push(`  ${letter} removed by the chain: ${x.removed.map((r) => `${r.denominator} -${r.trials} ${r.reason}`).join("; ")}`);
  }
  return lines.join("\n");
}

function discordantText(c: Comparison, options: TextOptions): string {
  const d = c.discordant_tasks;
  if (!d.length) return `${heading("Discordant tasks (final/total):", options)} none, every paired task has the same share on both sides`;
  const shown = d.slice(0, DISCORDANT_SHOWN);
  return [
    heading(`Discordant tasks (final/total): ${d.length}${d.length > shown.length ? `, the first ${shown.length} (--json lists all)` : ""}`, options),
    table(
      ["task", "A", "B", "B - A"],
      shown.map((t) => [t.task_id, t.baseline.outcomes, t.candidate.outcomes, points(t.difference, "")]),
      ["left", "left", "left", "right"],
      options,
    ),
  ].join("\n");
}

function gridText(c: Comparison, options: TextOptions): string {
  const lines = [heading("Each side's own grid (every trial of the side, as denom report prints it)", options)];
  for (const side of [c.baseline, c.candidate]) {
    const cell = (basis: string, denominator: string) => side.rates.find((r) => r.basis === basis && r.denominator === denominator);
    const rows = denominatorsOf(side.rates).map((d) => {
      const first = cell("first", d);
      const final = cell("final", d);
      return [
        d,
        first ? `${first.successes}/${first.count}` : "",
        percent(first?.rate),
        first ? ci(first.ci95) : "",
        final ? `${final.successes}/${final.count}` : "",
        percent(final?.rate),
        final ? ci(final.ci95) : "",
      ];
    });
    lines.push(`  ${side.letter}: ${side.label}`);
    lines.push(
      table(
        ["denominator", "first try", "rate", "95% CI", "final", "rate", "95% CI"],
        rows,
        ["left", "right", "right", "left", "right", "right", "left"],
        options,
      ),
    );
  }
  return lines.join("\n");
}
