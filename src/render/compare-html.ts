/**
 * `denom compare --format html`: the comparison as one self-contained HTML page
 * (the shell, tables and escaping of html.ts; the chart drawn in Node by
 * charts.ts, no script, nothing fetched). Per comparison (one with A B, one per
 * non-baseline group with --by): the sides and coverage, the paired difference
 * B - A per cell as a chart with its 95% interval beside the cells table (each
 * side's successes/count and rate, difference, ci95, test, p, mde80,
 * tasks_needed), the ranking-flip sentence, the cost per solved task (when a side
 * recorded a cost), where the difference comes from, the discordant tasks, and
 * each side's own grid.
 *
 * Same figures and sentences as the text and markdown (compare-words.ts); no
 * figure is computed here. Every text from the inputs is HTML-escaped. Cells
 * carry `data-cell` (basis/denominator), `data-figure` and, for numbers,
 * `data-value` (the JSON value, fractions) so a test can read them back.
 */
import type { CompareCell, CompareData, Comparison, TieGroups } from "../commands/compare.js";
import * as charts from "./charts.js";
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
import { percent, plural, ratio } from "../number-format.js";
import { esc, list, num, page, pair, section, table, type Cell, type CellLike } from "./html.js";
import { denominatorsOf } from "./chain.js";
import { ci } from "./metrics-text.js";
import { VERSION } from "../version.js";
import { COST_TITLE, costTable } from "./compare-text.js";

/** Discordant tasks listed per comparison; --json lists all. */
export const DISCORDANT_HTML = 500;

export function renderCompareHtml(data: CompareData): string {
  const tool = `denom ${VERSION}`;
  const cs = data.comparisons;
  const title =
    cs.length === 1
      ? `denom compare: ${cs[0].candidate.label} (B) against ${cs[0].baseline.label} (A)`
      : data.by
        ? `denom compare --by ${data.by}: ${plural(cs.length, "group")} against ${cs[0]?.baseline.label ?? "the baseline"}`
        : "denom compare";
  const lead = cs.length
    ? "B - A, paired by task: for each cell a task enters when both sides keep a trial of it; the difference is the mean over tasks of the per-task success shares."
    : "nothing to compare";
  const sections = cs.flatMap((c, i) => comparisonSections(c, cs.length > 1 ? `-${i + 1}` : "", cs.length > 1 ? `${c.candidate.label}: ` : ""));
  const nav: Record<string, string> = {};
  if (data.tie_groups) {
    sections.unshift(tieGroupsSection(data.tie_groups));
    nav["tie-groups"] = "Tie groups";
  }
  for (const [i, c] of cs.entries()) {
    const s = cs.length > 1 ? `-${i + 1}` : "";
    const p = cs.length > 1 ? `${c.candidate.label}: ` : "";
    Object.assign(nav, {
      [`sides${s}`]: `${p}Sides`,
      [`cells${s}`]: `${p}Cells`,
      ...(costTable(c) ? { [`cost${s}`]: `${p}Cost per solved task` } : {}),
      [`attribution${s}`]: `${p}Where from`,
      [`discordant${s}`]: `${p}Discordant tasks`,
      [`grids${s}`]: `${p}Own grids`,
    });
  }
  return page(title, lead, sections, nav, tool);
}

const cellKey = (x: { basis: string; denominator: string }) => `${x.basis}/${x.denominator}`;

/** The groups of --by in the order of their rates, with the ranks the tests allow and their tie groups. */
function tieGroupsSection(t: TieGroups): string {
  const rows = t.groups.map((m): Cell[] => [
    { text: tieName(m), data: { group: tieName(m) } },
    { text: ratio(m), num: true, data: { figure: "rate", value: m.rate ?? "" } },
    { text: rankRange(m), num: true, data: { figure: "rank", value: `${m.rank_best} ${m.rank_worst}` } },
    { text: `${m.tie_group} (${m.leader ?? "(none)"})`, data: { figure: "tie_group", value: m.tie_group } },
  ]);
  const note = `<p class="note">${esc(tieGroupsNote(t).join("; "))}</p>`;
  return section("tie-groups", `Tie groups: ${tieGroupsSentence(t)}`, table(["group", "rate", "rank", "tie group"], rows, "tie-groups-table") + note);
}

/** A number shown as `text` and carried as `data-value` (the JSON figure; "" for null). */
function figure(cell: string, name: string, text: string | number, value: number | null): Cell {
  return { text, num: true, data: { cell, figure: name, value: value === null ? "" : value } };
}

