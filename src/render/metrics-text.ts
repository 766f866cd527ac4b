/**
 * The metrics sections of the text report (docs/metrics.md), after the grid and
 * the breakdowns: pass@k and pass^k, duration, time/tokens/cost, retries, per-call
 * outcomes, the trial inventory, and with `--by` every figure per group side by
 * side. Short sections, 80 columns; rates arrive as fractions, n/a where null.
 */
import {
  INVENTORY_LISTED,
  type CallOutcome,
  type Efficiency,
  type GroupFigures,
  type Interval,
  type Inventory,
  type PassAtK,
  type PerSuccess,
} from "../commands/report-metrics.js";
import type { ReportData } from "../commands/report.js";
import { count, duration, fixed, percent, plural, ratio } from "../number-format.js";
import { heading, table, type TextOptions } from "./table.js";

/** Groups per side-by-side table, so that a table stays within 80 columns. */
const GROUPS_PER_TABLE = 3;
/** The widest group name shown as a column header; longer names are numbered, with a legend. */
const GROUP_COLUMN = 15;
/** pass@k rows printed before the last one when k runs long. */
const PASS_K_SHOWN = 10;
/** Task ids printed per inventory list before "and N more". */
const IDS_SHOWN = 10;

/** "[60.4, 78.0]" in percent, or "" when there is no interval. */
export function ci(interval: Interval): string {
  return interval ? `[${(interval[0] * 100).toFixed(1)}, ${(interval[1] * 100).toFixed(1)}]` : "";
}

/** The line under the grid that says how its intervals were made. */
export function intervalNote(data: ReportData): string {
  const method = data.rates[0]?.ci_method;
  const c = data.confidence;
  if (method === "bootstrap") return `95% intervals: bootstrap over tasks (${c.resamples} resamples, seed ${c.seed})`;
  if (method === "clustered") return `95% intervals: cluster-robust over tasks (normal, ${count(c.clustered_from_tasks)}+ tasks)`;
  return "95% intervals: Wilson score over single trials";
}

/**
 * One metrics section, free of any output format: a title, an optional table and
 * lines of text (each starting with its indent). The text report prints it with
 * cli-table3, the markdown report as a markdown table and a list.
 */
export interface Block {
  /** which section this is, for renderers that place sections apart (the HTML report) */
  key: "pass_at_k" | "duration" | "cost" | "per_success" | "retries" | "per_call" | "inventory" | "groups";
  title: string;
  table?: { head: string[]; rows: (string | number)[][]; align: ("left" | "right")[] };
  lines: string[];
}

/** The metrics sections in report order; sections with nothing to say are left out. */
export function metricsBlocks(data: ReportData): Block[] {
  const out = [passAtKSection(data.pass_at_k, data.meta.runs), durationSection(data.efficiency), costSection(data.efficiency)];
  const perSuccess = perSuccessSection(data.per_success);
  if (perSuccess) out.push(perSuccess);
  out.push(retrySection(data));
  const calls = callSection(data.per_call);
  if (calls) out.push(calls);
  const inventory = inventorySection(data.inventory);
  if (inventory) out.push(inventory);
  if (data.by) out.push(...groupSections(data));
  return out;
}

/** The metrics sections as text, each a block of lines; `only` keeps the blocks it accepts. */
export function renderMetricsText(data: ReportData, options: TextOptions, only: (key: Block["key"]) => boolean = () => true): string[] {
  return metricsBlocks(data)
    .filter((b) => only(b.key))
    .map((b) => {
      const out = [heading(b.title, options)];
      if (b.table) out.push(table(b.table.head, b.table.rows, b.table.align, options));
      out.push(...b.lines);
      return out.join("\n");
    });
}

