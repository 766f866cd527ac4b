/**
 * The report as one self-contained HTML page (docs/html-report.md): inline CSS, charts
 * as inline SVG drawn in Node (charts.ts), no script, no font, image or style sheet
 * fetched (a Content-Security-Policy forbids any), so it opens from disk and reads
 * the same without JavaScript. Every chart has its numbers in a table beside it.
 * Sections: meta block, rate grid, denominator chain as a waterfall, trials by status
 * and detail, first -> final, timeouts by cause with each attempt's evidence,
 * durations per status with the timeout limit, the task x trial waffle, pass@k and
 * pass^k, time/tokens/cost, retries, per-call outcomes, inventory, diagnostics, the
 * `--by` groups side by side, rejects and skipped files. Prints on A4.
 *
 * Same data and sentences as the text report; no figure is computed here. Every
 * text from the inputs is HTML-escaped. Table cells carry `data-*` attributes that
 * name the figure they show (the browser test reads them).
 * Needs `data.charts` (runReport with `charts: true`); throws Error without it.
 */
import type { ChartData, WaffleCell } from "../commands/report-charts.js";
import type { TimeoutRow } from "../commands/timeouts.js";
import type { ReportData } from "../commands/report.js";
import * as charts from "./charts.js";
import { bytes, count, percent, plural, ratio, seconds } from "../number-format.js";
import { ci, compactGroups, groupRows, intervalNote, metricsBlocks, SIDE_BY_SIDE_MAX, type Block } from "./metrics-text.js";
import { diagnosticFacts, floorFacts, floorTable, metaFacts, STRICT, statusRows, strictLine } from "./report-text.js";
import { noticeLines } from "../ingest/notices.js";
import { esc, list, num, page, pair, section, table, type Cell, type CellLike } from "./html.js";

export function renderReportHtml(data: ReportData): string {
  const c = data.charts;
  if (!c) throw new Error("renderReportHtml needs the chart figures: runReport({ charts: true })");
  const m = data.meta;
  const blocks = new Map(metricsBlocks(data).map((b) => [b.key, b] as const));
  const title = `${m.tool}: ${plural(m.tasks, "task")}, ${plural(m.trials, "trial")}, ${plural(m.attempts, "attempt")}${m.runs > 1 ? ` in ${m.runs} runs` : ""}`;
  const sections = [
    // what could make a figure wrong unseen opens the page, as it opens the text report
    warningsSection(data),
    metaSection(data),
    gridSection(data),
    floorSection(data),
    data.by && m.grouping.figure_to_quote !== "overall" ? groupsSection(data) : "",
    waterfallSection(data, c),
    statusSection(data),
    transitionsSection(data),
    timeoutsSection(data, c),
    durationSection(data, c, blocks.get("duration")),
    waffleSection(data, c),
    passSection(data, blocks.get("pass_at_k")),
    ...(["cost", "per_success", "retries", "per_call", "inventory"] as const)
      .map((k) => blocks.get(k))
      .filter((b): b is Block => b !== undefined)
      .map((b) => blockSection(b.key, b)),
    diagnosticsSection(data),
    data.by && m.grouping.figure_to_quote === "overall" ? groupsSection(data) : "",
    rejectsSection(data),
  ].filter((s) => s !== "");
  return page(title, headline(data), sections, NAV, m.tool);
}

/** The short name of each section in the navigation line. */
const NAV: Record<string, string> = {
  warnings: "Warnings",
  meta: "Meta",
  grid: "Rates",
  floor: "Floor",
  waterfall: "Denominator chain",
  status: "Status",
  transitions: "First → final",
  timeouts: "Timeouts",
  durations: "Durations",
  waffle: "Every trial",
  "pass-at-k": "pass@k",
  cost: "Time and cost",
  "per-success": "Per solved task",
  retries: "Retries",
  "per-call": "Per call",
  inventory: "Inventory",
  diagnostics: "Diagnostics",
  groups: "Groups",
  rejects: "Rejects",
};

/** The strict figure and the most generous one in one sentence, under the title. */
function headline(data: ReportData): string {
  const g = data.meta.grouping;
  if (g.figure_to_quote !== "overall") {
    const each = data.groups.map((x) => `${x.value ?? "(none)"}: ${ratio(x.rates.find((r) => r.basis === "final" && r.denominator === "total"))}`);
    return `${strictLine(data)
      .replace(/^[*!] /, "")
      .replace(/\s+/g, " ")}. Strict success (final, every trial) per group: ${each.join("; ")}.`;
  }
  const strict = data.rates.find((r) => r.basis === "final" && r.denominator === "total");
  const last = data.meta.definitions.denominators.at(-1)?.denominator;
  const kindest = data.rates.find((r) => r.basis === "final" && r.denominator === last);
  if (!strict || strict.rate === null) return "no trials: every rate is n/a";
  return `Strict success (final, every trial): ${ratio(strict)}. The most generous denominator (${last}) makes it ${ratio(kindest)}.`;
}

