/**
 * The charts of the HTML report, drawn as SVG in Node by Observable Plot
 * (https://observablehq.com/plot/) on a linkedom document: no browser, no script in
 * the page. Each function takes rows as the report read them from the views and
 * returns one SVG (or a <figure> holding a legend and the SVG) as markup, or "" when
 * there is nothing to draw. Nothing is computed here: positions, bins and counts come
 * from the views; Plot only maps them onto scales. Text from the inputs reaches the
 * SVG as text nodes and attribute values, which linkedom escapes.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import type { HistogramBin, TaskBlock, WaffleCell, WaterfallBar } from "../commands/report-charts.js";
import type { GroupFigures, PassAtK } from "../commands/report-metrics.js";
import type { RateCell } from "../commands/report.js";
import { denominatorsOf } from "./chain.js";
import { compactCount, count, percent, seconds } from "../number-format.js";
import { ci } from "./metrics-text.js";

/** Colours of the statuses (Okabe-Ito, readable with the common colour-vision deficiencies). */
export const STATUS_COLORS: Record<string, string> = {
  success: "#009E73",
  failure: "#D55E00",
  timeout: "#E69F00",
  aborted: "#0072B2",
  invalid: "#CC79A7",
  unrecognized: "#999999",
  missing: "#C8C8C8",
};

/** Colours of what a step of the chain removed, by fault class (the status each class mostly holds). */
const FAULT_COLORS: Record<string, string> = {
  kept: "#56687A",
  environment: STATUS_COLORS.aborted,
  agent: STATUS_COLORS.timeout,
  task: STATUS_COLORS.invalid,
  unknown: STATUS_COLORS.unrecognized,
};

const BASIS_COLORS = { first: "#7A8B99", final: "#1F3B57" };
/**
 * Counts are whole: a tick between two integers (0.5 trials) is left without a label;
 * from 10,000 on a tick reads 25k, 1.5M (compactCount), so that 10^5-10^6 trials fit the margin.
 */
