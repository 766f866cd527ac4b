/**
 * The commander program: flags -> typed options -> command -> renderer.
 * `main` is the one exit path: it returns the exit code and never calls
 * `process.exit`. Command modules are imported lazily so `--help` stays fast
 * and never loads DuckDB.
 */
import { Command, CommanderError, Option } from "commander";
import type { CompareOptions } from "./commands/compare.js";
import type { ExportWhat } from "./commands/export.js";
import type { IngestCommandOptions } from "./commands/ingest.js";
import type { Session } from "./db/session.js";
import type { RunsOptions } from "./ingest/runs.js";
import { parseClaim, readClaimsFile, type Claim } from "./claims.js";
import { GROUP_KEYS, parseCause, parseExpectation, parseStatusMap, parseThresholds, type GroupKey } from "./definitions.js";
import { writeFileSync } from "node:fs";
import { DataError, DenomError, ExitCode, UsageError } from "./errors.js";
import type { Io } from "./io.js";
import { useColor } from "./io.js";
import { progressLine } from "./render/progress.js";
import { escapeMessage, terminalSafe } from "./render/terminal.js";
import type { RejectNotice } from "./ingest/ingest.js";
import { ALL_FORMATS, formatNamed, type Adapter } from "./ingest/formats/index.js";
import { MAX_LINE_BYTES } from "./ingest/lines.js";
import { maskSecrets } from "./ingest/secrets.js";
import { VERSION } from "./version.js";

/** Rejects printed one by one on stderr before the rest are summarised. */
const REJECTS_SHOWN = 20;

interface CommonFlags {
  json?: boolean;
  strict?: boolean;
  db?: string;
  statusMap: string[];
  queueShare: string;
  loopMin: string;
  sluggishRatio: string;
  expect?: string;
  expectCount?: string;
  inputFormat?: string;
  runPerFile?: boolean;
  scoreKey?: string;
  /** report: an output format or an input format's name; other commands: an input format's name */
  format?: string;
  maxLineBytes?: string;
}

/** The output formats of `report --format`. */
const REPORT_OUTPUTS = ["table", "json", "md", "html"];
/** The output formats of `compare --format` (issue 18 adds html). */
const COMPARE_OUTPUTS = ["table", "json", "md", "html"];

const REPORT_EXAMPLES = `
Examples:
  $ denom report samples/seed-100.jsonl
  $ denom report logs/                       # every .jsonl/.json/.gz below logs/
  $ denom report task_logs.tar.gz --json     # archive members streamed, nothing extracted
  $ cat results.json | denom report -        # stdin
  $ denom report runs.jsonl --status-map unsuccessful=failure --strict
  $ denom report --db runs.duckdb            # runs kept by denom ingest, nothing read again
  $ denom report runs.jsonl --format md      # GitHub markdown for a PR or an issue
  $ denom report runs.jsonl --format html -o report.html   # one self-contained page with charts
  $ denom report runs/ --by model            # every figure again per model, side by side
  $ denom report results.json --expect task_ids.txt   # absent tasks count as missing
  $ denom report results.json --expect-count 500
  $ denom report eval_results.json --input-format swe-bench-pro   # skip detection (denom formats lists the names)

The grid shows successes/trials on two bases (first try, final after retries)
over four denominators, each removing one named class from the one before:
  total         every trial (the strict figure)
  valid         minus broken tasks and unrecognized outcomes
  attributable  minus environment failures (infrastructure, external API, queue)
  completable   minus the remaining timeouts (internal diagnosis only)

Beside the grid: pass@k and pass^k (k = 1 .. the most trials of a task), 95%
intervals (Wilson over single trials; a task-clustered bootstrap, 2000 resamples,
fixed seed, when tasks have several trials), duration p50/p95, agent time vs wall
time, tokens, cost per success (retries included), retries, per-call outcomes.

Exit codes: 0 ok, 1 data error (or, with --strict, any rejected line or broken source), 2 usage error.`;

const AUDIT_EXAMPLES = `
Examples:
  $ denom audit samples/seed-100.jsonl --claim 87.5%
  $ denom audit logs/ --claim 0.3696 --claim 36% --json
  $ denom audit results/ --claims claims.txt     # one claim a line: CLAIM [LABEL]

The family searched (2 x 2 x 3^4 x 2 = 648 definitions):
  basis         first attempt, or final attempt (after retries)
  numerator     successes, or successes plus late passes (timeouts that passed verification)
  exclusions    any of invalid, environment, timeout, unrecognized, each judged
                on the basis attempt or on any attempt of the trial
  aggregation   pooled over trials, or the mean of per-run rates (a run = run_id x trial)
A claim printed with d decimals matches rates within half a unit of its last digit,
bounds included (87.5% -> 87.45%..87.55%; 0.128 -> 0.1275..0.1285), compared exactly;
70/80 matches rates equal to 7/8. Definitions that keep the same trials on the
records are shown once, the simplest; the strict figure is printed beside them.

Exit codes: 0 every claim reproduced, 3 a claim not reproduced, 1 data error, 2 usage error.`;