/**
 * What could make the figures wrong unseen (the notices that open the text
 * report and go to stderr: differing duplicates across sources, pooling, runs
 * scored off their scale, lookalike ids), first on the page; empty without one.
 */
function warningsSection(data: ReportData): string {
  const lines = noticeLines(data.meta, data.by ?? null, data.meta.grouping.pool);
  return lines.length ? section("warnings", "Warnings", list(lines)) : "";
}

function metaSection(data: ReportData): string {
  const m = data.meta;
  // the counts beside the name, the long hash last: on a phone the table scrolls, the name stays
  const sources = table(
    ["source", "lines", "records", "blank", "rejected", "bytes", "format", "read as", "sha256"],
    m.sources.map((s) => [
      s.name + (s.problem ? ` (${s.problem})` : ""),
      num(s.lines),
      num(s.records),
      num(s.blank),
      num(s.rejected),
      num(bytes(s.bytes)),
      s.format,
      s.adapter ?? "",
      { text: s.sha256, data: { kind: "sha256" } },
    ]),
    "sources",
  );
  const facts = metaFacts(data);
  const definitions = table(
    ["denominator", "keeps", "removes"],
    m.definitions.denominators.map((d) => [{ text: d.denominator, data: { denominator: d.denominator } }, d.keeps, d.removes]),
  );
  const defs = [
    `<p><b>success</b>: ${esc(m.definitions.success)}</p>`,
    ...Object.entries(m.definitions.basis).map(([b, text]) => `<p><b>${esc(b)}</b>: ${esc(text)}</p>`),
  ].join("");
  return section("meta", "Meta", `${sources}${list(facts)}<div class="pair"><div>${definitions}</div><div class="defs">${defs}</div></div>`);
}

/** The floor's table and facts (--floor); nothing without it. */
function floorSection(data: ReportData): string {
  if (!data.floor) return "";
  const t = floorTable(data.floor);
  return section("floor", t.title, table(t.head, t.rows, "floor") + list(floorFacts(data.floor)));
}

function gridSection(data: ReportData): string {
  const cell = (basis: string, d: string) => data.rates.find((r) => r.basis === basis && r.denominator === d);
  // the figure to quote marked * as in the text report: final/total, when the inputs hold one system
  const quoted = data.meta.grouping.figure_to_quote === "overall";
  const rows = data.meta.definitions.denominators.map((d) => {
    const out: CellLike[] = [{ text: d.denominator, data: { denominator: d.denominator } }];
    for (const basis of ["first", "final"]) {
      const r = cell(basis, d.denominator);
      const key = `${basis}/${d.denominator}`;
      const quote = quoted && basis === STRICT.basis && d.denominator === STRICT.denominator && r !== undefined && r.rate !== null;
      out.push(
        { text: r ? `${r.successes}/${r.count}` : "", data: { cell: key, figure: "ratio" }, num: true, quote },
        { text: percent(r?.rate), data: { cell: key, figure: "rate" }, num: true, quote },
        { text: r ? ci(r.ci95) : "", data: { cell: key, figure: "ci95" }, num: true, quote, html: quote ? ' <span class="mark">*</span>' : "" },
      );
    }
    return out;
  });
  const grid = table(["denominator", "first try", "rate", "95% CI", "final", "rate", "95% CI"], rows, "grid");
  const strict = strictLine(data).replace(/\s+/g, " ");
  const note = `<p class="quote-line">${esc(strict)}</p><p class="note">${esc(intervalNote(data))}. Rates over 0 trials are n/a.</p>`;
  return section("grid", "Success rate on both bases", pair(charts.rateGridChart(data.rates), grid + note));
}

