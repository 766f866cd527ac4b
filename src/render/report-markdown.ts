/**
 * The report as GitHub-flavoured markdown, ready for a PR description or an
 * issue comment: the meta block (sources with their full sha256, definitions,
 * thresholds), the rate grid with what each step removed, status counts,
 * transitions, timeouts by cause, diagnostics and the metrics sections. Same data and the same
 * sentences as the text report (report-text.ts); no figure is computed here.
 * Text that comes from the inputs (file names, status values) is escaped, so
 * a `|` or a `*` in a name cannot break a table or the emphasis.
 */
import type { ReportData } from "../commands/report.js";
import { noticeLines } from "../ingest/notices.js";
import { bytes, percent, plural, ratio } from "../number-format.js";
import { ci, intervalNote, metricsBlocks } from "./metrics-text.js";
import { code, escapeMarkdown, mdTable } from "./markdown.js";
import { diagnosticFacts, floorFacts, floorTable, metaFacts, removalSteps, statusRows, strictLine } from "./report-text.js";

/** The whole report as markdown, in the text report's order. */
export function renderReportMarkdown(data: ReportData): string {
  const out = [...metaMarkdown(data), ...gridMarkdown(data), ...floorMarkdown(data), ...statusMarkdown(data)];
  out.push("#### Timeouts by cause");
  out.push(
    mdTable(
      ["cause", "attempts", "share"],
      Object.entries(data.timeout_causes).map(([cause, n]) => [cause, n, percent(data.timeout_cause_shares[cause])]),
      ["left", "right", "right"],
    ),
  );

  const diagnostics = diagnosticFacts(data).map((l) => `- ${escapeMarkdown(l.trim())}`);
  if (diagnostics.length) out.push("#### Diagnostics", diagnostics.join("\n"));
  for (const v of data.verdicts)
    if (v.rows.length)
      out.push(`#### ${escapeMarkdown(v.heading)}`, v.lines.map((l) => `${l.startsWith("    ") ? "  " : ""}- ${escapeMarkdown(l.trim())}`).join("\n"));

  for (const block of metricsBlocks(data)) {
    out.push(`#### ${escapeMarkdown(block.title)}`);
    if (block.table)
      out.push(
        mdTable(
          block.table.head.map(escapeMarkdown),
          block.table.rows.map((r) => r.map((c) => escapeMarkdown(String(c)))),
          block.table.align,
        ),
      );
    // the text report aligns with runs of spaces; a list item needs none
    if (block.lines.length) out.push(block.lines.map((l) => `- ${escapeMarkdown(l.trim().replace(/ {2,}/g, " "))}`).join("\n"));
  }
  return `${out.join("\n\n")}\n`;
}

/** The warnings that open the report, the heading, the sources table and the meta facts. */
/** The floor's table and facts (--floor); nothing without it. */
function floorMarkdown(data: ReportData): string[] {
  if (!data.floor) return [];
  const t = floorTable(data.floor);
  return [
    `#### ${escapeMarkdown(t.title)}`,
    mdTable(
      t.head,
      t.rows.map((r) => r.map(escapeMarkdown)),
      t.align,
    ),
    floorFacts(data.floor)
      .map((l) => `- ${escapeMarkdown(l)}`)
      .join("\n"),
  ];
}

function metaMarkdown(data: ReportData): string[] {
  const m = data.meta;
  const out: string[] = [];
  // what could make the figures wrong unseen opens the report, as in the text report
  const notices = noticeLines(m, data.by ?? null, m.grouping.pool);
  if (notices.length) out.push(notices.map((l) => `> **Warning:** ${escapeMarkdown(l)}`).join("\n>\n"));
  out.push(
    `### ${escapeMarkdown(`${m.tool}: ${plural(m.tasks, "task")}, ${plural(m.trials, "trial")}, ${plural(m.attempts, "attempt")}${m.runs > 1 ? ` in ${m.runs} runs` : ""}`)}`,
  );
  out.push(
    mdTable(
      ["source", "format", "read as", "sha256", "bytes", "lines", "records", "blank", "rejected"],
      m.sources.map((s) => [
        code(s.name) + (s.problem ? ` (${escapeMarkdown(s.problem)})` : ""),
        s.format,
        s.adapter ?? "",
        code(s.sha256),
        bytes(s.bytes),
        s.lines,
        s.records,
        s.blank,
        s.rejected,
      ]),
      ["left", "left", "left", "left", "right", "right", "right", "right", "right"],
    ),
  );
  const facts = metaFacts(data);
  for (const n of m.notes) facts.push(`note: ${n}`);
  if (m.skipped_files.length) facts.push(`skipped: ${m.skipped_files.map((f) => `${f.name} (${f.reason})`).join("; ")}`);
  facts.push(`success: ${m.definitions.success}`);
  out.push(facts.map((f) => `- ${escapeMarkdown(f)}`).join("\n"));
  return out;
}

/** The rate grid on every denominator of the chain, the figure to quote, and what each step removed. */
function gridMarkdown(data: ReportData): string[] {
  const m = data.meta;
  const out: string[] = [];
  const cell = (basis: string, denominator: string) => data.rates.find((c) => c.basis === basis && c.denominator === denominator);
  const figure = (basis: string, denominator: string) => ratio(cell(basis, denominator));
  const interval = (basis: string, denominator: string) => ci(cell(basis, denominator)?.ci95 ?? null);
  out.push("#### Success rate: successes/trials on each denominator");
  out.push(
    mdTable(
      ["denominator", "first try", "95% CI", "final (after retries)", "95% CI", "keeps"],
      m.definitions.denominators.map((d) => [
        `**${d.denominator}**`,
        figure("first", d.denominator),
        interval("first", d.denominator),
        figure("final", d.denominator),
        interval("final", d.denominator),
        escapeMarkdown(d.keeps),
      ]),
      ["left", "right", "left", "right", "left", "left"],
    ),
  );
  out.push(escapeMarkdown(strictLine(data)));
  out.push(escapeMarkdown(intervalNote(data)));
  out.push("What each step removed (judged on the basis attempt):");
  out.push(
    mdTable(
      ["step", "basis", "removed", "why"],
      removalSteps(data).map((r) => [r.denominator, r.basis, r.trials, escapeMarkdown(r.why)]),
      ["left", "left", "right", "left"],
    ),
  );
  return out;
}

/** Trials by status on both bases, and what retries changed. */
function statusMarkdown(data: ReportData): string[] {
  const out: string[] = [];
  out.push("#### Trials by status");
  out.push(
    mdTable(
      ["status", "first", "final"],
      statusRows(data).map(([s, first, final]) => [escapeMarkdown(String(s).replace(/^ {2}/, "↳ ")), first, final]),
      ["left", "right", "right"],
    ),
  );
  const moved = data.transitions.filter((t) => t.first !== t.final);
  if (moved.length) {
    out.push("Changed by retries (first -> final):");
    out.push(
      mdTable(
        ["first", "final", "trials"],
        moved.map((t) => [t.first, t.final, t.count]),
        ["left", "left", "right"],
      ),
    );
  }
  return out;
}