const TIMEOUTS_EXAMPLES = `
Examples:
  $ denom timeouts runs.jsonl
  $ denom timeouts logs/ --cause loop              # only the agents stuck repeating a call
  $ denom timeouts runs.jsonl --json               # the same rows as a JSON array
  $ denom timeouts runs.jsonl --loop-min 8 --queue-share 0.5

Rules, in order (the first that fires wins):
  queue     the queue wait (started_at - submitted_at), or queued/waiting_for_slot
            events, cover --queue-share of timeout_limit_s; or the agent phase
            never started
  external  the last agent event is a request still waiting (status pending or
            waiting, or an api/llm/http request with no response); without
            events, last_event names such a wait
  loop      >= --loop-min identical consecutive tool calls (same name and
            arguments; results between them do not break the run); without
            events, repeated_tool_calls
  sluggish  >= 4 gaps between events, and the last third of the gaps averages
            >= --sluggish-ratio x the first third (the trailing gap to ended_at
            is not a gap)
  unknown   none of these, or no events at all
queue and external are the environment's (they leave the attributable denominator).

Exit codes: 0 ok, 1 data error (or, with --strict, any rejected line or broken source), 2 usage error.`;

/**
 * Runs denom with `argv` (without `node` and the script) and returns the exit code.
 * Errors meant for the user print one line on stderr; a stack trace only with --debug.
 */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const debug = argv.includes("--debug");
  const program = new Command("denom")
    .description("Audits AI-agent evaluation results: every success rate with its denominator spelled out.")
    .version(VERSION, "-V, --version")
    .option("--debug", "print stack traces on errors")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(escapeMessage(s)),
      outputError: (s, write) => write(s.startsWith("error:") ? `denom: ${s}` : s),
    });

  addRunsFlags(
    program
      .command("report")
      .summary("strict and adjusted success rates, each with its denominator")
      .description("Loads run records and prints the strict success rate beside every adjusted one, each with its denominator spelled out.")
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--json", "print one JSON object (keys in the README) instead of tables; same as --format json")
      .option("--format <format>", "output: table for a terminal (default), json, md (GitHub markdown) or html (one self-contained page with charts); or the name of an input format, as --input-format")
      .option("-o, --out <file>", "write the output to FILE instead of stdout (- for stdout)")
      .addOption(new Option("--by <field>", "every figure again per value of this field, side by side").choices(GROUP_KEYS)),
  )
    .addHelpText("after", REPORT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { by?: GroupKey; out?: string }) => {
      const output = flags.format !== undefined && REPORT_OUTPUTS.includes(flags.format) ? flags.format : "table";
      if (flags.json && output !== "table" && output !== "json")
        throw new UsageError(`--json and --format ${output} ask for two outputs; give one of them`);
      const format = flags.json ? "json" : output;
      const options = { ...runsOptions(inputs, flags, io, "report", REPORT_OUTPUTS), by: flags.by ?? null, charts: format === "html" };
      const { runReport } = await import("./commands/report.js");
      const data = await withProgress(io, options, () => inSession(options, (session) => runReport(session, options)));
      let text: string;
      if (format === "json") {
        const { renderJson } = await import("./render/json.js");
        text = renderJson(data);
      } else if (format === "md") {
        const { renderReportMarkdown } = await import("./render/report-markdown.js");
        text = renderReportMarkdown(terminalSafe(data));
      } else if (format === "html") {
        const { renderReportHtml } = await import("./render/report-html.js");
        text = renderReportHtml(data);
      } else {
        const { renderReportText } = await import("./render/report-text.js");
        text = renderReportText(terminalSafe(data), { color: flags.out === undefined || flags.out === "-" ? useColor(io.stdout, io.env) : false });
      }
      writeOutput(io, flags.out, text);
      exitCode = strictExit(flags, data.accounting, io);
    });

  addRunsFlags(
    program
      .command("timeouts")
      .summary("every timeout attempt with its cause and the evidence")
      .description("Lists every timeout attempt with its cause (queue, external, loop, sluggish, unknown: the first rule that fires wins) and the evidence in words.")
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--cause <name>", "list only this cause: queue, external, loop, sluggish or unknown")
      .option("--json", "print the rows as a JSON array instead of a table")
      .option("--format <name>", "the same as --input-format"),
  )
    .addHelpText("after", TIMEOUTS_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { cause?: string }) => {
      const cause = flags.cause === undefined ? null : parseCause(flags.cause);
      const options = { ...runsOptions(inputs, flags, io, "timeouts"), cause };
      const { runTimeouts } = await import("./commands/timeouts.js");
      const data = await withProgress(io, options, () => inSession(options, (session) => runTimeouts(session, options)));
      if (flags.json) {
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(renderJson(data.timeouts));
      } else {
        const { renderTimeoutsText } = await import("./render/timeouts-text.js");
        io.stdout.write(renderTimeoutsText(terminalSafe(data), { color: useColor(io.stdout, io.env) }));
      }
      exitCode = strictExit(flags, data, io);
    });

  addRunsFlags(
    program
      .command("audit")
      .summary("find the definitions that reproduce a published success rate")
      .description("Searches a family of success-rate definitions for the ones that reproduce a published figure, and says what each one counts and leaves out beside the strict figure.")
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--claim <rate>", "a published figure: 87.5%, 0.3696 or 70/80; repeatable", collect, [])
      .option("--claims <file>", "read claims from FILE, one a line: CLAIM [LABEL]")
      .option("--json", "print one JSON object per claim; an array for several claims or --claims")
      .option("--format <name>", "the same as --input-format"),
  )
    .addHelpText("after", AUDIT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { claim: string[]; claims?: string }) => {
      const claims = auditClaims(flags);
      const options = { ...runsOptions(inputs, flags, io, "audit --claim 87.5%"), claims };
      const { runAudit } = await import("./commands/audit.js");
      const data = await withProgress(io, options, () => inSession(options, (session) => runAudit(session, options)));
      if (flags.json) {
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(renderJson(data.audits.length === 1 && !flags.claims ? data.audits[0] : data.audits));
      } else {
        const { renderAuditText } = await import("./render/audit-text.js");
        io.stdout.write(renderAuditText(terminalSafe(data), { color: useColor(io.stdout, io.env) }));
      }
      exitCode = strictExit(flags, data, io);
      if (exitCode === ExitCode.ok && !data.audits.every((a) => a.reproduced)) exitCode = ExitCode.notReproduced;
    });

  addCompareCommands(program, io, (code) => (exitCode = code));
  addStoreCommands(program, io, (code) => (exitCode = code));

  program
    .command("formats")
    .summary("the input formats denom reads, with the fields each reads")
    .description("Lists every input format (adapter) with the fields it reads and the canonical fields they become. --input-format NAME forces one.")
    .option("--json", "print the list as JSON: {formats: [{name, kind, describes, reads: [{source, canonical, note}], notes}]}")
    .option("--md", "print each format's mapping table as markdown (what docs/formats/ holds)")
    .option("--markdown", "print one mapping table per format, as docs/formats.md holds them")
    .argument("[names...]", "only these formats (with --md)")
    .action(async (names: string[], flags: { json?: boolean; md?: boolean; markdown?: boolean }) => {
      const { runFormats } = await import("./commands/formats.js");
      const data = runFormats();
      if (flags.markdown) {
        const { renderFormatsMarkdown } = await import("./render/formats-markdown.js");
        io.stdout.write(renderFormatsMarkdown(data));
      } else if (flags.md) {
        const unknown = names.filter((n) => !data.formats.some((f) => f.name === n));
        if (unknown.length) throw new UsageError(`no input format named ${unknown.join(", ")} (denom formats lists them)`);
        const { renderFormatsMarkdown } = await import("./render/formats-text.js");
        io.stdout.write(renderFormatsMarkdown(data, names));
      } else if (flags.json) {
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(renderJson(data));
      } else {
        const { renderFormatsText } = await import("./render/formats-text.js");
        io.stdout.write(renderFormatsText(data));
      }
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (e) {
    return handleError(e, io, debug);
  }
}

const COMPARE_EXAMPLES = `
Examples:
  $ denom compare runs/agent-a/ runs/agent-b/             # A = baseline, B = candidate
  $ denom compare a.jsonl b.jsonl --json                  # one JSON object (keys in docs/compare.md)
  $ denom compare results/ --by agent --baseline agent-a  # every other agent against agent-a
  $ denom compare a.jsonl b.jsonl --format md             # markdown for a pull-request comment
  $ denom compare a.jsonl b.jsonl --format html -o compare.html   # one self-contained page with a chart
  $ denom compare a.jsonl b.jsonl --fail-if-worse final/attributable   # exit 4 when B is worse

Tasks are paired by task id; tasks on one side only are listed, never paired.
For every cell (basis x denominator) a task enters when both sides keep a trial
of it there; p = a side's share of successes among those trials. B - A = mean
over the tasks of p_B - p_A, se = sd / sqrt(tasks) (the trials of one task are
one cluster), 95% CI = B - A +- 1.96 se. Test: exact McNemar when every task has
one kept trial per side, else a z test on the differences (approximate).
mde80 = (1.96 + 0.84) se; tasks needed = (1.96 + 0.84)^2 var / (B - A)^2
(Miller 2024, "Adding Error Bars to Evals").

Exit codes: 0 ok, 4 --fail-if-worse and the cell's 95% interval is below 0, 1 data error, 2 usage error.`;

const GATE_EXAMPLES = `
Examples:
  $ denom gate runs.jsonl --min final/total=0.8 --max timeout_rate=0.1
  $ denom gate logs/ --min final/attributable=85% --max environment_share=0.05 --max p95_s=600
  $ denom gate runs.jsonl --max grader_errors=0 --max rejected=0 --json

CELL: basis/denominator (first or final; total, valid, attributable, completable), its rate.
METRIC: timeout_rate (final timeouts / trials), environment_share (final environment
failures / trials), constraint_violations, grader_errors (attempts), rejected (lines),
p95_s (attempt duration, seconds, nearest rank), cost_per_success (USD).
Rates take 0.85 or 85%. A figure that is n/a fails its condition.

Exit codes: 0 every condition holds, 4 a condition fails, 1 data error, 2 usage error.`;

/** compare and gate: the commands that judge runs against each other or a bar. */
function addCompareCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  addRunsFlags(
    program
      .command("compare")
      .summary("is B better than A? paired differences per cell, tests, power")
      .description("Compares candidate B with baseline A over the tasks both ran: per cell the paired difference of success shares, its 95% interval, an exact McNemar or z test, the power, whether the ranking flips between cells, and where the difference comes from.")
      .argument("[inputs...]", "A B (baseline, candidate: each a file, folder or archive), or with --by the inputs holding every group")
      .option("--json", "print one JSON object (keys in docs/compare.md); same as --format json")
      .option("--format <format>", "output: table for a terminal (default), json, md (GitHub markdown) or html (one self-contained page with a chart); or the name of an input format, as --input-format")
      .option("-o, --out <file>", "write the output to FILE instead of stdout (- for stdout)")
      .addOption(new Option("--by <field>", "compare the groups of this field of one input").choices(GROUP_KEYS))
      .option("--baseline <value>", "with --by: the group every other group is compared with")
      .option("--fail-if-worse <cell>", "exit 4 when B is significantly worse on CELL (basis/denominator): its 95% interval lies below 0"),
  )
    .addHelpText("after", COMPARE_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { by?: GroupKey; baseline?: string; failIfWorse?: string; out?: string }) => {
      const format = outputFormat(flags, COMPARE_OUTPUTS);
      const { parseCellName, runCompare } = await import("./commands/compare.js");
      const failIfWorse = flags.failIfWorse === undefined ? null : parseCellName(flags.failIfWorse, "--fail-if-worse");
      if (flags.baseline !== undefined && !flags.by) throw new UsageError("--baseline names a group of --by FIELD; with two inputs A B the first one is the baseline");
      const runs = runsOptions(inputs, flags, io, flags.by ? "compare results/ --by agent --baseline NAME" : "compare a.jsonl b.jsonl", COMPARE_OUTPUTS);
      let data;
      if (flags.by) {
        const options: CompareOptions = { inputs, by: flags.by, baselineValue: flags.baseline ?? null, failIfWorse };
        const byRuns = { ...runs, by: flags.by };
        data = await withProgress(io, byRuns, () => inSession(byRuns, (session) => runCompare({ baseline: session, candidate: null }, options)));
      } else {
        if (flags.db) throw new UsageError(`--db ${flags.db} holds one set of runs: compare its groups with --by FIELD --baseline VALUE`);
        if (inputs.length !== 2) throw new UsageError(`compare takes two inputs, baseline A and candidate B (got ${inputs.length}); or one input with --by FIELD --baseline VALUE`);
        const options: CompareOptions = { baseline: inputs[0], candidate: inputs[1], failIfWorse };
        // each input in its own session: two inputs without run ids never become one run
        data = await withProgress(io, runs, () =>
          inSession({ ...runs, inputs: [inputs[0]] }, (a) => inSession({ ...runs, inputs: [inputs[1]] }, (b) => runCompare({ baseline: a, candidate: b }, options))),
        );
      }
      let text: string;
      if (format === "json") {
        const { renderCompareJson } = await import("./render/compare-json.js");
        text = renderCompareJson(data);
      } else if (format === "md") {
        const { renderCompareMarkdown } = await import("./render/compare-markdown.js");
        text = renderCompareMarkdown(data);
      } else if (format === "html") {
        const { renderCompareHtml } = await import("./render/compare-html.js");
        text = renderCompareHtml(data);
      } else {
        const { renderCompareText } = await import("./render/compare-text.js");
        text = renderCompareText(data, { color: flags.out === undefined || flags.out === "-" ? useColor(io.stdout, io.env) : false });
      }
      writeOutput(io, flags.out, text);
      let code: number = strictExit(flags, data, io);
      const worse = data.comparisons.filter((c) => c.fail_if_worse?.worse);
      if (code === ExitCode.ok && worse.length) {
        io.stderr.write(`denom: --fail-if-worse ${flags.failIfWorse}: ${worse.map((c) => c.candidate.label).join(", ")} significantly worse than ${worse[0].baseline.label} (95% interval below 0)\n`);
        code = ExitCode.gateFailed;
      }
      setExit(code);
    });

  addRunsFlags(
    program
      .command("gate")
      .summary("check a run against bars for CI: --min CELL=X --max METRIC=Y, exit 4 when one fails")
      .description("Checks the figures of a run against bars, one line per condition with the measured value; exits 4 when any condition fails.")
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--min <figure=x>", "the figure must be at least X (a cell basis/denominator or a metric); repeatable", collect, [])
      .option("--max <figure=y>", "the figure must be at most Y; repeatable", collect, [])
      .option("--json", "print {passed, conditions [{condition, value, passed}]}")
      .option("--format <name>", "the same as --input-format"),
  )
    .addHelpText("after", GATE_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { min: string[]; max: string[] }) => {
      const { parseCondition, runGate } = await import("./commands/gate.js");
      const conditions = [...flags.min.map((c) => parseCondition(c, "min")), ...flags.max.map((c) => parseCondition(c, "max"))];
      if (!conditions.length) throw new UsageError("no condition given: add --min CELL=X (e.g. --min final/total=0.8) or --max METRIC=Y (e.g. --max timeout_rate=0.1)");
      const runs = runsOptions(inputs, flags, io, "gate runs.jsonl --min final/total=0.8");
      const data = await withProgress(io, runs, () => inSession(runs, (session) => runGate(session, { conditions })));
      if (flags.json) {
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(renderJson(data));
      } else {
        const { renderGateText } = await import("./render/gate-text.js");
        io.stdout.write(renderGateText(data));
      }
      const code = strictExit(flags, data, io);
      setExit(code === ExitCode.ok && !data.passed ? ExitCode.gateFailed : code);
    });
}