function waterfallSection(data: ReportData, c: ChartData): string {
  const rows: CellLike[][] = [];
  for (const basis of ["first", "final"] as const) {
    for (const d of data.meta.definitions.denominators) {
      const kept = c.waterfall.find((b) => b.basis === basis && b.denominator === d.denominator && b.part === "kept");
      const removed = c.waterfall.filter((b) => b.basis === basis && b.denominator === d.denominator && b.part === "removed");
      const step = data.denominator_steps.find((s) => s.basis === basis && s.denominator === d.denominator);
      const key = `${basis}/${d.denominator}`;
      rows.push([
        basis,
        { text: d.denominator, data: { denominator: d.denominator } },
        { text: kept?.trials ?? "", data: { cell: key, figure: "kept" }, num: true },
        { text: step?.removed ?? "", data: { cell: key, figure: "removed" }, num: true },
        { text: removed.map((r) => `${r.reason} ${r.trials}`).join("; ") || (step?.removed === null ? "" : "nothing"), data: { cell: key, figure: "reasons" } },
      ]);
    }
  }
  const body = table(["basis", "step", "trials kept", "removed", "removed, by reason (judged on the basis attempt)"], rows, "waterfall");
  return section("waterfall", "The denominator chain", pair(charts.waterfallChart(c.waterfall), body, "wide"));
}

function statusSection(data: ReportData): string {
  let status = "";
  const rows = statusRows(data).map(([s, first, final]) => {
    const label = String(s);
    const detail = label.startsWith("  ");
    if (!detail) status = label;
    const attrs: Record<string, string> = detail ? { status, detail: label.trim() } : { status };
    return [
      { text: detail ? `↳ ${label.trim()}` : label, data: attrs },
      { text: first, data: { ...attrs, basis: "first" }, num: true },
      { text: final, data: { ...attrs, basis: "final" }, num: true },
    ] as CellLike[];
  });
  const tr = data.timeout_rate;
  const body = `${table(["status / detail", "first", "final"], rows, "status")}<p class="note">timeout rate (final timeouts / all trials): ${tr.timeouts}/${tr.trials} ${percent(tr.rate)}</p>`;
  return section("status", "Trials by status and detail", pair(charts.statusDetailChart(data.status_detail_counts), body));
}

function transitionsSection(data: ReportData): string {
  const body = table(
    ["first", "final", "trials"],
    data.transitions.map((t) => [t.first, t.final, { text: t.count, data: { first: t.first, final: t.final }, num: true }]),
    "transitions",
  );
  return section("transitions", "First try -> final", pair(charts.transitionsChart(data.transitions), body));
}

function timeoutsSection(data: ReportData, c: ChartData): string {
  const total = data.diagnostics.timeout_attempts;
  if (total === 0) return section("timeouts", "Timeouts by cause", "<p>no timeouts</p>");
  const causes = table(
    ["cause", "attempts", "share"],
    Object.entries(data.timeout_causes).map(([cause, n]) => [cause, { text: n, data: { cause }, num: true }, num(percent(data.timeout_cause_shares[cause]))]),
    "timeout-causes",
  );
  const thresholds = data.meta.thresholds;
  const rules = `<p class="note">Rules in order, the first that fires wins: queue (wait >= ${percent(thresholds.queue_share, 0)} of the limit), external (a request still waiting), loop (>= ${thresholds.loop_min} identical calls), sluggish (gaps x${thresholds.sluggish_ratio}), unknown. Queue and external are the environment's.</p>`;
  const runs = new Set(c.timeouts.map((t) => t.run_id)).size > 1;
  const groups = timeoutGroups(c.timeouts, runs);
  const shown = groups.slice(0, TIMEOUT_GROUPS_LISTED);
  const evidence = table(
    [...(runs ? ["run"] : []), "cause", "attempts", "evidence", "task: trial (attempt)"],
    shown.map((g): CellLike[] => [
      ...(runs ? [g.run_id ?? "(default)"] : []),
      { text: g.cause, data: { cause: g.cause } },
      { text: count(g.rows.length), num: true, data: { cause: g.cause, figure: "attempts" } },
      { text: g.evidence, data: { figure: "evidence" } },
      { text: "", data: { figure: "ids" }, html: timeoutIds(g.rows) },
    ]),
    "timeout-evidence",
  );
  const grouped = `<p class="note">Attempts that differ only in task, trial and attempt are one row, with their count; their ids are listed in it (attempt 1 unless named).</p>`;
  const more =
    groups.length > shown.length ? `<p class="note">${shown.length} of ${groups.length} rows listed; <code>denom timeouts</code> lists every attempt.</p>` : "";
  return section(
    "timeouts",
    `Timeouts by cause (${plural(total, "timeout attempt")})`,
    `${pair(charts.timeoutCauseChart(data.timeout_causes), causes + rules)}<h3>Each timeout attempt and its evidence</h3>${grouped}${evidence}${more}`,
  );
}

/** Rows of the evidence table listed (each a group of attempts), and attempts named in one row: `denom timeouts` lists every one. */
export const TIMEOUT_GROUPS_LISTED = 300;
export const TIMEOUT_IDS_LISTED = 300;

