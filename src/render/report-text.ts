/**
 * The report as text for a terminal: the meta block, then the rate grid first,
 * then short sections (status counts, transitions, timeouts by cause,
 * diagnostics, then the metrics of metrics-text.ts). Fits 80 columns.
 */
import { noticeLines } from "../ingest/notices.js";
import type { FloorReport, ReportData } from "../commands/report.js";
import { bytes, count, fraction, percent, plural, ratio, seconds } from "../number-format.js";
import { points } from "./compare-words.js";
import { ci, intervalNote, renderMetricsText } from "./metrics-text.js";
import { heading, table, type TextOptions } from "./table.js";

export function renderReportText(data: ReportData, options: TextOptions): string {
  const out: string[] = [];
  // what could make the figures below wrong unseen opens the report
  const notices = noticeLines(data.meta, data.by ?? null, data.meta.grouping.pool);
  if (notices.length) out.push(notices.map((l) => `! ${l}`).join("\n"));
  out.push(metaBlock(data, options));
  out.push(rateGrid(data, options));
  if (data.floor) out.push(floorSection(data.floor, options));
  // groups with a figure to quote each follow the pooled grid at once
  const groupsFirst = data.meta.grouping.figure_to_quote !== "overall";
  if (groupsFirst) out.push(...renderMetricsText(data, options, (key) => key === "groups"));
  out.push(statusSection(data, options));
  out.push(timeoutSection(data, options));
  const diag = diagnosticsSection(data, options);
  if (diag) out.push(diag);
  for (const v of data.verdicts) if (v.rows.length) out.push([heading(v.heading, options), ...v.lines].join("\n"));
  out.push(...renderMetricsText(data, options, (key) => !groupsFirst || key !== "groups"));
  return `${out.join("\n\n")}\n`;
}

function metaBlock(data: ReportData, options: TextOptions): string {
  const m = data.meta;
  const lines: string[] = [];
  lines.push(
    heading(
      `${m.tool} · ${plural(m.tasks, "task")}, ${plural(m.trials, "trial")}, ${plural(m.attempts, "attempt")}${m.runs > 1 ? ` in ${m.runs} runs` : ""}`,
      options,
    ),
  );
  for (const s of m.sources) {
    const unit = s.format === "json" ? "elements" : "lines";
    lines.push(`  ${s.name}  ${bytes(s.bytes)}${s.adapter ? `  read as ${s.adapter}` : ""}`);
    lines.push(`    ${plural(s.lines, unit.slice(0, -1))} = ${plural(s.records, "record")} + ${count(s.blank)} blank + ${count(s.rejected)} rejected`);
    lines.push(`    sha256 ${s.sha256}`);
    if (s.problem) lines.push(`    ! ${s.problem}`);
  }
  for (const n of m.notes) lines.push(`  note: ${n}`);
  for (const f of m.skipped_files) lines.push(`  skipped ${f.name}: ${f.reason}${f.top_keys ? ` (top keys ${f.top_keys.join(", ") || "none"})` : ""}`);
  lines.push(...metaFacts(data));
  return lines.join("\n");
}