/** The output `--json` / `--format` ask for (table, json, md or html); throws UsageError for two. */
function outputFormat(flags: { json?: boolean; format?: string }, outputs: readonly string[]): string {
  const output = flags.format !== undefined && outputs.includes(flags.format) ? flags.format : "table";
  if (flags.json && output !== "table" && output !== "json") throw new UsageError(`--json and --format ${output} ask for two outputs; give one of them`);
  return flags.json ? "json" : output;
}

const EXPORT_EXAMPLES = `
Examples:
  $ denom export runs.jsonl --out trials.csv                   # one row per trial, and trials.csv.meta.json
  $ denom export runs.jsonl --out attempts.parquet --what attempts
  $ denom export --db runs.duckdb --out rates.json --what rates
  $ denom export logs/ --out rejects.csv --what rejects

--what: trials (view trials), attempts (attempts_classified, with the source file),
rates (rate_intervals: the grid with its 95% interval), rejects (with the source file),
timeouts (attempt_timeout_cause).
The format comes from the extension: .csv (RFC 4180, UTF-8, header row), .parquet,
.json (one array) or .jsonl. FILE.meta.json beside it holds the meta block:
sources with sha256, definitions, exclusions, thresholds, tool version.
In CSV, text cells starting with = + - @ tab or CR get a leading apostrophe so a
spreadsheet does not run them as formulas; --raw-csv writes them as they are.`;