function passAtKSection(rows: PassAtK[], runs: number): Block {
  const title = "pass@k and pass^k (final basis; n = trials of a task, c = its successes)";
  if (rows.length === 0) return { key: "pass_at_k", title, lines: ["  no trials"] };
  // many pooled trials make k run long: the first ten and the last, the rest in --json
  const shown = rows.length > PASS_K_SHOWN + 1 ? [...rows.slice(0, PASS_K_SHOWN), rows[rows.length - 1]] : rows;
  const body = shown.map((r) => [r.k, percent(r.pass_at_k), ci(r.pass_at_k_ci95), percent(r.pass_hat_k), ci(r.pass_hat_k_ci95), r.tasks, r.skipped]);
  const lines: string[] = [];
  if (shown.length < rows.length) lines.push(`  k = ${PASS_K_SHOWN + 1} .. ${rows[rows.length - 2].k} left out here; --json lists every k`);
  lines.push("  pass@k: at least one of k trials passes, 1 - C(n-c,k)/C(n,k) (Codex paper)");
  lines.push("  pass^k: all k trials pass, C(c,k)/C(n,k) (tau-bench); both means over tasks");
  lines.push("  a task with fewer than k trials is skipped for that k, never filled in");
  if (runs > 1) lines.push(`  n pools a task's trials of all ${runs} runs (--by run_id or --by agent splits them)`);
  return {
    key: "pass_at_k",
    title,
    table: {
      head: ["k", "pass@k", "95% CI", "pass^k", "95% CI", "tasks", "skipped"],
      rows: body,
      align: ["right", "right", "left", "right", "left", "right", "right"],
    },
    lines,
  };
}

function durationSection(e: Efficiency): Block {
  const title = "Duration per attempt (end - start; nearest-rank p50/p95)";
  if (e.timed_attempts === 0) return { key: "duration", title, lines: ["  no attempt has both started_at and ended_at"] };
  const row = (label: string, n: number, d: { mean: number | null; p50: number | null; p95: number | null; max: number | null }) => [
    label,
    n,
    duration(d.mean),
    duration(d.p50),
    duration(d.p95),
    duration(d.max),
  ];
  const rows = [
    row("all", e.timed_attempts, e.duration_s),
    ...e.duration_by_status.filter((s) => s.attempts > 0).map((s) => row(s.status, s.timed_attempts, s)),
  ];
  const lines: string[] = [];
  if (e.timed_attempts < e.attempts)
    lines.push(`  ${e.attempts - e.timed_attempts} of ${count(e.attempts)} attempts lack a start or end time and are left out`);
  return {
    key: "duration",
    title,
    table: { head: ["status", "timed", "mean", "p50", "p95", "max"], rows, align: ["left", "right", "right", "right", "right", "right"] },
    lines,
  };
}

function costSection(e: Efficiency): Block {
  const lines: string[] = [];
  lines.push(`  agent time ${duration(e.agent_time_s)} (sum of attempt durations)`);
  lines.push(`  wall time  ${duration(e.wall_s)} (first start to last end)`);
  lines.push(`  LLM tokens ${mean(e.llm_tokens_mean, 0)} per attempt (recorded on ${count(e.llm_tokens_attempts)} of ${count(e.attempts)})`);
  lines.push(`  tool calls ${mean(e.tool_calls_mean, 1)} per attempt (recorded on ${count(e.tool_calls_attempts)} of ${count(e.attempts)})`);
  if (e.cost_usd_total === null) lines.push("  cost       not recorded");
  else {
    lines.push(`  cost       ${usd(e.cost_usd_total)} total (every attempt, retries included)`);
    lines.push(`             ${usd(e.cost_per_trial)} per trial, ${usd(e.cost_per_success)} per final success (${count(e.final_successes)})`);
    if (e.cost_missing_attempts > 0)
      lines.push(`  ! ${count(e.cost_missing_attempts)} of ${count(e.attempts)} attempts have no cost (not read as 0): the cost figures are lower bounds`);
  }
  return { key: "cost", title: "Time, tokens and cost", lines };
}

/** The figures of perSuccessSection: label, the value and interval of a row, its words in a note. */
const PER_SUCCESS_FIGURES = [
  {
    label: "cost",
    value: (p: PerSuccess) => p.cost_per_success_usd,
    ci95: (p: PerSuccess) => p.cost_per_success_usd_ci95,
    recorded: (p: PerSuccess) => p.cost_usd,
    lowerBound: (p: PerSuccess) => p.cost_lower_bound,
    missing: (p: PerSuccess) => p.cost_missing_attempts,
    lack: "no cost",
    show: usd,
  },
  {
    label: "LLM tokens",
    value: (p: PerSuccess) => p.llm_tokens_per_success,
    ci95: (p: PerSuccess) => p.llm_tokens_per_success_ci95,
    recorded: (p: PerSuccess) => p.llm_tokens,
    lowerBound: (p: PerSuccess) => p.llm_tokens_lower_bound,
    missing: (p: PerSuccess) => p.llm_tokens_missing_attempts,
    lack: "no token count",
    show: (v: number | null) => mean(v, 0),
  },
  {
    label: "agent time",
    value: (p: PerSuccess) => p.agent_time_per_success_s,
    ci95: (p: PerSuccess) => p.agent_time_per_success_s_ci95,
    recorded: (p: PerSuccess) => p.agent_time_s,
    lowerBound: (p: PerSuccess) => p.agent_time_lower_bound,
    missing: (p: PerSuccess) => p.untimed_attempts,
    lack: "no start or end time",
    show: duration,
  },
] as const;