/** The meta block's one-line facts after the sources: accounting, window, limits, retries, thresholds (also used by the markdown report). */
export function metaFacts(data: ReportData): string[] {
  const m = data.meta;
  const a = data.accounting;
  const lines: string[] = [];
  lines.push(`lines: ${count(a.lines)} = ${count(a.records)} records + ${count(a.blank)} blank + ${count(a.rejected)} rejected`);
  if (m.attempts === 0) lines.push("no attempt records in the inputs: every rate is n/a");
  const checks = [`duplicates ${count(a.duplicates)}`, `unrecognized statuses ${count(a.unrecognized)}`, `naive timestamps ${count(a.naive_timestamps)}`];
  if (a.duplicates_across_sources) checks.push(`across sources ${count(a.duplicates_across_sources)}`);
  if (a.duplicate_keys) checks.push(`keys written twice ${count(a.duplicate_keys)}`);
  if (a.non_finite) checks.push(`NaN/Infinity read as null ${count(a.non_finite)}`);
  lines.push(`checks: ${checks.join(", ")}`);
  if (a.secrets_masked) {
    const kinds = m.secrets_masked.map((k) => `${k.kind} ${k.secrets}`).join(", ");
    lines.push(`secrets masked: ${count(a.secrets_masked)} (${kinds}); stored and shown as [masked KIND #hash]`);
  }
  lines.push(...runLogFacts(m));
  lines.push(`window: ${m.window.start ?? "n/a"} .. ${m.window.end ?? "n/a"}`);
  lines.push(
    m.concurrency === null ? "concurrency: n/a (no attempt has both start and end times)" : `concurrency: ${plural(m.concurrency, "attempt")} at once at most`,
  );
  const limits = m.timeout_limits.map((t) => `${t.timeout_limit_s === null ? "none" : seconds(t.timeout_limit_s)} (${count(t.attempts)})`).join(", ");
  lines.push(`timeout limits: ${limits || "none"}`);
  const retried = Object.entries(m.retry_policy.retried_statuses)
    .map(([s, n]) => `${s} ${n}`)
    .join(", ");
  lines.push(`retries: up to ${plural(m.retry_policy.max_attempts ?? 0, "attempt")} per trial, ${plural(m.retry_policy.trials_retried, "trial")} retried`);
  if (retried) lines.push(`retried after: ${retried}`);
  lines.push(...ledgerFacts(m.attempt_ledger));
  lines.push(
    `timeout causes: queue >= ${percent(m.thresholds.queue_share, 0)} of the limit, loop >= ${m.thresholds.loop_min} calls, sluggish x${m.thresholds.sluggish_ratio}`,
  );
  const mapped = Object.entries(m.status_map);
  if (mapped.length) lines.push(`status map: ${mapped.map(([k, v]) => `${k}=${v}`).join(", ")}`);
  const ex = m.definitions.excluded_tasks;
  if (ex) lines.push(`excluded tasks (validated): ${plural(ex.tasks.length, "task")} listed in ${ex.file} (sha256 ${ex.sha256})`);
  const rule = scoreRuleLine(m);
  if (rule) lines.push(rule);
  return lines;
}

/**
 * Which rule made the successes a score decides, when a format whose scores
 * decide read a source or `--success-threshold` was given: "score rule: score
 * >= 7 (--success-threshold) ..." or the declared 0-1 rule, with the runs off
 * that scale. Null otherwise (booleans and id lists decide). Shared by every
 * report format.
 */
export function scoreRuleLine(m: ReportData["meta"]): string | null {
  const r = m.score_rule;
  const scored = r.formats.filter((f) => f.score_scale !== null);
  const off = m.off_scale_runs;
  const span = off.length
    ? ` ${plural(off.length, "run")} scored off the 0-1 scale (${[...new Set(off.map((o) => `${o.min_score}..${o.max_score}`))].join(", ")})`
    : "";
  if (r.success_threshold !== null) {
    const names = scored.length ? ` (${scored.map((f) => f.format).join(", ")})` : "";
    return `score rule: ${r.rule}: a trial a score decides${names} is a success when its score >= ${r.success_threshold}${span ? `;${span}` : ""}`;
  }
  if (scored.length === 0) return null;
  const unscored = off.reduce((t, o) => t + o.trials, 0);
  return (
    `score rule: ${r.rule}: a score of 1 on the 0-1 scale of ${scored.map((f) => f.format).join(", ")}` +
    (span ? `;${span}, ${plural(unscored, "trial")} unscored until --success-threshold X decides` : "")
  );
}

/**
 * The attempt ledger, when a run re-ran another's trials (else the header's
 * counts say it all): planned trials, observed and dropped attempts, each
 * re-run with the run it continues and how that is known, and the trials whose
 * first try is gone.
 */
function ledgerFacts(l: ReportData["meta"]["attempt_ledger"]): string[] {
  if (l.reruns.length === 0 && l.first_tries_gone === 0) return [];
  const lines = [
    `attempt ledger: ${plural(l.planned_trials, "trial")} planned (${count(l.recorded_trials)} recorded, ${count(l.missing_trials)} missing), ` +
      `${plural(l.observed_attempts, "attempt")} observed, ${count(l.dropped_attempts)} dropped as duplicates`,
  ];
  for (const r of l.reruns) {
    const how =
      r.recognised_by === "named" ? "named by --rerun-of" : "recognised: same agent, model and benchmark, started after it ended, only tasks it errored on";
    const owed = r.owed_without_record ? `; ${plural(r.owed_without_record, "attempt")} it owes ${r.owed_without_record === 1 ? "has" : "have"} no record` : "";
    lines.push(`  re-run ${r.run} continues ${plural(r.trials, "trial")} of ${r.rerun_of} with ${plural(r.attempts, "attempt")} (${how})${owed}`);
  }
  if (l.first_tries_gone)
    lines.push(`  first try gone: ${plural(l.first_tries_gone, "trial")} re-run with no record of the first try (first try counted as missing)`);
  return lines;
}