/** Timeout attempts with the same run (when the page shows runs), cause and evidence: one row of the table. */
interface TimeoutGroup {
  run_id: string | null;
  cause: string;
  evidence: string;
  rows: TimeoutRow[];
}

/**
 * The timeout attempts grouped for display (no figure: the rows as `denom timeouts`
 * lists them, those identical in every shown column but the ids put together), in
 * the order of each group's first attempt (cause in rule order, then run, task, trial).
 */
function timeoutGroups(rows: TimeoutRow[], runs: boolean): TimeoutGroup[] {
  const groups = new Map<string, TimeoutGroup>();
  for (const t of rows) {
    const key = JSON.stringify([runs ? t.run_id : null, t.cause, t.evidence]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { run_id: t.run_id, cause: t.cause, evidence: t.evidence, rows: [] }));
    g.rows.push(t);
  }
  return [...groups.values()];
}

/**
 * The ids of a group's attempts, one entry per task: "cartpole-rl-training: trials 1, 2, 3",
 * "task-017: trial 0 (attempts 1, 2)" (attempt 1 unless named). One task in the cell as it
 * is; more in a <details> whose summary names the first, at most TIMEOUT_IDS_LISTED attempts.
 */
function timeoutIds(rows: TimeoutRow[]): string {
  const listed = rows.slice(0, TIMEOUT_IDS_LISTED);
  const tasks = new Map<string, Map<number, number[]>>();
  for (const t of listed) {
    const trials = tasks.get(t.task_id) ?? tasks.set(t.task_id, new Map()).get(t.task_id)!;
    (trials.get(t.trial) ?? trials.set(t.trial, []).get(t.trial)!).push(t.attempt);
  }
  const lines = [...tasks].map(([task, trials]) => {
    const items = [...trials].map(([trial, attempts]) =>
      attempts.length === 1 && attempts[0] === 1 ? String(trial) : `${trial} (${attempts.length === 1 ? "attempt" : "attempts"} ${attempts.join(", ")})`,
    );
    return `${task}: ${items.length === 1 ? "trial" : "trials"} ${items.join(", ")}`;
  });
  const rest = rows.length - listed.length;
  const more = rest ? [`… and ${plural(rest, "more attempt")}: denom timeouts lists them all`] : [];
  if (lines.length === 1 && !rest) return esc(lines[0]);
  const summary = `${lines[0]}${lines.length > 1 ? ` and ${plural(lines.length - 1, "more task")}` : ""}${rest ? " …" : ""}`;
  return `<details><summary>${esc(summary)}</summary><ul class="ids">${[...lines, ...more].map((l) => `<li>${esc(l)}</li>`).join("")}</ul></details>`;
}

function durationSection(data: ReportData, c: ChartData, block: Block | undefined): string {
  const limits = data.meta.timeout_limits.map((t) => t.timeout_limit_s).filter((l): l is number => l !== null);
  const statuses = charts.statusOrder(c.duration_histogram.map((b) => b.status));
  const bins = [...new Map(c.duration_histogram.map((b) => [b.bin, b] as const)).values()];
  const histogram = bins.length
    ? table(
        ["seconds", ...statuses],
        bins.map((b) => [
          `${b.bin_lo_s} - ${b.bin_hi_s}`,
          ...statuses.map((s) => ({ text: c.duration_histogram.find((x) => x.bin === b.bin && x.status === s)?.attempts ?? 0, num: true }) as Cell),
        ]),
        "histogram",
      )
    : "";
  const summary = block ? blockBody(block) : "";
  const limitNote = limits.length
    ? `<p class="note">Dashed red line: the timeout limit${limits.length > 1 ? "s" : ""} (${limits.map(seconds).join(", ")}). Bins include their lower bound.</p>`
    : "";
  return section(
    "durations",
    block?.title ?? "Duration per attempt",
    pair(charts.durationHistogramChart(c.duration_histogram, limits), summary + limitNote + histogram),
  );
}

function waffleSection(data: ReportData, c: ChartData): string {
  const statuses = charts.statusOrder(Object.keys(data.status_counts.final));
  const counts = table(
    ["final status", "trials"],
    statuses.map((s) => [
      { text: s, data: { status: s } },
      { text: data.status_counts.final[s] ?? 0, data: { status: s }, num: true },
    ]),
    "waffle-counts",
  );
  const runs = data.meta.runs > 1;
  const slot = (w: WaffleCell) => (runs ? `${w.run_id ?? "(default)"} · trial ${w.trial}` : `trial ${w.trial}`);
  if (c.waffle.length) {
    const note = `<p class="note">One cell per trial: tasks across in task id order (rows of 100 tasks), trial slots down. Hover a cell for its task, status, detail, attempts and wall time.</p>`;
    return section("waffle", "Every trial by final status", pair(charts.waffleChart(c.waffle, slot), counts + note, "wide"));
  }
  const note = `<p class="note">${c.waffle_trials} trials are too many for one cell each: each bar is a block of consecutive tasks (task id order), split by the final status of their trials. Hover a bar segment for its tasks.</p>`;
  return section("waffle", "Every trial by final status (blocks of tasks)", pair(charts.taskBlockChart(c.task_blocks), counts + note, "wide"));
}