/**
 * Cost (and LLM tokens, agent time) per solved task under each denominator, with its
 * task-clustered interval; printed when some attempt recorded a cost (--json has it always).
 * A lower bound (values not recorded) is marked `>=` and its attempts counted in a note.
 */
function perSuccessSection(rows: PerSuccess[]): Block | null {
  if (!rows.some((p) => p.cost_usd !== null)) return null;
  const body: string[][] = [];
  const lines: string[] = [];
  for (const f of PER_SUCCESS_FIGURES) {
    if (!rows.some((p) => f.recorded(p) !== null)) continue;
    rows.forEach((p, i) => {
      const value = f.value(p);
      const interval = f.ci95(p);
      body.push([
        i === 0 ? f.label : "",
        p.denominator,
        count(p.trials),
        count(p.successes),
        value !== null && f.lowerBound(p) ? `>= ${f.show(value)}` : f.show(value),
        interval ? `[${f.show(interval[0])}, ${f.show(interval[1])}]` : "",
      ]);
    });
    // the first denominator keeps every trial: its count of attempts lacking the value is all of them
    const all = rows[0];
    if (f.missing(all) > 0)
      lines.push(`  ${f.label}: ${count(f.missing(all))} of ${count(all.attempts)} attempts have ${f.lack} (not read as 0): >= a lower bound`);
  }
  lines.push("  all attempts of the kept trials (failed, retried ones too) / final successes");
  lines.push("  95% intervals: task-clustered standard error of the ratio (delta method)");
  return {
    key: "per_success",
    title: "Per solved task, under each denominator (final basis)",
    table: {
      head: ["figure", "denominator", "trials", "solved", "per solved", "95% CI"],
      rows: body,
      align: ["left", "left", "right", "right", "right", "left"],
    },
    lines,
  };
}

function retrySection(data: ReportData): Block {
  const e = data.efficiency;
  const lines: string[] = [];
  lines.push(
    `  ${mean(e.attempts_per_trial, 2)} attempts per trial; ${count(e.trials_retried)} of ${count(e.trials)} trials retried, ${count(e.trials_rescued)} rescued by a retry`,
  );
  lines.push(`  ${percent(e.zero_retry_success_share)} of final successes needed no retry`);
  const retried = Object.entries(data.meta.retry_policy.retried_statuses)
    .map(([s, n]) => `${s} ${n}`)
    .join(", ");
  if (retried) lines.push(`  statuses retried (attempts): ${retried}`);
  return { key: "retries", title: "Retries", lines };
}

function callSection(calls: CallOutcome[]): Block | null {
  const seen = calls.filter((c) => c.calls > 0);
  if (seen.length === 0) return null;
  const types = [...new Set(seen.map((c) => c.type))];
  const lines: string[] = [];
  for (const type of types) {
    const parts = seen
      .filter((c) => c.type === type)
      .sort((a, b) => b.calls - a.calls)
      .map((c) => `${c.status} ${c.calls} (${percent(c.share)})`);
    lines.push(`  ${type}: ${parts.join(", ")}`);
  }
  return { key: "per_call", title: "Per call (events with their own status; counted per call, not per trial)", lines };
}