/**
 * What the runs' own logs say (FormatAdapter.header): their statuses in one line, then one line
 * for each run that did not finish cleanly or owes trials it has no record of, and
 * the dict-valued scores left unscored with the flag that picks a key.
 */
function runLogFacts(m: ReportData["meta"]): string[] {
  if (m.run_logs.length === 0) return [];
  const byStatus = new Map<string, number>();
  for (const r of m.run_logs) byStatus.set(r.status ?? "(none)", (byStatus.get(r.status ?? "(none)") ?? 0) + 1);
  const missing = m.run_logs.reduce((n, r) => n + r.missing_trials, 0);
  const lines = [
    `run logs: ${m.run_logs.length} (status ${[...byStatus].map(([s, n]) => `${s} ${n}`).join(", ")})` +
      (missing ? `; ${plural(missing, "trial")} owed with no sample, in total as missing` : ""),
  ];
  for (const r of m.run_logs) {
    if (r.status === "success" && !r.incomplete && r.missing_trials === 0) continue;
    const what = [r.task, r.model].filter(Boolean).join(" x ");
    const said = [r.status ?? "no status", r.incomplete ? "incomplete (no header.json)" : "", r.error_message ? `error: ${r.error_message}` : ""]
      .filter(Boolean)
      .join(", ");
    lines.push(
      `  run ${r.run_id}${what ? ` (${what})` : ""}: ${said}; ${r.trials} of ${plural(r.owed_trials, "owed trial")} recorded, ${r.missing_trials} missing`,
    );
  }
  const dict = m.run_logs.filter((r) => r.dict_score_trials > 0);
  const keys = [...new Set(dict.flatMap((r) => (r.score_keys ?? "").split(", ").filter(Boolean)))];
  const trials = dict.reduce((n, r) => n + r.dict_score_trials, 0);
  if (trials)
    lines.push(`dict-valued scores: ${plural(trials, "trial")} unscored (keys ${keys.join(", ")}); name the key that decides success with --score-key KEY`);
  return lines;
}

function rateGrid(data: ReportData, options: TextOptions): string {
  const { rates, meta } = data;
  const cell = (basis: string, denominator: string) => rates.find((r) => r.basis === basis && r.denominator === denominator);
  const quoted = meta.grouping.figure_to_quote === "overall";
  const rows = meta.definitions.denominators.map((d) => {
    const first = cell("first", d.denominator);
    const final = cell("final", d.denominator);
    return [
      d.denominator,
      first ? fraction(first) : "",
      percent(first?.rate),
      first ? ci(first.ci95) : "",
      final ? fraction(final) : "",
      percent(final?.rate),
      final ? `${ci(final.ci95)}${d.denominator === STRICT.denominator && final.rate !== null && quoted ? " *" : ""}` : "",
    ];
  });
  const out = [
    heading(
      quoted
        ? "Success rate: successes/trials, first try and final (after retries)"
        : `Success rate, all ${meta.grouping.groups} groups pooled: successes/trials, first try and final`,
      options,
    ),
    table(
      ["denominator", "first try", "rate", "95% CI", "final", "rate", "95% CI"],
      rows,
      ["left", "right", "right", "left", "right", "right", "left"],
      options,
    ),
    `  ${strictLine(data)}`,
    `  ${intervalNote(data)}`,
    removalLines(data),
  ];
  return out.join("\n");
}