function comparisonSections(c: Comparison, s: string, prefix: string): string[] {
  return [
    sidesSection(c, s, prefix),
    cellsSection(c, s, prefix),
    costSection(c, s, prefix),
    attributionSection(c, s, prefix),
    discordantSection(c, s, prefix),
    gridsSection(c, s, prefix),
  ].filter((x) => x !== "");
}

/** Cost per solved task per denominator, the text's table (compare-text.ts costTable); "" when no side recorded a cost. */
function costSection(c: Comparison, s: string, prefix: string): string {
  const t = costTable(c);
  if (!t) return "";
  const rows = t.rows.map((r) => r.map((x, i): CellLike => (i === 0 ? String(x) : num(x))));
  return section(`cost${s}`, `${prefix}${COST_TITLE}`, table(t.head, rows, `cost${s}`) + list(t.notes));
}

function sidesSection(c: Comparison, s: string, prefix: string): string {
  const cov = c.coverage;
  const lines = [
    sideName(c.baseline),
    sideName(c.candidate),
    `coverage: ${plural(cov.common_tasks, "task")} on both sides (paired), ${cov.only_baseline} only on A, ${cov.only_candidate} only on B; trials of the paired tasks: A ${cov.baseline_trials_paired} of ${cov.baseline_trials}, B ${cov.candidate_trials_paired} of ${cov.candidate_trials}`,
  ];
  const unpaired = (letter: string, tasks: string[]) => (tasks.length ? `<p class="note">only on ${letter} (not paired): ${esc(tasks.join(", "))}</p>` : "");
  const coverage = table(
    ["", "A", "B"],
    [
      ["tasks on both sides (paired)", figure("coverage", "common_tasks", cov.common_tasks, cov.common_tasks), num(cov.common_tasks)],
      [
        "tasks on one side only",
        figure("coverage", "only_baseline", cov.only_baseline, cov.only_baseline),
        figure("coverage", "only_candidate", cov.only_candidate, cov.only_candidate),
      ],
      ["trials", num(cov.baseline_trials), num(cov.candidate_trials)],
      ["trials of the paired tasks", num(cov.baseline_trials_paired), num(cov.candidate_trials_paired)],
    ],
    `coverage${s}`,
  );
  return section(
    `sides${s}`,
    `${prefix}The two sides and their coverage`,
    list(lines) + coverage + unpaired("A", cov.only_baseline_tasks) + unpaired("B", cov.only_candidate_tasks),
  );
}

function cellsSection(c: Comparison, s: string, prefix: string): string {
  const rows = c.cells.map((x: CompareCell) => {
    const k = cellKey(x);
    // the decision first (B - A, its interval, p), then the sides: on a phone the table scrolls, the cell's name stays
    return [
      { text: k, data: { cell: k } },
      figure(k, "difference", points(x.difference, ""), x.difference),
      { text: pointsInterval(x.ci95), num: true, data: { cell: k, figure: "ci95", value: x.ci95 ? x.ci95.join(" ") : "" } },
      figure(k, "p_value", pValue(x.p_value), x.p_value),
      figure(k, "baseline", sideFraction(x.baseline), x.baseline.trial_rate),
      figure(k, "candidate", sideFraction(x.candidate), x.candidate.trial_rate),
      figure(k, "baseline_mean", percent(x.baseline.rate), x.baseline.rate),
      figure(k, "candidate_mean", percent(x.candidate.rate), x.candidate.rate),
      figure(k, "tasks", x.tasks, x.tasks),
      { text: testName(x), data: { cell: k, figure: "test", value: x.test ?? "" } },
      figure(k, "discordant", `${x.discordant.baseline_only} / ${x.discordant.candidate_only}`, null),
      figure(k, "mde80", x.mde80 === null ? "n/a" : (x.mde80 * 100).toFixed(1), x.mde80),
      figure(k, "tasks_needed", x.tasks_needed ?? "n/a", x.tasks_needed),
    ];
  });
  const body = table(
    ["cell", "B - A (points)", "95% CI", "p", "A", "B", "A mean", "B mean", "tasks", "test", "A only / B only", "mde80", "tasks needed"],
    rows,
    `cells${s}`,
  );
  const flip = flipSentence(c);
  const verdict = failIfWorseLine(c);
  const words = [
    `<p class="verdict"><b>Verdict:</b> ${esc(headlineSentence(c))}</p>`,
    `<p><b>Ranking flips:</b> ${esc(flip ?? "none: every cell with a difference has the same sign")}</p>`,
    verdict ? `<p><b>${esc(verdict)}</b></p>` : "",
    `<p class="note">${esc(SIDE_FIGURES_NOTE.join("; "))}; ${esc("A only / B only")} = tasks where that side's share is higher; se over tasks (clustered), 95% CI = B - A ± 1.96 se; test: exact McNemar with one kept trial per side and task, else a z test (approximate); mde80 = smallest difference detected with 80% power at alpha 0.05, in points; tasks needed = paired tasks to detect this difference so (Miller 2024).</p>`,
  ].join("");
  return section(`cells${s}`, `${prefix}B - A per cell`, words + pair(charts.differenceChart(c.cells), body, "wide"));
}