function inventorySection(inv: Inventory): Block | null {
  const notable = inv.expected || inv.totals.tasks_missing || inv.totals.tasks_unexpected || inv.totals.tasks_incomplete;
  if (!notable) return null;
  const lines: string[] = [];
  for (const r of inv.runs) {
    const shared = inv.runs.filter((o) => o.run_id === r.run_id).length > 1;
    const who = [r.agent && `agent ${r.agent}`, r.model && `model ${r.model}`].filter(Boolean).join(", ");
    // a run is its run_id, agent and model: runs that share a run_id are told apart by the other two
    const run = `${r.run_id ?? "(default run)"}${shared && who ? ` (${who})` : ""}`;
    const expected = r.tasks_expected === null ? "" : `; ${count(r.tasks_missing)} of ${count(r.tasks_expected)} expected missing`;
    const extra = !r.tasks_unexpected
      ? ""
      : inv.expected?.count
        ? `, ${count(r.tasks_unexpected)} more than --expect-count`
        : `, ${count(r.tasks_unexpected)} outside the list`;
    lines.push(...wrap(`${run}: ${count(r.tasks_present)} tasks recorded, ${plural(r.trial_slots, "trial slot")}${expected}${extra}`, "  ", "    "));
  }
  if (inv.expected?.duplicates) lines.push(`  ${inv.expected.source} lists ${plural(inv.expected.duplicates, "id")} more than once (counted once)`);
  const t = inv.totals;
  if (t.tasks_missing) {
    const named = inv.missing_tasks.filter((m) => m.named);
    lines.push(`  missing (in total as status missing, ${plural(t.trials_missing, "trial")}; attributable removes them):`);
    if (named.length)
      lines.push(
        ...wrap(
          ids(
            named.map((m) => withRun(m.run_id, m.task_id, inv)),
            t.tasks_missing - t.tasks_missing_unnamed,
          ),
          "    ",
        ),
      );
    if (t.tasks_missing_unnamed) lines.push(`    ${plural(t.tasks_missing_unnamed, "task")} without a name (--expect-count says how many, not which)`);
  }
  if (t.tasks_unexpected) {
    lines.push(`  records outside ${inv.expected?.source ?? "--expect"} (kept in every figure):`);
    lines.push(
      ...wrap(
        ids(
          inv.unexpected_tasks.map((u) => withRun(u.run_id, u.task_id, inv)),
          t.tasks_unexpected,
        ),
        "    ",
      ),
    );
  }
  if (t.tasks_incomplete) {
    lines.push("  tasks with fewer trials than their run's slots (not in total; pass@k skips them for larger k):");
    const shown = inv.incomplete_tasks
      .slice(0, IDS_SHOWN)
      .map((x) => `${withRun(x.run_id, x.task_id, inv)} ${x.trials_present}/${x.trial_slots} (no ${x.missing_slots.join(", ")})`);
    const more = t.tasks_incomplete > shown.length ? `; and ${t.tasks_incomplete - shown.length} more` : "";
    lines.push(...wrap(`${shown.join("; ")}${more}`, "    "));
  }
  if (inv.not_listed) lines.push(`  (--json lists at most ${INVENTORY_LISTED} tasks a list; the view trial_inventory holds them all)`);
  return { key: "inventory", title: "Trial inventory (tasks x trial slots, per run)", lines };
}

/** Groups past which the side-by-side tables give way to one row per group (compactGroups). */
export const SIDE_BY_SIDE_MAX = 6;

/**
 * Every figure per group, side by side, a few groups per table; past
 * SIDE_BY_SIDE_MAX groups, one row per group with its key cells (--json has every figure).
 */
function groupSections(data: ReportData): Block[] {
  if (data.groups.length > SIDE_BY_SIDE_MAX) return [compactGroups(data)];
  const out: Block[] = [];
  // names that do not fit a column are shown by number, with a legend under the table
  const long = data.groups.some((g) => (g.value ?? "(none)").length > GROUP_COLUMN);
  const label = (i: number) => (long ? `(${i + 1})` : (data.groups[i].value ?? "(none)"));
  for (let i = 0; i < data.groups.length; i += GROUPS_PER_TABLE) {
    const chunk = data.groups.slice(i, i + GROUPS_PER_TABLE);
    const title = `By ${data.by}${data.groups.length > GROUPS_PER_TABLE ? ` (${i + 1}-${i + chunk.length} of ${data.groups.length})` : ""}: n/a = no trial in that cell`;
    const rows = groupRows(chunk, data);
    const head = ["", ...chunk.map((_, j) => label(i + j))];
    const legend = long ? chunk.map((g, j) => `  ${label(i + j)} ${g.value ?? "(none)"}`) : [];
    out.push({ key: "groups", title, table: { head, rows, align: ["left", ...chunk.map(() => "right" as const)] }, lines: legend });
  }
  return out;
}