/** The floor's table (--floor), shared by the text, markdown and HTML reports: per denominator, each basis's rate, the floor's and the lift. */
export function floorTable(floor: FloorReport): { title: string; head: string[]; rows: string[][]; align: ("left" | "right")[] } {
  const byDenominator = new Map<string, FloorReport["cells"]>();
  for (const c of floor.cells) byDenominator.set(c.denominator, [...(byDenominator.get(c.denominator) ?? []), c]);
  const side = (c: FloorReport["cells"][number] | undefined) =>
    c ? [percent(c.rate), ratio({ successes: c.floor_successes, count: c.floor_count, rate: c.floor_rate }), points(c.lift, "")] : ["", "", ""];
  return {
    title: `Against the floor: ${floor.inputs.join(", ")}`,
    head: ["denominator", "first try", "floor", "lift", "final", "floor", "lift"],
    rows: [...byDenominator].map(([denominator, cells]) => [
      denominator,
      ...side(cells.find((c) => c.basis === "first")),
      ...side(cells.find((c) => c.basis === "final")),
    ]),
    align: ["left", "right", "right", "right", "right", "right", "right"],
  };
}

/** Each cell's rate beside the floor's (--floor) and the lift over it, in points. */
function floorSection(floor: FloorReport, options: TextOptions): string {
  const t = floorTable(floor);
  return [heading(t.title, options), table(t.head, t.rows, t.align, options), ...floorFacts(floor).map((l) => `  ${l}`)].join("\n");
}

/** What the floor block says under its table: what the lift is, and the tasks of the run and the floor (a mismatch loudly). */
export function floorFacts(floor: FloorReport): string[] {
  const c = floor.coverage;
  const lines = ["lift: the run's rate - the floor's, in points; the floor's rates are over its own trials"];
  if (c.run_only === 0 && c.floor_only === 0) lines.push(`tasks: the same ${plural(c.run_tasks, "task")} in the run and the floor`);
  else
    lines.push(
      `! tasks differ: ${count(c.run_tasks)} in the run, ${count(c.floor_tasks)} in the floor, ${count(c.common_tasks)} in both (${count(c.run_only)} only in the run, ${count(c.floor_only)} only in the floor): a lift compares different tasks`,
    );
  return lines;
}

/** The strict figure: the final attempt of every trial over all trials (docs/metrics.md), the one to quote. */
export const STRICT = { basis: "final", denominator: "total" } as const;

/**
 * The line that names the figure to quote, marked `*` in the grid: "* the
 * figure to quote: 82/100 = 82.0% (final/total: every trial counted)" (also
 * used by the markdown report); when the inputs hold several groups
 * (meta.grouping), the line that says each group has its own, or none is quoted.
 */
export function strictLine(data: ReportData): string {
  const g = data.meta.grouping;
  if (g.figure_to_quote === "each_group")
    return `* no figure for all ${g.groups} groups: each group's final/total, marked * under\n    "By ${data.by}", is its figure to quote; --pool quotes one pooled figure`;
  if (g.figure_to_quote === "none")
    return `! no figure to quote: each group of --by ${data.by} still pools what the\n    warnings above name; without --by the report groups by what varies`;
  const strict = data.rates.find((r) => r.basis === STRICT.basis && r.denominator === STRICT.denominator);
  if (!strict || strict.rate === null) return "* the figure to quote (final/total) is n/a: no trial";
  return `* the figure to quote: ${fraction(strict)} = ${percent(strict.rate)} (final/total: every trial counted)`;
}

/** What each step of the chain removed, on each basis; steps that removed nothing in one line. */
function removalLines(data: ReportData): string {
  const lines = ["Removed at each step (judged on the basis attempt):"];
  for (const d of data.meta.definitions.denominators.slice(1)) {
    const steps = removalSteps(data).filter((r) => r.denominator === d.denominator && r.trials > 0);
    if (steps.length === 0) lines.push(`  ${d.denominator.padEnd(12)} removed nothing`);
    for (const r of steps) lines.push(`  ${r.denominator.padEnd(12)} ${r.basis.padEnd(5)} -${count(r.trials)}: ${r.why}`);
  }
  return lines.join("\n");
}

/** Each step of the denominator chain after total, on each basis: trials removed (view denominator_steps) and why (also used by the markdown report). */
export function removalSteps(data: ReportData): { denominator: string; basis: string; trials: number; why: string }[] {
  const steps = [];
  for (const d of data.meta.definitions.denominators.slice(1)) {
    for (const basis of ["first", "final"]) {
      const rows = data.meta.exclusions.filter((e) => e.denominator === d.denominator && e.basis === basis);
      const trials = data.denominator_steps.find((x) => x.denominator === d.denominator && x.basis === basis)?.removed ?? 0;
      steps.push({ denominator: d.denominator, basis, trials, why: rows.map((r) => `${r.reason} ${count(r.trials)}`).join(", ") });
    }
  }
  return steps;
}