const INGEST_EXAMPLES = `
Examples:
  $ denom ingest logs/ --db runs.duckdb
  $ denom ingest more-logs/ task_logs.tar.gz --db runs.duckdb   # adds; known sources are skipped
  $ denom report --db runs.duckdb

A source (file, or archive member) whose sha256 is already in FILE is skipped and
listed, never counted twice. One call adds all or nothing; with --strict, any
rejected line or broken source (a truncated gzip or tar) adds nothing.`;

const QUERY_EXAMPLES = `
Examples:
  $ denom query --db runs.duckdb "SELECT basis, denominator, successes, count, rate FROM rate_grid ORDER BY basis_order, step"
  $ denom query --db runs.duckdb --csv "SELECT * FROM trials WHERE final_status = 'timeout' ORDER BY task_id" > timeouts.csv
  $ denom query --db runs.duckdb --schema      # tables and views with their columns

The file is opened read-only; the views are today's, built on its tables. The session
cannot reach other files, the network or extensions; only queries run (SELECT, WITH,
FROM, PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW, EXPLAIN of one), anything else exits 2.`;

/** export, ingest and query: the commands that take the figures elsewhere. */
function addStoreCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  addRunsFlags(
    program
      .command("export")
      .summary("write trials, attempts, rates, rejects or timeouts to CSV, Parquet or JSON")
      .description("Writes the rows of the views the report reads to a file (format from its extension) and the meta block to FILE.meta.json.")
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .requiredOption("--out <file>", "the file to write: .csv, .parquet, .json or .jsonl")
      .addOption(new Option("--what <rows>", "which rows").choices(["trials", "attempts", "rates", "rejects", "timeouts"] satisfies ExportWhat[]).default("trials"))
      .option("--raw-csv", "write CSV cells that start with = + - @ tab or CR as they are (default: a leading apostrophe)")
      .option("--format <name>", "the same as --input-format"),
  )
    .addHelpText("after", EXPORT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { out: string; what: ExportWhat; rawCsv?: boolean }) => {
      const options = { ...runsOptions(inputs, flags, io, "export --out trials.csv"), out: flags.out, what: flags.what, rawCsv: Boolean(flags.rawCsv) };
      const { exportFormat, exportStaging, runExport } = await import("./commands/export.js");
      exportFormat(options);
      const staged = exportStaging(options);
      const data = await withProgress(io, staged, () => inSession(staged, (session) => runExport(session, staged)));
      if (flags.rawCsv && data.format !== "csv") io.stderr.write(escapeMessage(`denom: warning: --raw-csv applies to .csv files only; ${data.file} is ${data.format}`) + "\n");
      const { renderExportText } = await import("./render/store-text.js");
      io.stdout.write(renderExportText(terminalSafe(data)));
      setExit(strictExit(flags, data, io));
    });

  program
    .command("ingest")
    .summary("keep loaded runs in a DuckDB file; later commands read it with --db")
    .description("Loads run records into a DuckDB file that keeps the tables and the views. Sources already in the file (same sha256) are skipped.")
    .argument("<inputs...>", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
    .requiredOption("--db <file>", "the DuckDB file to add to (created when missing)")
    .option("--strict", "add nothing and exit 1 when any line is rejected or a source is broken (a truncated gzip or tar)")
    .option("--json", "print what was added and skipped as JSON")
    .option("--input-format <name>", "read every input as this format (denom formats lists them); default: detected per source")
    .option("--format <name>", "the same as --input-format")
    .option("--max-line-bytes <size>", MAX_LINE_HELP)
    .option("--score-key <key>", SCORE_KEY_HELP)
    .option("--run-per-file", "make every file (or archive member) its own run, so that records of two files are never duplicates of one run")
    .addHelpText("after", INGEST_EXAMPLES)
    .action(async (inputs: string[], flags: { db: string; strict?: boolean; json?: boolean; inputFormat?: string; format?: string; maxLineBytes?: string; scoreKey?: string; runPerFile?: boolean }) => {
      const options: IngestCommandOptions = {
        inputs,
        format: inputFormat(flags),
        maxLineBytes: parseLineLimit(flags.maxLineBytes),
        scoreKey: flags.scoreKey ?? null,
        runPerFile: Boolean(flags.runPerFile),
        db: flags.db,
        strict: Boolean(flags.strict),
        stdin: io.stdin as RunsOptions["stdin"],
        onReject: rejectPrinter(io),
        onWarning: warningPrinter(io),
      };
      const { runIngest } = await import("./commands/ingest.js");
      const data = await withProgress(io, options, () => runIngest(options));
      if (flags.json) {
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(renderJson(data));
      } else {
        const { renderIngestText } = await import("./render/store-text.js");
        io.stdout.write(renderIngestText(terminalSafe(data)));
      }
      if (!data.committed) {
        io.stderr.write(escapeMessage(`denom: ${strictProblems(data.rejected, data.broken_sources)} and --strict is set; nothing was added to ${data.db}`) + "\n");
        setExit(ExitCode.data);
      }
    });

  addDefinitionFlags(
    program
      .command("query")
      .summary("run read-only SQL against the tables and views of a --db file")
      .description("Runs one SQL statement against the tables and views of a file kept by denom ingest, opened read-only, and prints the rows.")
      .argument("[sql]", "one SQL statement")
      .option("--db <file>", "the DuckDB file kept by denom ingest")
      .option("--json", "print the rows as a JSON array of objects")
      .option("--csv", "print the rows as CSV (RFC 4180, as denom export writes it)")
      .option("--raw-csv", "with --csv: cells that start with = + - @ tab or CR as they are")
      .option("--schema", "list the tables and views with their columns instead (works without --db too)"),
  )
    .addHelpText("after", QUERY_EXAMPLES)
    .action(async (sql: string | undefined, flags: CommonFlags & { csv?: boolean; rawCsv?: boolean; schema?: boolean }) => {
      if (flags.schema && sql) throw new UsageError("--schema and SQL given: --schema lists the views; drop one of them");
      if (!flags.schema && !sql) throw new UsageError(`no SQL given: e.g. denom query --db runs.duckdb "SELECT * FROM rate_grid", or --schema`);
      if (!flags.schema && !flags.db) throw new UsageError("--db FILE missing: query reads a file kept by denom ingest INPUT... --db FILE");
      if (flags.json && flags.csv) throw new UsageError("--json and --csv ask for two outputs; give one of them");
      const options = {
        db: flags.db,
        statusMap: parseStatusMap(flags.statusMap),
        thresholds: parseThresholds(flags),
        expectation: parseExpectation(flags),
        stdin: io.stdin as RunsOptions["stdin"],
      };
      const query = await import("./commands/query.js");
      if (flags.schema) {
        const relations = await inSession({ ...options, inputs: [], views: true }, (session) => query.readSchema(session));
        const { renderSchemaText } = await import("./render/store-text.js");
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(flags.json ? renderJson(relations) : renderSchemaText(terminalSafe(relations)));
      } else if (flags.csv) {
        io.stdout.write(await inSession({ ...options, inputs: [], views: true }, (session) => query.runQueryCsv(session, sql!, !flags.rawCsv)));
      } else {
        const result = await inSession({ ...options, inputs: [], views: true }, (session) => query.runQuery(session, sql!));
        const { renderRowsTable, rowsAsObjects } = await import("./render/rows.js");
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(flags.json ? renderJson(rowsAsObjects(result)) : renderRowsTable(terminalSafe(result), { color: useColor(io.stdout, io.env) }));
      }
    });
}

