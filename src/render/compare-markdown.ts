/**
 * `denom compare --format md`: GitHub markdown that fits a pull-request
 * comment. The same figures and sentences as the text (compare-text.ts,
 * compare-words.ts); names from the inputs are escaped.
 */
import type { CompareData, Comparison, TieGroups } from "../commands/compare.js";
import { percent, plural, ratio } from "../number-format.js";
import { denominatorsOf } from "./chain.js";
import { ci } from "./metrics-text.js";
import { COST_TITLE, costTable, DISCORDANT_SHOWN } from "./compare-text.js";
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
import { code, escapeMarkdown, mdTable } from "./markdown.js";

export function renderCompareMarkdown(data: CompareData): string {
  const parts = data.comparisons.map((c) => comparisonMarkdown(c, data.comparisons.length > 1));
  if (data.tie_groups) parts.push(tieGroupsMarkdown(data.tie_groups));
  return `${parts.join("\n\n---\n\n") || "nothing to compare"}\n`;
}

/** The groups of --by in the order of their rates, with the ranks the tests allow and their tie groups. */
function tieGroupsMarkdown(t: TieGroups): string {
  return [
    `### Tie groups: ${escapeMarkdown(tieGroupsSentence(t))}`,
    mdTable(
      ["group", "rate", "rank", "tie group"],
      t.groups.map((m) => [escapeMarkdown(tieName(m)), ratio(m), rankRange(m), `${m.tie_group} (${escapeMarkdown(m.leader ?? "(none)")})`]),
      ["left", "right", "right", "left"],
    ),
    escapeMarkdown(tieGroupsNote(t).join("; ")),
  ].join("\n\n");
}

/** One comparison; `holm`: several candidates, so each p is also shown adjusted for the others. */
function comparisonMarkdown(c: Comparison, holm: boolean): string {
  const out = [`### denom compare: B - A, paired by task`, sidesList(c)];
  out.push(`**Verdict:** ${escapeMarkdown(headlineSentence(c))}`);
  const sentence = flipSentence(c);
  out.push(`**Ranking flips:** ${escapeMarkdown(sentence ?? "none: every cell with a difference has the same sign")}`);
  const verdict = failIfWorseLine(c);
  if (verdict) out.push(`**${escapeMarkdown(verdict)}**`);
  out.push(cellsTable(c, holm));
  out.push(
    `${escapeMarkdown(SIDE_FIGURES_NOTE.join("; "))}; se over tasks (clustered); mde80 = smallest difference detected with 80% power at alpha 0.05 (Miller 2024).`,
  );
  const cost = costTable(c);
  if (cost)
    out.push(
      `#### ${escapeMarkdown(COST_TITLE)}`,
      mdTable(
        cost.head,
        cost.rows.map((r) => r.map((x) => escapeMarkdown(String(x)))),
        ["left", "right", "right", "right", "right", "left"],
      ),
      cost.notes.map((n) => `- ${escapeMarkdown(n)}`).join("\n"),
    );
  out.push("#### Where the difference comes from (final basis, paired tasks)", attributionTable(c));
  const d = c.discordant_tasks;
  out.push(`#### Discordant tasks (final/total): ${d.length}${d.length > DISCORDANT_SHOWN ? `, the first ${DISCORDANT_SHOWN}` : ""}`);
  if (d.length)
    out.push(
      mdTable(
        ["task", "A", "B", "B - A"],
        d
          .slice(0, DISCORDANT_SHOWN)
          .map((t) => [code(t.task_id), escapeMarkdown(t.baseline.outcomes), escapeMarkdown(t.candidate.outcomes), points(t.difference, "")]),
        ["left", "left", "left", "right"],
      ),
    );
  out.push("#### Each side's own grid (every trial of the side)", sideGrids(c));
  return out.join("\n\n");
}

/** The two sides and the tasks they cover, as a list. */
function sidesList(c: Comparison): string {
  const cov = c.coverage;
  const only = (side: "A" | "B", tasks: string[], n: number) =>
    tasks.length ? [`- only on ${side} (not paired): ${tasks.slice(0, DISCORDANT_SHOWN).map(code).join(", ")}${n > DISCORDANT_SHOWN ? ", ..." : ""}`] : [];
  return [
    `- ${escapeMarkdown(sideName(c.baseline))}`,
    `- ${escapeMarkdown(sideName(c.candidate))}`,
    `- coverage: ${plural(cov.common_tasks, "task")} on both sides (paired), ${cov.only_baseline} only on A, ${cov.only_candidate} only on B`,
    ...only("A", cov.only_baseline_tasks, cov.only_baseline),
    ...only("B", cov.only_candidate_tasks, cov.only_candidate),
  ].join("\n");
}

/** One row per cell: both rates, the difference with its interval, the test, the power. */
function cellsTable(c: Comparison, holm: boolean): string {
  return mdTable(
    ["cell", "tasks", "A", "B", "A mean", "B mean", "B - A (points)", "95% CI", "test", "p", ...(holm ? ["p Holm"] : []), "mde80", "tasks needed"],
    c.cells.map((x) => [
      `${x.basis}/${x.denominator}`,
      x.tasks,
      sideFraction(x.baseline),
      sideFraction(x.candidate),
      percent(x.baseline.rate),
      percent(x.candidate.rate),
      points(x.difference, ""),
      pointsInterval(x.ci95),
      testName(x),
      pValue(x.p_value),
      ...(holm ? [pValue(x.p_holm)] : []),
      x.mde80 === null ? "n/a" : (x.mde80 * 100).toFixed(1),
      x.tasks_needed ?? "n/a",
    ]),
    ["left", "right", "right", "right", "right", "right", "right", "right", "left", "right", ...(holm ? ["right" as const] : []), "right", "right"],
  );
}

/** What each side lost on the final basis: environment failures, timeouts by cause, grader errors, retries, flaky tasks. */
function attributionTable(c: Comparison): string {
  const a = c.attribution.baseline;
  const b = c.attribution.candidate;
  const flaky = (x: typeof a) =>
    x.flaky.tasks_with_several_trials ? `${x.flaky.tasks_disagreeing}/${x.flaky.tasks_with_several_trials} ${percent(x.flaky.share)}` : "n/a";
  return mdTable(
    ["", "A", "B"],
    [
      ["environment failures", a.environment_failures, b.environment_failures],
      ["timeouts", a.timeouts, b.timeouts],
      ...(["queue", "external", "loop", "sluggish", "unknown"] as const).map((k) => [`timeouts, cause ${k}`, a.timeouts_by_cause[k], b.timeouts_by_cause[k]]),
      ["grader errors", a.grader_errors, b.grader_errors],
      ["rescued by a retry", a.trials_rescued, b.trials_rescued],
      ["tasks whose trials disagree", flaky(a), flaky(b)],
    ],
    ["left", "right", "right"],
  );
}

/** Each side's own grid over every trial of the side, denominators in chain order. */
function sideGrids(c: Comparison): string {
  const grid = (side: Comparison["baseline"], basis: string, denominator: string) => {
    const r = side.rates.find((x) => x.basis === basis && x.denominator === denominator);
    return r ? `${ratio(r)} ${ci(r.ci95)}` : "";
  };
  return mdTable(
    ["denominator", "A first", "A final", "B first", "B final"],
    denominatorsOf([...c.baseline.rates, ...c.candidate.rates]).map((den) => [
      den,
      grid(c.baseline, "first", den),
      grid(c.baseline, "final", den),
      grid(c.candidate, "first", den),
      grid(c.candidate, "final", den),
    ]),
    ["left", "right", "right", "right", "right"],
  );
}