function attributionSection(c: Comparison, s: string, prefix: string): string {
  const a = c.attribution.baseline;
  const b = c.attribution.candidate;
  const flaky = (x: typeof a) =>
    x.flaky.tasks_with_several_trials ? `${x.flaky.tasks_disagreeing}/${x.flaky.tasks_with_several_trials} ${percent(x.flaky.share)}` : "n/a";
  const row = (label: string, key: string, va: number | string, vb: number | string) => [
    label,
    { text: va, num: true, data: { side: "A", figure: key } },
    { text: vb, num: true, data: { side: "B", figure: key } },
  ];
  const body = table(
    ["final basis, paired tasks", "A", "B"],
    [
      row("trials", "trials", a.trials, b.trials),
      row("successes", "successes", a.successes, b.successes),
      row("environment failures", "environment_failures", a.environment_failures, b.environment_failures),
      row("timeouts", "timeouts", a.timeouts, b.timeouts),
      ...(["queue", "external", "loop", "sluggish", "unknown"] as const).map((k) =>
        row(`↳ cause ${k}`, `timeouts_${k}`, a.timeouts_by_cause[k], b.timeouts_by_cause[k]),
      ),
      row("grader errors", "grader_errors", a.grader_errors, b.grader_errors),
      row("invalid", "invalid", a.invalid, b.invalid),
      row("unrecognized", "unrecognized", a.unrecognized, b.unrecognized),
      row("rescued by a retry", "trials_rescued", a.trials_rescued, b.trials_rescued),
      row("tasks whose trials disagree", "flaky", flaky(a), flaky(b)),
    ],
    `attribution${s}`,
  );
  const removed = (["A", "B"] as const).flatMap((letter) => (letter === "A" ? a : b).removed.map((r) => [letter, r.denominator, r.reason, num(r.trials)]));
  const chain = removed.length
    ? `<h3>Removed by each side's chain (final basis)</h3>${table(["side", "denominator", "reason", "trials"], removed, `removed${s}`)}`
    : "";
  return section(`attribution${s}`, `${prefix}Where the difference comes from`, body + chain);
}

function discordantSection(c: Comparison, s: string, prefix: string): string {
  const d = c.discordant_tasks;
  const shown = d.slice(0, DISCORDANT_HTML);
  const body = d.length
    ? table(
        ["task", "A", "B", "B - A (points)"],
        shown.map((t): CellLike[] => [
          { text: t.task_id, data: { task: t.task_id } },
          `${t.baseline.successes}/${t.baseline.count} ${t.baseline.outcomes}`,
          `${t.candidate.successes}/${t.candidate.count} ${t.candidate.outcomes}`,
          { text: points(t.difference, ""), num: true, data: { task: t.task_id, figure: "difference", value: t.difference } },
        ]),
        `discordant${s}`,
      )
    : "<p>none: every paired task has the same final/total share on both sides.</p>";
  const more = d.length > shown.length ? `<p class="note">${shown.length} of ${d.length} listed; <code>--format json</code> lists all.</p>` : "";
  return section(`discordant${s}`, `${prefix}Discordant tasks (final/total): ${d.length}`, body + more);
}

function gridsSection(c: Comparison, s: string, prefix: string): string {
  const grid = (side: Comparison["baseline"], basis: string, den: string): Cell => {
    const r = side.rates.find((x) => x.basis === basis && x.denominator === den);
    return { text: r ? `${ratio(r)} ${ci(r.ci95)}` : "", num: true, data: { side: side.letter, cell: `${basis}/${den}`, value: r?.rate ?? "" } };
  };
  const body = table(
    ["denominator", "A first", "A final", "B first", "B final"],
    denominatorsOf([...c.baseline.rates, ...c.candidate.rates]).map((den) => [
      den,
      grid(c.baseline, "first", den),
      grid(c.baseline, "final", den),
      grid(c.candidate, "first", den),
      grid(c.candidate, "final", den),
    ]),
    `grids${s}`,
  );
  return section(`grids${s}`, `${prefix}Each side's own grid (every trial of the side)`, body);
}