function addRunsFlags(cmd: Command): Command {
  return addDefinitionFlags(
    cmd
      .option("--db <file>", "read the runs kept in FILE by denom ingest instead of inputs (reads nothing again, never writes FILE)")
      .option("--strict", "exit 1 when any line is rejected or a source is broken, a truncated gzip or tar (the output is still printed or written)")
      .option("--input-format <name>", "read every input as this format (denom formats lists them); default: detected per source")
      .option("--max-line-bytes <size>", MAX_LINE_HELP)
      .option("--score-key <key>", SCORE_KEY_HELP)
      .option("--run-per-file", "make every file (or archive member) its own run, so that records of two files are never duplicates of one run"),
  );
}

const MAX_LINE_HELP = "the longest JSONL line read (e.g. 256MiB; default 64MiB); a longer line is a reject, skipped without being held in memory";

/**
 * `--max-line-bytes SIZE`: bytes, or a number with KB, MB, GB (powers of 1000)
 * or KiB, MiB, GiB (powers of 1024). Undefined when absent. Throws UsageError
 * for anything else, or above MAX_LINE_BYTES (a line must fit in one string).
 */
export function parseLineLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(|B|KB|MB|GB|KiB|MiB|GiB)\s*$/i.exec(value);
  const units: Record<string, number> = { "": 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };
  const bytes = m ? Math.floor(Number(m[1]) * units[m[2].toLowerCase()]) : NaN;
  if (!Number.isFinite(bytes) || bytes < 1) throw new UsageError(`--max-line-bytes ${value}: expected a size such as 268435456, 256MiB or 300MB`);
  if (bytes > MAX_LINE_BYTES)
    throw new UsageError(`--max-line-bytes ${value}: at most ${MAX_LINE_BYTES} bytes (${(MAX_LINE_BYTES / 1024 ** 2).toFixed(0)} MiB), the longest string JavaScript can hold`);
  return bytes;
}