/**
 * The rows of "Trials by status": `[status, first, final]` per status, each
 * followed by one indented row per `status_detail` when any trial of that status
 * has one (`(no detail)` for those without), so a step limit or an exit status
 * shows beside the status it mapped to. Shared by the text and markdown reports.
 */
export function statusRows(data: ReportData): (string | number)[][] {
  const statuses = [...new Set([...Object.keys(data.status_counts.first), ...Object.keys(data.status_counts.final)])];
  const rows: (string | number)[][] = [];
  for (const s of statuses) {
    rows.push([s, data.status_counts.first[s] ?? 0, data.status_counts.final[s] ?? 0]);
    const details = data.status_detail_counts.filter((d) => d.status === s);
    if (details.every((d) => d.status_detail === null)) continue;
    for (const d of details) rows.push([`  ${d.status_detail ?? "(no detail)"}`, d.first, d.final]);
  }
  return rows;
}

function statusSection(data: ReportData, options: TextOptions): string {
  const rows = statusRows(data);
  const moved = data.transitions.filter((t) => t.first !== t.final);
  const out = [heading("Trials by status", options), table(["status", "first", "final"], rows, ["left", "right", "right"], options)];
  const tr = data.timeout_rate;
  out.push(`  timeout rate (final timeouts / all trials): ${tr.timeouts}/${count(tr.trials)} ${percent(tr.rate)}`);
  if (moved.length) {
    out.push("Changed by retries (first -> final):");
    for (const t of moved) out.push(`  ${t.first} -> ${t.final}  ${count(t.count)}`);
  }
  return out.join("\n");
}

function timeoutSection(data: ReportData, options: TextOptions): string {
  const total = data.diagnostics.timeout_attempts;
  if (total === 0) return `${heading("Timeouts by cause", options)}\n  no timeouts`;
  const rows = Object.entries(data.timeout_causes).map(([cause, n]) => [cause, n, percent(data.timeout_cause_shares[cause])]);
  return [
    heading(`Timeouts by cause (${plural(total, "timeout attempt")})`, options),
    table(["cause", "attempts", "share"], rows, ["left", "right", "right"], options),
  ].join("\n");
}

function diagnosticsSection(data: ReportData, options: TextOptions): string | null {
  const lines = diagnosticFacts(data);
  return lines.length ? [heading("Diagnostics", options), ...lines].join("\n") : null;
}

/** One line per diagnostic that is not zero, indented as the text report prints it (also used by the markdown report). */
export function diagnosticFacts(data: ReportData): string[] {
  const d = data.diagnostics;
  const lines: string[] = [];
  if (d.timeouts_with_passing_score)
    lines.push(`  ${count(d.timeouts_with_passing_score)} timeouts passed verification anyway (late passes; counted as timeouts, never successes)`);
  if (d.constraint_violations) lines.push(`  ${count(d.constraint_violations)} successes violated a hard constraint (counted as failures)`);
  if (d.grader_errors) lines.push(`  ${count(d.grader_errors)} attempts had a grader error (counted as aborted, environment)`);
  if (d.missing) lines.push(`  ${plural(d.missing, "expected trial")} without a record (in total as missing; see the inventory)`);
  for (const u of data.unrecognized_statuses)
    lines.push(`  unrecognized status ${JSON.stringify(u.value)}: ${count(u.attempts)} attempts (in total only; --status-map ${u.value}=STATUS maps it)`);
  if (data.accounting.duplicates)
    lines.push(
      `  ${count(data.accounting.duplicates)} duplicate attempts dropped (${count(data.accounting.duplicates_identical)} identical, ${count(data.accounting.duplicates_differing)} differing: kept the latest ended_at)`,
    );
  if (data.accounting.rejected) lines.push(`  ${plural(data.accounting.rejected, "line")} rejected (listed on stderr)`);
  if (data.accounting.unaccounted)
    lines.push(`  ! lines do not add up: ${data.accounting.unaccounted} = lines - records - blank - rejected (should be 0; please report it)`);
  return lines;
}