/** One row per group: its trials and the cells of the strict figure and two denominators, each group named in a legend by number. */
export function compactGroups(data: ReportData): Block {
  const quoted = data.meta.grouping.figure_to_quote === "each_group" ? " *" : "";
  const cell = (g: GroupFigures, basis: string, denominator: string) => ratio(g.rates.find((r) => r.basis === basis && r.denominator === denominator));
  const rows = data.groups.map((g, i) => [
    `(${i + 1})`,
    count(g.efficiency.trials),
    cell(g, "first", "total"),
    cell(g, "final", "total"),
    cell(g, "final", "attributable"),
  ]);
  const legend = data.groups.flatMap((g, i) => wrap(`(${i + 1}) ${g.value ?? "(none)"}`, "  ", "      "));
  return {
    key: "groups",
    title: `By ${data.by}: ${data.groups.length} groups, one a row (--json has every figure of each)`,
    table: {
      head: ["group", "trials", "first/total", `final/total${quoted}`, "final/attributable"],
      rows,
      align: ["left", "right", "right", "right", "right"],
    },
    lines: legend,
  };
}

/** The rows of the side-by-side table of `--by`: one row per figure, one column per group (also used by the HTML report). */
export function groupRows(groups: GroupFigures[], data: ReportData): string[][] {
  const rows: string[][] = [];
  const add = (label: string, cell: (g: GroupFigures) => string) => rows.push([label, ...groups.map(cell)]);
  add("trials recorded", (g) => count(g.efficiency.trials));
  for (const d of data.meta.definitions.denominators) {
    for (const basis of ["first", "final"] as const) {
      const cellOf = (g: GroupFigures) => g.rates.find((r) => r.basis === basis && r.denominator === d.denominator);
      const quoted = basis === "final" && d.denominator === "total" && data.meta.grouping.figure_to_quote === "each_group";
      add(`${basis}/${d.denominator}${quoted ? " *" : ""}`, (g) => {
        const r = cellOf(g);
        return ratio(r);
      });
      add("  95% CI", (g) => ci(cellOf(g)?.ci95 ?? null) || "n/a");
    }
  }
  for (const k of data.pass_at_k.map((p) => p.k)) {
    add(`pass@${k}`, (g) => percent(g.pass_at_k.find((p) => p.k === k)?.pass_at_k));
    add(`pass^${k}`, (g) => percent(g.pass_at_k.find((p) => p.k === k)?.pass_hat_k));
  }
  add("duration p50", (g) => duration(g.efficiency.duration_s.p50));
  add("duration p95", (g) => duration(g.efficiency.duration_s.p95));
  add("agent time", (g) => duration(g.efficiency.agent_time_s));
  add("wall time", (g) => duration(g.efficiency.wall_s));
  add("LLM tokens/attempt", (g) => mean(g.efficiency.llm_tokens_mean, 0));
  add("tool calls/attempt", (g) => mean(g.efficiency.tool_calls_mean, 1));
  add("cost total", (g) => usd(g.efficiency.cost_usd_total));
  add("cost/final success", (g) => usd(g.efficiency.cost_per_success));
  add("attempts/trial", (g) => mean(g.efficiency.attempts_per_trial, 2));
  add("rescued by a retry", (g) => count(g.efficiency.trials_rescued));
  return rows;
}

/** Breaks text at spaces into lines of at most 80 columns: the first after `indent`, the rest after `next`. */
function wrap(text: string, indent: string, next = indent): string[] {
  const lines: string[] = [];
  let line = "";
  const lead = () => (lines.length ? next : indent);
  for (const word of text.split(" ")) {
    if (line && lead().length + line.length + 1 + word.length > 80) {
      lines.push(lead() + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(lead() + line);
  return lines;
}

/** The first task ids of a list, and how many more there are of `total`. */
function ids(list: string[], total: number): string {
  const shown = list.slice(0, IDS_SHOWN);
  return total > shown.length ? `${shown.join(", ")}, and ${total - shown.length} more` : shown.join(", ");
}

/** A task id, prefixed with its run when there are several runs. */
function withRun(run: string | null, task: string, inv: Inventory): string {
  return inv.runs.length > 1 ? `${run ?? "(default run)"}/${task}` : task;
}

function mean(v: number | null, digits: number): string {
  return v === null ? "n/a" : fixed(v, digits);
}

/** "$4.83", "$0.186" (three decimals below a dollar), "n/a" for null. */
export function usd(v: number | null): string {
  if (v === null) return "n/a";
  return `$${v.toFixed(v !== 0 && Math.abs(v) < 1 ? 3 : 2)}`;
}