const SCORE_KEY_HELP = "the key of a dict-valued score (Inspect {problem: 1, subproblem: 0.4}) that decides success; without it such trials are unscored";

/** The flags that change definitions, not inputs: status aliases and classifier thresholds. */
function addDefinitionFlags(cmd: Command): Command {
  return cmd
    .option("--status-map <FROM=TO>", "read status FROM as TO (success, failure, timeout, aborted, invalid); repeatable", collect, [])
    .addOption(new Option("--queue-share <fraction>", "timeout is `queue` when the queue wait is at least this share of the time limit").default("0.25"))
    .addOption(new Option("--loop-min <calls>", "timeout is `loop` at this many identical consecutive tool calls").default("5"))
    .addOption(new Option("--sluggish-ratio <x>", "timeout is `sluggish` when the last third of gaps averages this many times the first third").default("2"))
    .option("--expect <file>", "task ids expected, one a line: an absent one counts in total as missing (environment)")
    .option("--expect-count <n>", "tasks expected per run: a run short of N counts the rest in total as missing");
}

/** The claims of `--claim` (in order) then `--claims FILE`; throws UsageError when there is none or one is malformed. */
function auditClaims(flags: { claim: string[]; claims?: string }): Claim[] {
  const claims = flags.claim.map((c) => parseClaim(c));
  if (flags.claims !== undefined) claims.push(...readClaimsFile(flags.claims));
  if (claims.length === 0) throw new UsageError("no claim given: add --claim 87.5% (repeatable) or --claims FILE");
  return claims;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The adapter `--input-format NAME` (or `--format NAME`) names, or null for
 * detection. `outputs` are the values `--format` takes as an output format
 * (report), never an input format's name. Throws UsageError for a name that is
 * no format, or two different names.
 */
function inputFormat(flags: { inputFormat?: string; format?: string }, outputs: readonly string[] = []): Adapter | null {
  const viaFormat = flags.format !== undefined && !outputs.includes(flags.format) ? flags.format : undefined;
  if (flags.inputFormat !== undefined && viaFormat !== undefined && flags.inputFormat !== viaFormat)
    throw new UsageError(`--input-format ${flags.inputFormat} and --format ${viaFormat} name two input formats; give one of them`);
  const name = flags.inputFormat ?? viaFormat;
  if (name === undefined) return null;
  const adapter = formatNamed(name);
  if (!adapter) {
    const flag = flags.inputFormat !== undefined ? "--input-format" : "--format";
    const also = outputs.length ? ` (or an output: ${outputs.join(", ")})` : "";
    throw new UsageError(`${flag} ${name}: no such format; use one of ${ALL_FORMATS.map((f) => f.name).join(", ")}${also}; denom formats lists what each reads`);
  }
  return adapter;
}

/** Turns the shared flags into typed options; throws UsageError naming the flag. */
function runsOptions(inputs: string[], flags: CommonFlags, io: Io, command: string, outputs: readonly string[] = []): RunsOptions {
  if (inputs.length === 0 && !flags.db)
    throw new UsageError(`no input given: name files, folders or archives, or - for stdin (e.g. denom ${command} samples/seed-100.jsonl), or --db FILE kept by denom ingest`);
  if (inputs.filter((i) => i === "-").length > 1) throw new UsageError("- given twice: stdin can be read once");
  if (inputs.length > 0 && flags.db)
    throw new UsageError(`--db ${flags.db} and inputs given: --db reads the stored runs only; add inputs to it with denom ingest INPUT... --db ${flags.db}`);
  return {
    inputs,
    db: flags.db,
    statusMap: parseStatusMap(flags.statusMap),
    thresholds: parseThresholds(flags),
    expectation: parseExpectation(flags),
    format: inputFormat(flags, outputs),
    runPerFile: Boolean(flags.runPerFile),
    maxLineBytes: parseLineLimit(flags.maxLineBytes),
    scoreKey: flags.scoreKey ?? null,
    stdin: io.stdin as RunsOptions["stdin"],
    onReject: rejectPrinter(io),
    onWarning: warningPrinter(io),
  };
}

/** Prints a warning on stderr, secrets masked (a path or an archive's message may hold one). */
function warningPrinter(io: Io): (text: string) => void {
  return (text) => io.stderr.write(`denom: warning: ${escapeMessage(maskSecrets(text).text)}\n`);
}

/** Prints the first rejects as they come, then counts the rest. */
function rejectPrinter(io: Io): (r: RejectNotice) => void {
  let shown = 0;
  return (r) => {
    if (++shown > REJECTS_SHOWN) return;
    const where = r.location ? `${r.source} (${r.location})` : `${r.source}:${r.line}`;
    const skipped = r.kind === "document" ? "" : `the ${r.kind} was skipped, `; // a broken document says what was kept in its reason
    io.stderr.write(escapeMessage(`denom: ${where}: ${r.reason}; ${skipped}--strict makes this fatal`) + "\n");
    if (shown === REJECTS_SHOWN) io.stderr.write(`denom: further rejected lines are not printed; the report counts them all\n`);
  };
}

/** Writes a command's output to stdout, or to FILE with `-o FILE` (`-` = stdout). Throws DataError when FILE cannot be written. */
function writeOutput(io: Io, out: string | undefined, text: string): void {
  if (out === undefined || out === "-") {
    io.stdout.write(text);
    return;
  }
  try {
    writeFileSync(out, text);
  } catch (e) {
    throw new DataError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Reading that lasts longer than this gets a progress line (short reads stay silent). */
const PROGRESS_AFTER_MS = 2000;
/** Least time between two redraws of the progress line. */
const PROGRESS_EVERY_MS = 200;

/**
 * Shows a progress line on stderr, only when stderr is a TTY, once reading has
 * taken PROGRESS_AFTER_MS: a bar (when the total is known), MB read, records
 * and rate (progressLine); then a line while the figures are computed. Cleared
 * when the work ends, so nothing of it stays on the screen or reaches a pipe.
 */
/** Opens the session a command reads (src/ingest/runs.ts), runs it, and closes the session. */
async function inSession<T>(options: RunsOptions, work: (session: Session) => Promise<T>): Promise<T> {
  const { withRuns } = await import("./ingest/runs.js");
  return withRuns(options, work);
}

async function withProgress<T>(io: Io, options: Pick<RunsOptions, "onProgress" | "onComputing">, work: () => Promise<T>): Promise<T> {
  if (!io.stderr.isTTY) return work();
  const now = io.now ?? Date.now;
  const started = now();
  let last = 0;
  let drawn = false;
  options.onProgress = (read, total, records) => {
    const t = now();
    if (t - started < PROGRESS_AFTER_MS || t - last < PROGRESS_EVERY_MS) return;
    last = t;
    drawn = true;
    io.stderr.write(`\r${progressLine({ read, total, records, seconds: (t - started) / 1000 })}\u001b[K`);
  };
  // after a long read, say that the figures are being computed (the views run in DuckDB)
  options.onComputing = () => {
    if (drawn) io.stderr.write("\rcomputing the figures\u001b[K");
  };
  try {
    return await work();
  } finally {
    if (drawn) io.stderr.write("\r\u001b[K");
  }
}

/**
 * The exit code --strict asks for: 1 (data error) when any line was rejected, any
 * source broke part-way (a truncated gzip or tar, whose lost rest no line count
 * shows), or differing duplicates met from two sources (issue 15: two runs taken
 * for one), all from the accounting view; else 0.
 */
function strictExit(flags: { strict?: boolean }, read: { rejected: number; broken_sources: number; duplicates_across_sources?: number }, io: Io): number {
  const across = read.duplicates_across_sources ?? 0;
  if (flags.strict && (read.rejected > 0 || read.broken_sources > 0 || across > 0)) {
    io.stderr.write(`denom: ${strictProblems(read.rejected, read.broken_sources, across)} and --strict is set\n`);
    return ExitCode.data;
  }
  return ExitCode.ok;
}

/** What --strict refuses, in words: "2 lines rejected", "1 source broken", "100 differing duplicates across sources". */
function strictProblems(rejected: number, broken: number, across = 0): string {
  const parts: string[] = [];
  if (rejected > 0) parts.push(`${rejected} line${rejected === 1 ? "" : "s"} rejected`);
  if (broken > 0) parts.push(`${broken} source${broken === 1 ? "" : "s"} broken part-way (warned above)`);
  if (across > 0) parts.push(`${across} differing duplicate${across === 1 ? "" : "s"} from two sources (warned above)`);
  return parts.join(" and ");
}

function handleError(e: unknown, io: Io, debug: boolean): number {
  if (e instanceof CommanderError) {
    // help asked for (--help, `help CMD`) and --version are not errors (commander's exit code
    // 0); help shown because no known command was given is a usage error, like everything
    // else commander rejects
    if (e.code === "commander.version" || ((e.code === "commander.helpDisplayed" || e.code === "commander.help") && e.exitCode === 0))
      return ExitCode.ok;
    return ExitCode.usage;
  }
  if (e instanceof DenomError) {
    io.stderr.write(`denom: ${escapeMessage(maskSecrets(e.message).text)}\n`);
    if (debug && e.stack) io.stderr.write(`${escapeMessage(maskSecrets(e.stack).text)}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  io.stderr.write(`denom: internal error: ${escapeMessage(maskSecrets(err?.message ?? String(e)).text)}${debug ? "" : " (run with --debug for a stack trace)"}\n`);
  if (debug && err?.stack) io.stderr.write(`${escapeMessage(maskSecrets(err.stack).text)}\n`);
  return ExitCode.data;
}