function passSection(data: ReportData, block: Block | undefined): string {
  if (!block) return "";
  return section("pass-at-k", block.title, pair(charts.passAtKChart(data.pass_at_k), blockBody(block, "pass-at-k")));
}

function blockSection(id: string, block: Block): string {
  return section(id.replaceAll("_", "-"), block.title, blockBody(block, id));
}

/** A metrics block as an HTML table and a list, the text report's wording; `quote(row, column)` marks the cells of a figure to quote. */
function blockBody(block: Block, id?: string, quote: (row: number, column: number) => boolean = () => false): string {
  const t = block.table
    ? table(
        block.table.head,
        block.table.rows.map((r, j) =>
          r.map((x, i): CellLike => ({ text: x, num: block.table!.align[i] === "right", quote: quote(j, i) && !String(x).endsWith("n/a") })),
        ),
        id,
      )
    : "";
  return t + list(block.lines.map((l) => l.trim().replace(/ {2,}/g, " ")));
}

function diagnosticsSection(data: ReportData): string {
  const lines = diagnosticFacts(data).map((l) => l.trim());
  const verdict = data.verdicts
    .filter((v) => v.rows.length)
    .map((v) => `<h3>${esc(v.heading)}</h3>${list(v.lines.map((l) => l.trim()))}`)
    .join("");
  if (!lines.length && !verdict) return "";
  return section("diagnostics", "Diagnostics", list(lines) + verdict);
}

function groupsSection(data: ReportData): string {
  // many groups: one row each (the side-by-side table would be as wide as their count)
  // each group's own figure to quote is the row (or column) the text report marks *: highlighted
  const marked = (label: string) => label.endsWith(" *");
  // what each group's figure costs: a point per group at its cost per solved task and its rate
  const svg = charts.costSuccessChart(data.groups);
  const cost = svg
    ? pair(
        svg,
        `<p class="note">Each group at its cost per solved task (every attempt's spend, retries included, over final successes) and its final/total rate, both with their 95% intervals; a hollow point is a lower bound (some attempts recorded no cost).</p>`,
      )
    : "";
  if (data.groups.length > SIDE_BY_SIDE_MAX) {
    const block = compactGroups(data);
    const quoteColumn = block.table!.head.findIndex(marked);
    return section("groups", block.title, blockBody(block, "groups", (_, i) => i === quoteColumn) + cost);
  }
  const head = ["", ...data.groups.map((g) => g.value ?? "(none)")];
  const rows = groupRows(data.groups, data).map(([label, ...cells]) => [
    label.startsWith("  ") ? `↳ ${label.trim()}` : label,
    ...cells.map((text): Cell => ({ text, num: true, quote: marked(label) && text !== "" && !text.endsWith("n/a") })),
  ]);
  const body = table(head, rows, "groups");
  return section(
    "groups",
    `By ${data.by}: the groups side by side`,
    pair(charts.groupRatesChart(data.groups), `${body}<p class="note">n/a = no trial in that cell.</p>`) + cost,
  );
}

function rejectsSection(data: ReportData): string {
  const a = data.accounting;
  const parts: string[] = [];
  parts.push(`<p>${plural(a.rejected, "line")} rejected of ${a.lines}; ${plural(data.meta.skipped_files.length, "file")} skipped.</p>`);
  if (data.rejects.length) {
    parts.push(
      table(
        ["source", "line", "reason"],
        data.rejects.map((r) => [r.source, num(r.location ?? r.line), r.reason]),
        "rejects",
      ),
    );
    if (a.rejected > data.rejects.length)
      parts.push(`<p class="note">${data.rejects.length} of ${a.rejected} listed; <code>denom export --what rejects</code> writes them all.</p>`);
  }
  if (data.meta.skipped_files.length)
    parts.push(
      table(
        ["skipped file", "reason"],
        data.meta.skipped_files.map((f) => [f.name, f.reason]),
        "skipped",
      ),
    );
  return section("rejects", "Rejected lines and skipped files", parts.join(""));
}