const wholeTicks = compactCount;
/** A quantity that may be fractional (seconds): 0.5 as it is, whole values as wholeTicks. */
const amountTicks = (v: number) => (Number.isInteger(v) ? compactCount(v) : count(v));
/** Width of `text` in 11 px system-ui, estimated on the generous side (digits are about 6.1 px, most letters less). */
const textWidth = (text: string) => Math.ceil(6.2 * text.length);
/** A margin that holds the widest of `labels` plus `pad` (tick and gap), within [min, max]. */
const marginFor = (labels: string[], pad: number, min: number, max: number) => Math.max(min, Math.min(max, pad + Math.max(0, ...labels.map(textWidth))));
/** `text` cut to about `px` pixels with an ellipsis: a name longer than its margin (the full name is in the table and the titles). */
const shorten = (px: number) => (text: string) => {
  const chars = Math.floor(px / 6.2);
  return text.length > chars ? `${text.slice(0, Math.max(1, chars - 1))}…` : text;
};
const FONT = { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", fontSize: "11px" };

/** Statuses in a fixed order (the known ones first), so every chart colours and orders them alike. */
export function statusOrder(statuses: Iterable<string>): string[] {
  const known = Object.keys(STATUS_COLORS);
  return [...new Set(statuses)].sort((a, b) => rank(a, known) - rank(b, known) || a.localeCompare(b));
}

function rank(value: string, order: string[]): number {
  const i = order.indexOf(value);
  return i === -1 ? order.length : i;
}

function statusScale(statuses: Iterable<string>, legend = true): Plot.ScaleOptions {
  const domain = statusOrder(statuses);
  return { type: "ordinal", domain, range: domain.map((s) => STATUS_COLORS[s] ?? "#6B6B6B"), legend };
}

/** Renders Plot options to markup on a fresh linkedom document. */
function draw(options: Plot.PlotOptions): string {
  const { document } = parseHTML("<!doctype html><html><body></body></html>");
  const node = Plot.plot({ style: FONT, ...options, document: document as unknown as Document });
  return (node as unknown as { outerHTML: string }).outerHTML;
}

/** The cells of the grid (each basis over every denominator of the chain) as dots on a 0-100% axis with their 95% intervals: one row per denominator, first try above final. */
export function rateGridChart(rates: RateCell[]): string {
  const cells = rates.filter((r) => r.rate !== null);
  if (cells.length === 0) return "";
  const label = (c: RateCell) => `${c.basis === "first" ? "first" : "final"} ${count(c.successes)}/${count(c.count)}`;
  const names = denominatorsOf(rates);
  const marks = (["first", "final"] as const).flatMap((basis) => {
    const rows = cells.filter((c) => c.basis === basis);
    const dy = basis === "first" ? -6 : 6;
    return [
      Plot.ruleY(
        rows.filter((c) => c.ci95),
        {
          y: "denominator",
          x1: (c: RateCell) => c.ci95![0] * 100,
          x2: (c: RateCell) => c.ci95![1] * 100,
          stroke: "basis",
          strokeWidth: 2,
          strokeOpacity: 0.7,
          dy,
        },
      ),
      Plot.dot(rows, {
        y: "denominator",
        x: (c: RateCell) => c.rate! * 100,
        fill: "basis",
        r: 4,
        dy,
        title: (c: RateCell) => `${c.basis}/${c.denominator}: ${c.successes}/${c.count} ${percent(c.rate)} ${ci(c.ci95)}`,
      }),
      Plot.text(rows, {
        y: "denominator",
        x: 100,
        text: label,
        textAnchor: "start",
        dx: 8,
        dy,
        fill: "#333",
      }),
    ];
  });
  return draw({
    width: 500,
    height: 230,
    marginLeft: marginFor(names, 14, 90, 160),
    // the labels right of 100% hold the counts: "final 333,334/1,000,000" at 10^6 trials
    marginRight: marginFor(cells.map(label), 14, 110, 200),
    x: { domain: [0, 100], label: "success rate (%), 95% interval", grid: true },
    y: { domain: names, label: null, tickFormat: shorten(146) },
    color: {
      domain: ["first", "final"],
      range: [BASIS_COLORS.first, BASIS_COLORS.final],
      legend: true,
      tickFormat: (b: string) => (b === "first" ? "first try" : "final (after retries)"),
    },
    marks,
  });
}

/** The chain of denominators (the bars', in step order) per basis: kept trials as bars, each step's removals stacked above by reason. */
export function waterfallChart(bars: WaterfallBar[]): string {
  if (bars.length === 0) return "";
  const kept = bars.filter((b) => b.part === "kept");
  const fill = (b: WaterfallBar) => (b.part === "kept" ? "kept" : (b.fault ?? "unknown"));
  const faults = ["kept", ...new Set(bars.filter((b) => b.part === "removed").map((b) => b.fault ?? "unknown"))];
  return draw({
    width: 700,
    height: 280,
    marginBottom: 30,
    x: { domain: denominatorsOf(kept), label: null, tickRotate: 0 },
    fx: { domain: ["first", "final"], label: null, tickFormat: (b: string) => (b === "first" ? "first try" : "final (after retries)") },
    y: { label: "trials", grid: true, tickFormat: wholeTicks },
    color: {
      type: "ordinal",
      domain: faults,
      range: faults.map((f) => FAULT_COLORS[f] ?? "#6B6B6B"),
      legend: true,
      tickFormat: (f: string) => (f === "kept" ? "kept" : `removed: ${f}`),
    },
    marks: [
      Plot.barY(bars, {
        fx: "basis",
        x: "denominator",
        y1: "y_lo",
        y2: "y_hi",
        fill,
        stroke: "white",
        strokeWidth: 0.5,
        title: (b: WaterfallBar) =>
          b.part === "kept"
            ? `${b.basis}/${b.denominator}: ${b.trials} trials kept`
            : `${b.basis}/${b.denominator}: ${b.trials} removed, ${b.reason} (${b.fault})`,
      }),
      Plot.text(kept, {
        fx: "basis",
        x: "denominator",
        y: "y_hi",
        text: (b: WaterfallBar) => count(b.trials),
        dy: 6,
        fill: "white",
        fontWeight: "bold",
        lineAnchor: "top",
      }),
      Plot.ruleY([0]),
    ],
  });
}

/** Trials per status on each basis, each bar split by status detail (white seams), coloured by status. */
export function statusDetailChart(rows: { status: string; status_detail: string | null; first: number; final: number }[]): string {
  const long = rows
    .flatMap((r) => (["first", "final"] as const).map((basis) => ({ basis, status: r.status, detail: r.status_detail ?? "(no detail)", trials: r[basis] })))
    .filter((r) => r.trials > 0);
  if (long.length === 0) return "";
  const statuses = statusOrder(long.map((r) => r.status));
  return draw({
    width: 460,
    height: 60 + 46 * statuses.length,
    marginLeft: 100,
    y: { domain: statuses, label: null },
    x: { label: "trials", grid: true, tickFormat: wholeTicks },
    fx: { domain: ["first", "final"], label: null, tickFormat: (b: string) => (b === "first" ? "first try" : "final") },
    color: { ...statusScale(statuses), legend: false },
    marks: [
      Plot.barX(
        long,
        Plot.stackX({
          fx: "basis",
          y: "status",
          x: "trials",
          fill: "status",
          stroke: "white",
          strokeWidth: 1,
          order: "trials",
          reverse: true,
          title: (r: { basis: string; status: string; detail: string; trials: number }) => `${r.basis}: ${r.status} · ${r.detail}: ${r.trials} trials`,
        }),
      ),
      Plot.ruleX([0]),
    ],
  });
}

/** The first -> final table as a grid of cells, darker for more trials, each with its count. */
export function transitionsChart(rows: { first: string; final: string; count: number }[]): string {
  if (rows.length === 0) return "";
  const first = statusOrder(rows.map((r) => r.first));
  const final = statusOrder(rows.map((r) => r.final));
  return draw({
    width: 100 + 80 * final.length,
    height: 60 + 34 * first.length,
    marginLeft: 100,
    marginTop: 36,
    x: { domain: final, label: "final →", axis: "top" },
    y: { domain: first, label: "first ↓" },
    color: { type: "sqrt", scheme: "blues", domain: [0, Math.max(...rows.map((r) => r.count))] },
    marks: [
      Plot.cell(rows, {
        x: "final",
        y: "first",
        fill: "count",
        inset: 1,
        title: (r: { first: string; final: string; count: number }) => `${r.first} -> ${r.final}: ${r.count} trials`,
      }),
      // dark text in a white halo reads on the lightest and the darkest cell alike
      Plot.text(rows, {
        x: "final",
        y: "first",
        text: (r: { count: number }) => count(r.count),
        fill: "black",
        stroke: "white",
        strokeWidth: 3,
        fontWeight: "bold",
      }),
    ],
  });
}

/** Timeout attempts per cause; queue and external (the environment's) in its colour, the agent's causes in the timeout colour. */
export function timeoutCauseChart(causes: Record<string, number>): string {
  const rows = Object.entries(causes).map(([cause, attempts]) => ({
    cause,
    attempts,
    fault: cause === "queue" || cause === "external" ? "environment" : "agent",
  }));
  if (rows.every((r) => r.attempts === 0)) return "";
  return draw({
    width: 420,
    height: 190,
    marginLeft: 70,
    // the longest bar's count is written past its end
    marginRight: marginFor(
      rows.map((r) => count(r.attempts)),
      10,
      40,
      120,
    ),
    y: { domain: rows.map((r) => r.cause), label: null },
    x: { label: "timeout attempts", grid: true, tickFormat: wholeTicks },
    color: {
      type: "ordinal",
      domain: ["environment", "agent"],
      range: [FAULT_COLORS.environment, FAULT_COLORS.agent],
      legend: true,
      tickFormat: (f: string) => `${f}'s fault`,
    },
    marks: [
      Plot.barX(rows, {
        y: "cause",
        x: "attempts",
        fill: "fault",
        title: (r: { cause: string; attempts: number }) => `${r.cause}: ${r.attempts} timeout attempts`,
      }),
      Plot.text(rows, { y: "cause", x: "attempts", text: (r: { attempts: number }) => count(r.attempts), textAnchor: "start", dx: 4 }),
      Plot.ruleX([0]),
    ],
  });
}

/** Attempt durations per status in the view's bins (seconds), one row per status, the timeout limits as dashed red lines. */
export function durationHistogramChart(bins: HistogramBin[], limits: number[]): string {
  if (bins.length === 0) return "";
  const statuses = statusOrder(bins.map((b) => b.status));
  const limitLabel = limits.length === 1 ? `limit ${seconds(limits[0])}` : "limits";
  // a limit's label reads right of its line, or left of it in the right half, where it would run off the chart
  const right = Math.max(...bins.map((b) => b.bin_hi_s), ...limits);
  const labelled = (side: "left" | "right") => limits.filter((l) => l > right / 2 === (side === "left"));
  const limitText = (side: "left" | "right") =>
    Plot.text(labelled(side), {
      x: (l: number) => l,
      frameAnchor: "top",
      text: () => limitLabel,
      fill: "#B00020",
      stroke: "white",
      strokeWidth: 3,
      textAnchor: side === "right" ? "start" : "end",
      dx: side === "right" ? 3 : -3,
      dy: 4,
    });
  return draw({
    width: 560,
    height: 50 + 80 * statuses.length,
    marginLeft: 40,
    // the statuses name the rows on the right
    marginRight: marginFor(statuses, 16, 70, 160),
    x: { label: "duration of the attempt (s)", grid: true, tickFormat: amountTicks },
    y: { label: "attempts", ticks: 3, tickFormat: wholeTicks },
    fy: { domain: statuses, label: null, tickFormat: (s: string) => s, padding: 0.2 },
    color: statusScale(statuses, false),
    marks: [
      Plot.rectY(
        bins.filter((b) => b.attempts > 0),
        {
          fy: "status",
          x1: "bin_lo_s",
          x2: "bin_hi_s",
          y: "attempts",
          fill: "status",
          inset: 0.5,
          title: (b: HistogramBin) => `${b.status}: ${b.attempts} attempts took ${seconds(b.bin_lo_s)} to under ${seconds(b.bin_hi_s)}`,
        },
      ),
      Plot.ruleX(limits, { stroke: "#B00020", strokeWidth: 1.5, strokeDasharray: "4,3" }),
      limitText("right"),
      limitText("left"),
      Plot.ruleY([0]),
    ],
  });
}

/** One cell per trial: tasks across (in task id order), run x trial slots down, coloured by final status, a title on each cell. */
export function waffleChart(cells: WaffleCell[], slotLabel: (c: WaffleCell) => string): string {
  if (cells.length === 0) return "";
  const statuses = statusOrder(cells.map((c) => c.status));
  const slots = [...new Map(cells.map((c) => [c.slot_index, slotLabel(c)])).entries()].sort((a, b) => a[0] - b[0]).map(([, l]) => l);
  const bands = [...new Set(cells.map((c) => c.task_band))].sort((a, b) => a - b);
  const columns = Math.max(...cells.map((c) => c.task_column)) + 1;
  const cell = Math.max(6, Math.min(18, Math.floor(960 / columns)));
  // room for the longest row label (run x trial) at about 6.2 px a character of 11 px text
  const left = Math.min(320, 16 + Math.ceil(6.2 * Math.max(...slots.map((l) => l.length))));
  return draw({
    width: left + columns * cell,
    height: 40 + bands.length * (slots.length * cell + 8),
    marginLeft: left,
    marginTop: 8,
    marginBottom: 30,
    x: { type: "band", domain: Array.from({ length: columns }, (_, i) => i), axis: null, padding: 0 },
    y: { type: "band", domain: slots, label: null, padding: 0, tickSize: 0, tickFormat: shorten(left - 16) },
    fy: { domain: bands, axis: null, padding: 0.1 },
    color: statusScale(statuses),
    marks: [
      Plot.cell(cells, {
        x: "task_column",
        y: slotLabel,
        fy: "task_band",
        fill: "status",
        inset: 0.5,
        title: (c: WaffleCell) =>
          [
            `task ${c.task_id}`,
            `trial ${c.trial}${c.run_id === null ? "" : ` of run ${c.run_id}`}`,
            `final: ${c.status}${c.status_detail ? ` (${c.status_detail})` : ""}`,
            `attempts: ${c.attempts}`,
            `wall time: ${seconds(c.trial_wall_s)}`,
          ].join("\n"),
      }),
    ],
  });
}

/** The waffle of a large run: trials per final status in each block of consecutive tasks, stacked. */
export function taskBlockChart(blocks: TaskBlock[]): string {
  if (blocks.length === 0) return "";
  const statuses = statusOrder(blocks.map((b) => b.status));
  return draw({
    width: 700,
    height: 260,
    x: { label: "blocks of tasks, in task id order", axis: null, padding: 0.05, type: "band" },
    y: { label: "trials", grid: true, tickFormat: wholeTicks },
    color: statusScale(statuses),
    marks: [
      Plot.barY(
        blocks,
        Plot.stackY({
          x: "block",
          y: "trials",
          fill: "status",
          order: statuses,
          title: (b: TaskBlock) => `tasks ${b.first_task} .. ${b.last_task} (${b.tasks}): ${b.trials} trials ${b.status}`,
        }),
      ),
      Plot.ruleY([0]),
    ],
  });
}

/** pass@k and pass^k against k with their 95% intervals. */
export function passAtKChart(rows: PassAtK[]): string {
  const long = rows
    .flatMap((r) => [
      { k: r.k, figure: "pass@k", value: r.pass_at_k, ci: r.pass_at_k_ci95 },
      { k: r.k, figure: "pass^k", value: r.pass_hat_k, ci: r.pass_hat_k_ci95 },
    ])
    .filter((r) => r.value !== null);
  // one k is one point per figure: the table says it all
  if (rows.length < 2 || long.length === 0) return "";
  type Row = (typeof long)[number];
  return draw({
    width: 420,
    height: 240,
    marginRight: 20,
    x: { label: "k", ticks: rows.map((r) => r.k).filter((k, i, all) => all.length <= 12 || i % Math.ceil(all.length / 12) === 0), tickFormat: "d", inset: 12 },
    y: { domain: [0, 100], label: "% of tasks", grid: true },
    color: { domain: ["pass@k", "pass^k"], range: [STATUS_COLORS.success, BASIS_COLORS.final], legend: true },
    marks: [
      ...(["pass@k", "pass^k"] as const).map((figure, i) =>
        Plot.ruleX(
          long.filter((r) => r.ci && r.figure === figure),
          {
            x: "k",
            y1: (r: Row) => r.ci![0] * 100,
            y2: (r: Row) => r.ci![1] * 100,
            stroke: "figure",
            strokeOpacity: 0.6,
            strokeWidth: 2,
            dx: i === 0 ? -2 : 2,
          },
        ),
      ),
      Plot.lineY(long, { x: "k", y: (r: Row) => r.value! * 100, stroke: "figure", z: "figure" }),
      Plot.dot(long, {
        x: "k",
        y: (r: Row) => r.value! * 100,
        fill: "figure",
        r: 3,
        title: (r: Row) => `${r.figure.replace("k", String(r.k))}: ${percent(r.value)}`,
      }),
    ],
  });
}

/** With --by: each group's rates on both bases with their intervals, one panel per denominator. */
export function groupRatesChart(groups: GroupFigures[]): string {
  const label = (g: GroupFigures) => g.value ?? "(none)";
  const rows = groups.flatMap((g) => g.rates.filter((r) => r.rate !== null).map((r) => ({ ...r, group: label(g) })));
  if (rows.length === 0) return "";
  type Row = (typeof rows)[number];
  const names = groups.map(label);
  const denominators = denominatorsOf(groups.flatMap((g) => g.rates));
  return draw({
    width: 680,
    height: 60 + denominators.length * (names.length * 22 + 14),
    marginLeft: marginFor(names, 14, 120, 220),
    marginRight: 90,
    x: { domain: [0, 100], label: "success rate (%), 95% interval", grid: true },
    y: { domain: names, label: null, tickFormat: shorten(206) },
    fy: { domain: denominators, label: null },
    fx: { domain: ["first", "final"], label: null, tickFormat: (b: string) => (b === "first" ? "first try" : "final") },
    color: { domain: ["first", "final"], range: [BASIS_COLORS.first, BASIS_COLORS.final] },
    marks: [
      Plot.frame({ stroke: "#ddd" }),
      Plot.ruleY(
        rows.filter((r) => r.ci95),
        { fx: "basis", fy: "denominator", y: "group", x1: (r: Row) => r.ci95![0] * 100, x2: (r: Row) => r.ci95![1] * 100, stroke: "basis", strokeWidth: 2 },
      ),
      Plot.dot(rows, {
        fx: "basis",
        fy: "denominator",
        y: "group",
        x: (r: Row) => r.rate! * 100,
        fill: "basis",
        r: 3.5,
        title: (r: Row) => `${r.group} ${r.basis}/${r.denominator}: ${r.successes}/${r.count} ${percent(r.rate)}`,
      }),
    ],
  });
}

/**
 * With --by: each group as a point at its cost per solved task (final/total,
 * USD, view per_success) and its final/total success rate, each with its 95%
 * interval as a bar, so that a group's price for its figure shows beside the
 * figure. Groups without a cost figure are left out (the table says n/a);
 * "" when fewer than two have one. A cost that is a lower bound (some attempts
 * recorded none) is drawn hollow.
 */
export function costSuccessChart(groups: GroupFigures[]): string {
  const rows = groups.flatMap((g) => {
    const cost = g.per_success.find((p) => p.denominator === "total");
    const rate = g.rates.find((r) => r.basis === "final" && r.denominator === "total");
    if (!cost || cost.cost_per_success_usd === null || !rate || rate.rate === null) return [];
    return [
      {
        group: g.value ?? "(none)",
        cost: cost.cost_per_success_usd,
        costCi: cost.cost_per_success_usd_ci95,
        lower: cost.cost_lower_bound,
        rate: rate.rate * 100,
        rateCi: rate.ci95,
      },
    ];
  });
  if (rows.length < 2) return "";
  type Row = (typeof rows)[number];
  const usd = (v: number) => `$${v >= 100 ? compactCount(Math.round(v)) : v.toFixed(v >= 1 ? 2 : 4)}`;
  return draw({
    width: 680,
    height: 320,
    marginLeft: 50,
    marginRight: marginFor(
      rows.map((r) => r.group),
      16,
      40,
      160,
    ),
    x: { label: "cost per solved task (USD, final/total), 95% interval", grid: true, zero: true, tickFormat: usd },
    y: { domain: [0, 100], label: "final/total success (%), 95% interval", grid: true },
    marks: [
      Plot.frame({ stroke: "#ddd" }),
      Plot.ruleY(
        rows.filter((r) => r.costCi),
        { y: "rate", x1: (r: Row) => r.costCi![0], x2: (r: Row) => r.costCi![1], stroke: BASIS_COLORS.first, strokeWidth: 1.5 },
      ),
      Plot.ruleX(
        rows.filter((r) => r.rateCi),
        { x: "cost", y1: (r: Row) => r.rateCi![0] * 100, y2: (r: Row) => r.rateCi![1] * 100, stroke: BASIS_COLORS.first, strokeWidth: 1.5 },
      ),
      Plot.dot(rows, {
        x: "cost",
        y: "rate",
        r: 4,
        stroke: BASIS_COLORS.final,
        fill: (r: Row) => (r.lower ? "white" : BASIS_COLORS.final),
        title: (r: Row) => `${r.group}: ${usd(r.cost)}${r.lower ? " or more" : ""} per solved task, ${percent(r.rate / 100)} final/total`,
      }),
      Plot.text(rows, { x: "cost", y: "rate", text: (r: Row) => shorten(150)(r.group), dx: 8, textAnchor: "start", ...FONT }),
    ],
  });
}

/** One cell of a comparison as the difference chart reads it (docs/compare.md): B - A and its 95% interval, fractions. */
export interface DifferenceCell {
  basis: string;
  denominator: string;
  difference: number | null;
  ci95: [number, number] | null;
}

/** The paired difference B - A per cell as a dot on a points axis with its 95% interval, a rule at 0: one row per denominator, first try above final. */
export function differenceChart(cells: DifferenceCell[]): string {
  const shown = cells.filter((c) => c.difference !== null);
  if (shown.length === 0) return "";
  const ends = shown.flatMap((c) => [c.difference!, ...(c.ci95 ?? [])]).map((v) => v * 100);
  const reach = Math.min(100, Math.max(10, ...ends.map(Math.abs)));
  const marks = (["first", "final"] as const).flatMap((basis) => {
    const rows = shown.filter((c) => c.basis === basis);
    const dy = basis === "first" ? -6 : 6;
    return [
      Plot.ruleY(
        rows.filter((c) => c.ci95),
        {
          y: "denominator",
          x1: (c: DifferenceCell) => c.ci95![0] * 100,
          x2: (c: DifferenceCell) => c.ci95![1] * 100,
          stroke: "basis",
          strokeWidth: 2,
          strokeOpacity: 0.7,
          dy,
        },
      ),
      Plot.dot(rows, {
        y: "denominator",
        x: (c: DifferenceCell) => c.difference! * 100,
        fill: "basis",
        r: 4,
        dy,
        title: (c: DifferenceCell) => `${c.basis}/${c.denominator}: B - A ${(c.difference! * 100).toFixed(1)} points`,
      }),
    ];
  });
  return draw({
    width: 500,
    height: 230,
    marginLeft: marginFor(denominatorsOf(cells), 14, 90, 160),
    marginRight: 20,
    x: { domain: [-reach, reach], label: "B - A (points), 95% interval", grid: true },
    y: { domain: denominatorsOf(cells), label: null, tickFormat: shorten(146) },
    color: {
      domain: ["first", "final"],
      range: [BASIS_COLORS.first, BASIS_COLORS.final],
      legend: true,
      tickFormat: (b: string) => (b === "first" ? "first try" : "final (after retries)"),
    },
    marks: [Plot.ruleX([0], { stroke: "#333" }), ...marks],
  });
}
