/**
 * The commander program: flags -> typed options -> command -> renderer.
 * `main` is the one exit path: it returns the exit code and never calls
 * `process.exit`. Command modules are imported lazily so `--help` stays fast
 * and never loads DuckDB.
 */
import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import type { CopyFormat } from "./db/session.js";
import type { CompareData, CompareOptions } from "./commands/compare.js";
import type { ReportData } from "./commands/report.js";
import type { IngestCommandOptions } from "./commands/ingest.js";
import type { Session } from "./db/session.js";
import type { RunsOptions } from "./ingest/runs.js";
import { parseClaim, readClaimsFile, type Claim } from "./claims.js";
import {
  EXPORT_WHAT,
  GROUP_KEYS,
  parseCause,
  parseExpectation,
  parseMinTasks,
  parseReruns,
  parseStatusMap,
  parseSuccessThreshold,
  parseThresholds,
  type ExportWhat,
  type GroupKey,
} from "./definitions.js";
import { DataError, DenomError, ExitCode, NoRecordError, UsageError } from "./errors.js";
import { Notices, useColor, writeFileAtomic, type Io } from "./io.js";
import { nothingRead, strictProblems, type ReadCounts } from "./render/format.js";
import { progressLine } from "./render/progress.js";
import { escapeMessage, terminalSafe } from "./render/terminal.js";
import type { RejectNotice } from "./ingest/ingest.js";
import { ALL_FORMATS, formatNamed, type Adapter } from "./formats/index.js";
import { MAX_LINE_BYTES } from "./ingest/bytes/lines.js";
import { configureLineWorkers } from "./ingest/load/parallel.js";
import { maskSecrets } from "./ingest/records/secrets.js";
import { VERSION } from "./version.js";

/** Rejects printed one by one on stderr before the rest are summarised. */
const REJECTS_SHOWN = 20;

/** The output flags every command takes (addOutputFlags). */
interface OutputFlags {
  /** an output format of the command; on commands that read inputs, an input format's name is still taken when unambiguous */
  format?: string;
  json?: boolean;
  /** `-o/--out FILE`; `-` = stdout */
  out?: string;
  quiet?: boolean;
  /** false with --no-color */
  color?: boolean;
}

interface CommonFlags extends OutputFlags {
  strict?: boolean;
  db?: string;
  statusMap: string[];
  queueShare: string;
  loopMin: string;
  sluggishRatio: string;
  expect?: string;
  expectCount?: string;
  rerunOf: string[];
  inputFormat?: string;
  runPerFile?: boolean;
  pool?: boolean;
  scoreKey?: string;
  successThreshold?: string;
  maxLineBytes?: string;
}

const REPORT_EXAMPLES = `
Examples:
  $ denom report samples/seed-100.jsonl
  $ denom report logs/                       # every .jsonl/.json/.gz below logs/
  $ denom report task_logs.tar.gz --json     # archive members streamed, nothing extracted
  $ cat results.json | denom report -        # stdin
  $ denom report runs.jsonl --status-map unsuccessful=failure --strict
  $ denom report logs/graded.json --success-threshold 7   # Inspect grades 0-10: a grade of 7 or more passes
  $ denom report --db runs.duckdb            # runs kept by denom ingest, nothing read again
  $ denom report runs.jsonl --format md -o report.md   # GitHub markdown for a PR or an issue
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

Scores: a success a score decides (Inspect, Harbor, tau-bench, tau2-bench,
AgentCompass) follows the 0-1 rule its format declares (denom formats); a run
with a score off that scale (grades 0-10) is unscored, with a warning, until
--success-threshold X decides (score >= X); the meta block names the rule.

Beside the grid: pass@k and pass^k (k = 1 .. the most trials of a task), 95%
intervals (Wilson over single trials; a task-clustered bootstrap, 2000 resamples,
fixed seed, when tasks have several trials; from 5,000 such tasks the analytic
cluster-robust interval), duration p50/p95, agent time vs wall
time, tokens, cost per success (retries included), retries, per-call outcomes.

Exit codes: 0 ok, 1 data error (inputs that yield no record too; with --strict, any rejected line or broken source), 2 usage error.`;

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

Exit codes: 0 ok, 1 data error (inputs that yield no record too; with --strict, any rejected line or broken source), 2 usage error.`;

/**
 * Runs denom with `argv` (without `node` and the script) and returns the exit code.
 * Errors meant for the user print one line on stderr; a stack trace only with --debug.
 */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const debug = argv.includes("--debug");
  configureLineWorkers(io.env);
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
      .addOption(new Option("--by <field>", "every figure again per value of this field, side by side").choices(GROUP_KEYS)),
    REPORT_OUTPUT,
  )
    .addHelpText("after", REPORT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { by?: GroupKey }) => {
      const out = outputOf(flags, io, REPORT_OUTPUT);
      const options = { ...runsOptions(inputs, flags, io, "report", out), by: flags.by ?? null, charts: out.format === "html" };
      const { prefetchReport, runReport } = await import("./commands/report.js");
      // the renderer loads while DuckDB computes (the main thread waits for it then)
      const renderer = reportRenderer(out.format, out.color);
      renderer.catch(() => {}); // awaited below, unless the report fails first
      const data = await withProgress(io, out.notices, options, () =>
        inSession({ ...options, prefetch: prefetchReport }, (session) => runReport(session, options)),
      );
      out.emit((await renderer)(data));
      exitCode = readExit(flags, data.accounting, io, inputs);
    });

  addRunsFlags(
    program
      .command("timeouts")
      .summary("every timeout attempt with its cause and the evidence")
      .description(
        "Lists every timeout attempt with its cause (queue, external, loop, sluggish, unknown: the first rule that fires wins) and the evidence in words.",
      )
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--cause <name>", "list only this cause: queue, external, loop, sluggish or unknown"),
    TIMEOUTS_OUTPUT,
  )
    .addHelpText("after", TIMEOUTS_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { cause?: string }) => {
      const out = outputOf(flags, io, TIMEOUTS_OUTPUT);
      const cause = flags.cause === undefined ? null : parseCause(flags.cause);
      const options = { ...runsOptions(inputs, flags, io, "timeouts", out), cause };
      const { runTimeouts } = await import("./commands/timeouts.js");
      const data = await withProgress(io, out.notices, options, () => inSession(options, (session) => runTimeouts(session, options)));
      if (out.format === "json") {
        const { renderJson } = await import("./json.js");
        out.emit(renderJson(data.timeouts));
      } else {
        const { renderTimeoutsText } = await import("./render/timeouts-text.js");
        out.emit(renderTimeoutsText(terminalSafe(data), { color: out.color }));
      }
      exitCode = readExit(flags, data, io, inputs);
    });

  addRunsFlags(
    program
      .command("audit")
      .summary("find the definitions that reproduce a published success rate")
      .description(
        "Searches a family of success-rate definitions for the ones that reproduce a published figure, and says what each one counts and leaves out beside the strict figure.",
      )
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--claim <rate>", "a published figure: 87.5%, 0.3696 or 70/80; repeatable", collect, [])
      .option("--claims <file>", "read claims from FILE, one a line: CLAIM [LABEL]"),
    AUDIT_OUTPUT,
  )
    .addHelpText("after", AUDIT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { claim: string[]; claims?: string }) => {
      const out = outputOf(flags, io, AUDIT_OUTPUT);
      const claims = auditClaims(flags);
      const options = { ...runsOptions(inputs, flags, io, "audit --claim 87.5%", out), claims };
      const { runAudit } = await import("./commands/audit.js");
      const data = await withProgress(io, out.notices, options, () => inSession(options, (session) => runAudit(session, options)));
      if (out.format === "json") {
        const { renderJson } = await import("./json.js");
        out.emit(renderJson(data.audits.length === 1 && !flags.claims ? data.audits[0] : data.audits));
      } else {
        const { renderAuditText } = await import("./render/audit-text.js");
        out.emit(renderAuditText(terminalSafe(data), { color: out.color }));
      }
      exitCode = readExit(flags, data, io, inputs);
      if (exitCode === ExitCode.ok && !data.audits.every((a) => a.reproduced)) exitCode = ExitCode.notReproduced;
    });

  addCompareCommands(program, io, (code) => (exitCode = code));
  addStoreCommands(program, io, (code) => (exitCode = code));

  addOutputFlags(
    program
      .command("formats")
      .summary("the input formats denom reads, with the fields each reads")
      .description("Lists every input format (adapter) with the fields it reads and the canonical fields they become. --input-format NAME forces one.")
      // the two markdown flags of earlier versions, kept as hidden aliases of --format md
      .addOption(new Option("--md").hideHelp())
      .addOption(new Option("--markdown").hideHelp())
      .argument("[names...]", "only these formats (with --format md: their sections of docs/formats.md)"),
    FORMATS_OUTPUT,
  ).action(async (names: string[], flags: OutputFlags & { md?: boolean; markdown?: boolean }) => {
    if (flags.md || flags.markdown) {
      const alias = flags.md ? "--md" : "--markdown";
      if (flags.format !== undefined && flags.format !== "md")
        throw new UsageError(`${alias} and --format ${flags.format} ask for two outputs; give one of them`);
      flags.format = "md";
    }
    const out = outputOf(flags, io, FORMATS_OUTPUT);
    const { runFormats } = await import("./commands/formats.js");
    const data = runFormats();
    if (out.format === "json") {
      const { renderJson } = await import("./json.js");
      out.emit(renderJson(data));
    } else if (out.format === "md") {
      const unknown = names.filter((n) => !data.formats.some((f) => f.name === n));
      if (unknown.length) throw new UsageError(`no input format named ${unknown.join(", ")} (denom formats lists them)`);
      const { renderFormatsMarkdown } = await import("./render/formats-markdown.js");
      out.emit(renderFormatsMarkdown(data, names));
    } else {
      const { renderFormatsText } = await import("./render/formats-text.js");
      out.emit(renderFormatsText(data));
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
  $ denom compare a.jsonl b.jsonl --fail-if-worse final/attributable   # exit 4 when B is worse

Tasks are paired by task id; tasks on one side only are listed, never paired.
For every cell (basis x denominator) a task enters when both sides keep a trial
of it there; p = a side's share of successes among those trials. B - A = mean
over the tasks of p_B - p_A, se = sd / sqrt(tasks) (the trials of one task are
one cluster), 95% CI = B - A +- 1.96 se. Test: exact McNemar when every task has
one kept trial per side, else a z test on the differences (approximate).
mde80 = (1.96 + 0.84) se; tasks needed = (1.96 + 0.84)^2 var / (B - A)^2
(Miller 2024, "Adding Error Bars to Evals").

Exit codes: 0 ok, 4 --fail-if-worse and the cell's 95% interval is below 0, or nothing to judge
(an empty side, fewer paired tasks than --min-tasks, default 2), 1 data error, 2 usage error.`;

const GATE_EXAMPLES = `
Examples:
  $ denom gate runs.jsonl --min final/total=0.8 --max timeout_rate=0.1
  $ denom gate logs/ --min final/attributable=85% --max environment_share=0.05 --max p95_s=600
  $ denom gate runs.jsonl --max grader_errors=0 --max rejected=0 --json

CELL: basis/denominator (first or final; total, valid, attributable, completable), its rate.
METRIC: timeout_rate (final timeouts / trials), environment_share (final environment
failures / trials), constraint_violations, grader_errors (attempts), rejected (lines),
p95_s (attempt duration, seconds, nearest rank), cost_per_success (USD).
Rates take 0.85 or 85% (a bare number above 1 is a usage error). A figure that is
n/a, or stands on fewer tasks than --min-tasks, fails its condition.

Exit codes: 0 every condition holds, 4 a condition fails or the inputs yield no
record, 1 data error (with --strict, any rejected line), 2 usage error.`;

/** compare and gate: the commands that judge runs against each other or a bar. */
function addCompareCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  addRunsFlags(
    program
      .command("compare")
      .summary("is B better than A? paired differences per cell, tests, power")
      .description(
        "Compares candidate B with baseline A over the tasks both ran: per cell the paired difference of success shares, its 95% interval, an exact McNemar or z test, the power, whether the ranking flips between cells, and where the difference comes from.",
      )
      .argument("[inputs...]", "A B (baseline, candidate: each a file, folder or archive), or with --by the inputs holding every group")
      .addOption(new Option("--by <field>", "compare the groups of this field of one input").choices(GROUP_KEYS))
      .option("--baseline <value>", "with --by: the group every other group is compared with")
      .option(
        "--fail-if-worse <cell>",
        "exit 4 when B is significantly worse on CELL (basis/denominator): its 95% interval lies below 0; also when a side is empty or the cell pairs fewer than --min-tasks tasks",
      )
      .option("--min-tasks <n>", "with --fail-if-worse: the least paired tasks the cell must hold, else the gate fails (default 2: fewer give no interval)"),
    COMPARE_OUTPUT,
  )
    .addHelpText("after", COMPARE_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { by?: GroupKey; baseline?: string; failIfWorse?: string; minTasks?: string }) => {
      const out = outputOf(flags, io, COMPARE_OUTPUT);
      const { DEFAULT_COMPARE_MIN_TASKS, runCompare } = await import("./commands/compare.js");
      // parsed in the session, whose chain of denominators names the cells
      const failIfWorse = flags.failIfWorse ?? null;
      if (flags.minTasks !== undefined && !failIfWorse)
        throw new UsageError("--min-tasks sets the least paired tasks of the --fail-if-worse gate; add --fail-if-worse CELL");
      const minTasks = parseMinTasks(flags.minTasks, DEFAULT_COMPARE_MIN_TASKS);
      const strict = Boolean(flags.strict);
      if (flags.baseline !== undefined && !flags.by)
        throw new UsageError("--baseline names a group of --by FIELD; with two inputs A B the first one is the baseline");
      // compare puts TEMP tables of its own in place of side views and sets a session variable: one connection
      const runs = {
        ...runsOptions(inputs, flags, io, flags.by ? "compare results/ --by agent --baseline NAME" : "compare a.jsonl b.jsonl", out),
        oneConnection: true,
      };
      let data: CompareData;
      const read = failIfWorse ? gateFailsClosed : <T>(work: () => Promise<T>) => work();
      if (flags.by) {
        const options: CompareOptions = { inputs, by: flags.by, baselineValue: flags.baseline ?? null, failIfWorse, minTasks, strict };
        const byRuns = { ...runs, by: flags.by };
        data = await read(() =>
          withProgress(io, out.notices, byRuns, () => inSession(byRuns, (session) => runCompare({ baseline: session, candidate: null }, options))),
        );
      } else {
        if (flags.db) throw new UsageError(`--db ${flags.db} holds one set of runs: compare its groups with --by FIELD --baseline VALUE`);
        if (inputs.length !== 2)
          throw new UsageError(`compare takes two inputs, baseline A and candidate B (got ${inputs.length}); or one input with --by FIELD --baseline VALUE`);
        const options: CompareOptions = { baseline: inputs[0], candidate: inputs[1], failIfWorse, minTasks, strict };
        // each input in its own session: two inputs without run ids never become one run
        data = await read(() =>
          withProgress(io, out.notices, runs, () =>
            inSession({ ...runs, inputs: [inputs[0]] }, (a) =>
              inSession({ ...runs, inputs: [inputs[1]] }, (b) => runCompare({ baseline: a, candidate: b }, options)),
            ),
          ),
        );
      }
      if (out.format === "json") {
        const { renderCompareJson } = await import("./render/compare-json.js");
        out.emit(renderCompareJson(data));
      } else if (out.format === "md") {
        const { renderCompareMarkdown } = await import("./render/compare-markdown.js");
        out.emit(renderCompareMarkdown(terminalSafe(data)));
      } else if (out.format === "html") {
        const { renderCompareHtml } = await import("./render/compare-html.js");
        out.emit(renderCompareHtml(data));
      } else {
        const { renderCompareText } = await import("./render/compare-text.js");
        out.emit(renderCompareText(terminalSafe(data), { color: out.color }));
      }
      // --strict's refusal first (exit 1); then a side that yielded no record (1, or the gate's 4)
      let code: number = strictExit(flags, data, io);
      const gateCode = failIfWorse ? ExitCode.gateFailed : ExitCode.data;
      for (const side of data.accounting) if (code === ExitCode.ok) code = emptyExit(side, io, side.inputs, flags.db, gateCode);
      const worse = data.comparisons.filter((c) => c.fail_if_worse?.worse);
      const closed = data.comparisons.filter((c) => c.fail_if_worse?.failed && !c.fail_if_worse.worse);
      if (code === ExitCode.ok && worse.length) {
        io.stderr.write(
          escapeMessage(
            `denom: --fail-if-worse ${flags.failIfWorse}: ${worse.map((c) => c.candidate.label).join(", ")} significantly worse than ${worse[0].baseline.label} (95% interval below 0)`,
          ) + "\n",
        );
        code = ExitCode.gateFailed;
      }
      if (code === ExitCode.ok && closed.length) {
        // the gate fails closed: the verdict line of each comparison it could not judge
        const { failIfWorseLine } = await import("./render/compare-words.js");
        for (const c of closed) io.stderr.write(escapeMessage(`denom: ${c.candidate.label}: ${failIfWorseLine(c)}`) + "\n");
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
      .option("--min-tasks <n>", "a condition holds only on a figure of at least N tasks (default 1)"),
    GATE_OUTPUT,
  )
    .addHelpText("after", GATE_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { min: string[]; max: string[]; minTasks?: string }) => {
      const { DEFAULT_GATE_MIN_TASKS, runGate } = await import("./commands/gate.js");
      const minTasks = parseMinTasks(flags.minTasks, DEFAULT_GATE_MIN_TASKS);
      // parsed in the session, whose chain of denominators names the cells
      const conditions = [...flags.min.map((text) => ({ text, bound: "min" as const })), ...flags.max.map((text) => ({ text, bound: "max" as const }))];
      if (!conditions.length)
        throw new UsageError("no condition given: add --min CELL=X (e.g. --min final/total=0.8) or --max METRIC=Y (e.g. --max timeout_rate=0.1)");
      const out = outputOf(flags, io, GATE_OUTPUT);
      const runs = runsOptions(inputs, flags, io, "gate runs.jsonl --min final/total=0.8", out);
      const data = await gateFailsClosed(() =>
        withProgress(io, out.notices, runs, () => inSession(runs, (session) => runGate(session, { conditions, minTasks, strict: Boolean(flags.strict) }))),
      );
      if (out.format === "json") {
        const { renderJson } = await import("./json.js");
        out.emit(renderJson(data));
      } else {
        const { renderGateText } = await import("./render/gate-text.js");
        out.emit(renderGateText(terminalSafe(data)));
      }
      // --strict's refusal is exit 1, inputs that yielded no record the gate's 4, as is a condition not met
      const code = readExit(flags, data, io, inputs, ExitCode.gateFailed);
      setExit(code === ExitCode.ok && !data.passed ? ExitCode.gateFailed : code);
    });
}

const EXPORT_EXAMPLES = `
Examples:
  $ denom export runs.jsonl -o trials.csv                      # one row per trial, and trials.csv.meta.json
  $ denom export runs.jsonl --what rates                       # the grid as CSV on stdout
  $ denom export runs.jsonl -o attempts.parquet --what attempts
  $ denom export --db runs.duckdb --what rates --json          # a JSON array on stdout
  $ denom export logs/ -o rejects.tsv --what rejects

--what, rows: trials (one per trial: first and final attempt), attempts (with the
source file), rejects (with the source file), timeouts (every timeout attempt, its
cause and the evidence).
--what, figures (every trial, or one row set per group of --by FIELD): rates (the
grid with its 95% interval), pass_at_k (pass@k and pass^k), durations (seconds,
per attempt status), efficiency (time, tokens, cost, retries), per_call (call-level
outcomes), timeout_causes. Rates are fractions (0.875), times in seconds, cost in USD,
timestamps ISO 8601 UTC.
--format csv (RFC 4180, UTF-8, header row, CRLF), tsv, parquet, json (one array) or
jsonl; without it, -o's extension names the format (csv for stdout).
FILE.meta.json beside -o FILE holds the meta block: sources with sha256,
definitions, exclusions, thresholds, tool version (none for stdout).
In CSV and TSV, text cells starting with = + - @ tab or CR get a leading apostrophe
so a spreadsheet does not run them as formulas; --raw-csv writes them as they are.`;

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
cannot reach other files, the network or extensions; only one query runs (SELECT, WITH,
FROM, VALUES, TABLE, PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW) over the stored tables
and views, as DuckDB's own parser reads it; anything else exits 2.`;

/** export, ingest and query: the commands that take the figures elsewhere. */
function addStoreCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  addRunsFlags(
    program
      .command("export")
      .summary("write trials, attempts, rates, rejects or timeouts to CSV, Parquet or JSON")
      .description(
        "Writes the rows of the views the report reads to a file or stdout (format from --format or the file's extension) and the meta block to FILE.meta.json.",
      )
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .addOption(new Option("--what <rows>", "which rows or figures (listed below)").choices(EXPORT_WHAT).default("trials"))
      .addOption(new Option("--by <field>", "the figures once per value of this field, the value in a first column").choices(GROUP_KEYS))
      .option("--excel", "CSV or TSV for a spreadsheet: a UTF-8 byte order mark first (lines end in CRLF as always)")
      .option("--raw-csv", "write CSV cells that start with = + - @ tab or CR as they are (default: a leading apostrophe)"),
    EXPORT_OUTPUT,
  )
    .addHelpText("after", EXPORT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { what: ExportWhat; by?: GroupKey; excel?: boolean; rawCsv?: boolean }) => {
      const out = outputOf(flags, io, EXPORT_OUTPUT);
      const options = {
        ...runsOptions(inputs, flags, io, "export --out trials.csv", out),
        out: flags.out ?? "-",
        outFormat: out.format as CopyFormat | null,
        what: flags.what,
        by: flags.by ?? null,
        excel: Boolean(flags.excel),
        rawCsv: Boolean(flags.rawCsv),
        stdout: io.stdout,
      };
      const { exportFormat, exportStaging, runExport } = await import("./commands/export.js");
      exportFormat(options); // a bad --out, --format or flag pair is a usage error before anything is read
      const staged = exportStaging(options);
      const data = await withProgress(io, out.notices, staged, () => inSession(staged, (session) => runExport(session, staged)));
      if (flags.rawCsv && data.format !== "csv" && data.format !== "tsv")
        out.notices.print(escapeMessage(`denom: warning: --raw-csv applies to CSV and TSV only; ${data.file} is ${data.format}`) + "\n");
      // with -o FILE, stdout says what was written; with stdout, the rows are all it carries
      // -q: a file written says nothing on stdout either
      if (data.meta_file !== null && !flags.quiet) {
        const { renderExportText } = await import("./render/store-text.js");
        io.stdout.write(renderExportText(terminalSafe(data)));
      }
      setExit(readExit(flags, data, io, inputs));
    });

  addOutputFlags(
    program
      .command("ingest")
      .summary("keep loaded runs in a DuckDB file; later commands read it with --db")
      .description("Loads run records into a DuckDB file that keeps the tables and the views. Sources already in the file (same sha256) are skipped.")
      .argument("<inputs...>", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .requiredOption("--db <file>", "the DuckDB file to add to (created when missing)")
      .option("--strict", "add nothing and exit 1 when any line is rejected or a source is broken (a truncated gzip or tar)")
      .option("--input-format <name>", "read every input as this format (denom formats lists them); default: detected per source")
      .option("--max-line-bytes <size>", MAX_LINE_HELP)
      .option("--score-key <key>", SCORE_KEY_HELP)
      .option("--success-threshold <x>", `${SUCCESS_THRESHOLD_HELP}; the figures kept in FILE are computed under it (readers pass the same flag to use them)`)
      .option("--run-per-file", "make every file (or archive member) its own run, so that records of two files are never duplicates of one run"),
    INGEST_OUTPUT,
  )
    .addHelpText("after", INGEST_EXAMPLES)
    .action(
      async (
        inputs: string[],
        flags: OutputFlags & {
          db: string;
          strict?: boolean;
          inputFormat?: string;
          maxLineBytes?: string;
          scoreKey?: string;
          successThreshold?: string;
          runPerFile?: boolean;
        },
      ) => {
        const out = outputOf(flags, io, INGEST_OUTPUT);
        checkInputs(inputs, flags, io, out);
        const options: IngestCommandOptions = {
          inputs,
          format: inputFormat(flags, out),
          maxLineBytes: parseLineLimit(flags.maxLineBytes),
          scoreKey: flags.scoreKey ?? null,
          successThreshold: parseSuccessThreshold(flags.successThreshold),
          runPerFile: Boolean(flags.runPerFile),
          db: flags.db,
          strict: Boolean(flags.strict),
          stdin: io.stdin as RunsOptions["stdin"],
          onReject: rejectPrinter(out.notices),
          onWarning: warningPrinter(out.notices),
        };
        const { runIngest } = await import("./commands/ingest.js");
        const data = await withProgress(io, out.notices, options, () => runIngest(options));
        if (out.format === "json") {
          const { renderJson } = await import("./json.js");
          out.emit(renderJson(data));
        } else {
          const { renderIngestText } = await import("./render/store-text.js");
          out.emit(renderIngestText(terminalSafe(data)));
        }
        if (!data.committed) {
          io.stderr.write(escapeMessage(`denom: ${strictProblems(data)} and --strict is set; nothing was added to ${data.db}`) + "\n");
          setExit(ExitCode.data);
        }
      },
    );

  addOutputFlags(
    addDefinitionFlags(
      program
        .command("query")
        .summary("run read-only SQL against the tables and views of a --db file")
        .description("Runs one SQL statement against the tables and views of a file kept by denom ingest, opened read-only, and prints the rows.")
        .argument("[sql]", "one SQL statement")
        .option("--db <file>", "the DuckDB file kept by denom ingest")
        .option("--csv", "the same as --format csv")
        .option("--raw-csv", "with --format csv: cells that start with = + - @ tab or CR as they are")
        .option("--schema", "list the tables and views with their columns instead (works without --db too)"),
    ),
    QUERY_OUTPUT,
  )
    .addHelpText("after", QUERY_EXAMPLES)
    .action(async (sql: string | undefined, flags: CommonFlags & { csv?: boolean; rawCsv?: boolean; schema?: boolean }) => {
      if (flags.csv) {
        if (flags.format !== undefined && flags.format !== "csv")
          throw new UsageError(`--csv and --format ${flags.format} ask for two outputs; give one of them`);
        flags.format = "csv";
      }
      const out = outputOf(flags, io, QUERY_OUTPUT);
      if (flags.schema && sql) throw new UsageError("--schema and SQL given: --schema lists the views; drop one of them");
      if (!flags.schema && !sql) throw new UsageError(`no SQL given: e.g. denom query --db runs.duckdb "SELECT * FROM rate_grid", or --schema`);
      if (!flags.schema && !flags.db) throw new UsageError("--db FILE missing: query reads a file kept by denom ingest INPUT... --db FILE");
      if (flags.schema && out.format === "csv") throw new UsageError("--schema lists the views as a table or JSON; --format csv applies to query rows");
      const options = {
        db: flags.db,
        statusMap: parseStatusMap(flags.statusMap),
        thresholds: parseThresholds(flags),
        successThreshold: parseSuccessThreshold(flags.successThreshold),
        expectation: parseExpectation(flags),
        reruns: parseReruns(flags.rerunOf),
        stdin: io.stdin as RunsOptions["stdin"],
      };
      const query = await import("./commands/query.js");
      const { renderJson } = await import("./json.js");
      if (sql) await query.precheckStatement(sql);
      if (flags.schema) {
        const relations = await inSession({ ...options, inputs: [], views: true }, (session) => query.readSchema(session));
        const { renderSchemaText } = await import("./render/store-text.js");
        out.emit(out.format === "json" ? renderJson(relations) : renderSchemaText(terminalSafe(relations)));
      } else if (out.format === "csv") {
        out.emit(await inSession({ ...options, inputs: [], views: true }, (session) => query.runQueryCsv(session, sql!, !flags.rawCsv)));
      } else {
        const result = await inSession({ ...options, inputs: [], views: true }, (session) => query.runQuery(session, sql!));
        const { renderRowsTable, rowsAsObjects } = await import("./render/rows.js");
        out.emit(out.format === "json" ? renderJson(rowsAsObjects(result)) : renderRowsTable(terminalSafe(result), { color: out.color }));
      }
    });
}

/** What `--format` takes on each command; the first is the default (export: from the file's extension, else csv). */
const REPORT_OUTPUT: OutputSpec = { formats: ["table", "json", "md", "html"], readsInputs: true };
const TIMEOUTS_OUTPUT: OutputSpec = { formats: ["table", "json"], readsInputs: true };
const AUDIT_OUTPUT: OutputSpec = { formats: ["table", "json"], readsInputs: true };
const FORMATS_OUTPUT: OutputSpec = { formats: ["table", "json", "md"], readsInputs: false };
const INGEST_OUTPUT: OutputSpec = { formats: ["table", "json"], readsInputs: true };
const COMPARE_OUTPUT: OutputSpec = { formats: ["table", "json", "md", "html"], readsInputs: true };
const GATE_OUTPUT: OutputSpec = { formats: ["table", "json"], readsInputs: true };
const QUERY_OUTPUT: OutputSpec = { formats: ["table", "json", "csv"], readsInputs: false };
const EXPORT_OUTPUT: OutputSpec = {
  formats: ["csv", "tsv", "parquet", "json", "jsonl"],
  readsInputs: true,
  fromExtension: true,
  outHelp: "the file to write, or - for stdout (the default); its extension names the format unless --format does",
};

/** The output flags of one command. */
interface OutputSpec {
  /** what --format takes; the first is the default */
  formats: readonly string[];
  /** the command reads inputs: `--format NAME` of an input format is still read as --input-format NAME when no output has that name */
  readsInputs: boolean;
  /** the format defaults to the one -o's extension names (export) */
  fromExtension?: boolean;
  /** the help of -o/--out, when the command writes it itself */
  outHelp?: string;
}

/**
 * Adds the output flags every command shares: --format, --json, -o/--out,
 * --quiet, --no-color.
 */
function addOutputFlags(cmd: Command, spec: OutputSpec): Command {
  const json = spec.formats.includes("json") ? "the same as --format json" : "print JSON";
  return cmd
    .option(
      "--format <name>",
      `the output: ${spec.formats.join(", ")} (default ${spec.fromExtension ? `from -o's extension, else ${spec.formats[0]}` : spec.formats[0]})${spec.readsInputs ? "; the input's format is --input-format" : ""}`,
    )
    .option("--json", json)
    .option("-o, --out <file>", spec.outHelp ?? "write the output to FILE instead of stdout (- for stdout)")
    .option(
      "-q, --quiet",
      "nothing on stderr but errors: no progress line, warnings or rejected lines (the output still counts them); export -o FILE prints no summary",
    )
    .option("--no-color", "no colour or bold, even on a terminal (as NO_COLOR=1 or TERM=dumb)");
}

/** What an action needs from its output flags (outputOf). */
interface Output {
  /** the output format: one of the command's formats; null for export when neither --format nor -o's extension names one */
  format: string | null;
  /** colour and bold allowed (a TTY, no NO_COLOR, no TERM=dumb, no --no-color, not -o FILE) */
  color: boolean;
  /** stderr for warnings, rejected lines and the progress line (silent with --quiet) */
  notices: Notices;
  /** the input format's name that --format gave (its older meaning), when it named one */
  inputFormatName?: string;
  /** writes the result: to stdout, or to the file of -o (whole, through a temporary file) */
  emit(text: string): void;
}

/** `denom report`'s renderer for an output format (json, md, html, else text), its module imported on demand. */
async function reportRenderer(format: string | null, color: boolean): Promise<(data: ReportData) => string> {
  if (format === "json") {
    const { renderReportJson } = await import("./render/report-json.js");
    return (d) => renderReportJson(d);
  }
  if (format === "md") {
    const { renderReportMarkdown } = await import("./render/report-markdown.js");
    return (d) => renderReportMarkdown(terminalSafe(d));
  }
  if (format === "html") {
    const { renderReportHtml } = await import("./render/report-html.js");
    return (d) => renderReportHtml(d);
  }
  const { renderReportText } = await import("./render/report-text.js");
  return (d) => renderReportText(terminalSafe(d), { color });
}
/**
 * Reads the output flags. `--format NAME`: an output format of the command, or
 * (commands that read inputs) an input format's name, taken as --input-format
 * with a warning. Throws UsageError for a name that is neither, for a name
 * that is both, and for --json beside another --format.
 */
function outputOf(flags: OutputFlags, io: Io, spec: OutputSpec): Output {
  const notices = new Notices(io.stderr, Boolean(flags.quiet));
  let format: string | null = null;
  let inputFormatName: string | undefined;
  if (flags.format !== undefined) {
    const isOutput = spec.formats.includes(flags.format);
    const isInput = spec.readsInputs && formatNamed(flags.format) !== undefined;
    if (isOutput && isInput)
      throw new UsageError(`--format ${flags.format} names both an output and an input format; write --input-format ${flags.format} for the input`);
    if (isOutput) format = flags.format;
    else if (isInput) {
      inputFormatName = flags.format;
      notices.print(
        `denom: warning: --format ${flags.format} names an input format: read as --input-format ${flags.format} (--format names the output: ${spec.formats.join(", ")})\n`,
      );
    } else
      throw new UsageError(
        `--format ${flags.format}: no such output; use one of ${spec.formats.join(", ")}${spec.readsInputs ? " (the input's format is --input-format NAME; denom formats lists them)" : ""}`,
      );
  }
  if (flags.json) {
    if (format !== null && format !== "json") throw new UsageError(`--json and --format ${format} ask for two outputs; give one of them`);
    format = "json";
  }
  const toFile = flags.out !== undefined && flags.out !== "-";
  if (format === null && !spec.fromExtension) format = spec.formats[0];
  return {
    format,
    color: !toFile && useColor(io.stdout, io.env, flags.color !== false),
    notices,
    inputFormatName,
    emit: (text) => {
      if (!toFile) {
        io.stdout.write(text);
        return;
      }
      try {
        writeFileAtomic(flags.out!, text);
      } catch (e) {
        throw new DataError(`cannot write -o ${flags.out}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : (e as Error).message}`);
      }
    },
  };
}

function addRunsFlags(cmd: Command, spec: OutputSpec): Command {
  return addOutputFlags(
    addDefinitionFlags(
      cmd
        .option("--db <file>", "read the runs kept in FILE by denom ingest instead of inputs (reads nothing again, never writes FILE)")
        .option("--strict", "exit 1 when any line is rejected or a source is broken, a truncated gzip or tar (the output is still printed or written)")
        .option("--input-format <name>", "read every input as this format (denom formats lists them); default: detected per source")
        .option("--max-line-bytes <size>", MAX_LINE_HELP)
        .option("--score-key <key>", SCORE_KEY_HELP)
        .option("--run-per-file", "make every file (or archive member) its own run, so that records of two files are never duplicates of one run"),
    ),
    spec,
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
    throw new UsageError(
      `--max-line-bytes ${value}: at most ${MAX_LINE_BYTES} bytes (${(MAX_LINE_BYTES / 1024 ** 2).toFixed(0)} MiB), the longest string JavaScript can hold`,
    );
  return bytes;
}

const SUCCESS_THRESHOLD_HELP =
  "a trial whose status a score decides (Inspect, Harbor, tau-bench, tau2-bench, AgentCompass) is a success when its score >= X, on the scores' own scale (e.g. 7 for grades 0-10); without it each format's declared 0-1 rule decides, and a run with a score off that scale is unscored";

const SCORE_KEY_HELP = "the key of a dict-valued score (Inspect {problem: 1, subproblem: 0.4}) that decides success; without it such trials are unscored";

/** The flags that change definitions, not inputs: status aliases and classifier thresholds. */
function addDefinitionFlags(cmd: Command): Command {
  return cmd
    .option("--status-map <FROM=TO>", "read status FROM as TO (success, failure, timeout, aborted, invalid); repeatable", collect, [])
    .option("--success-threshold <x>", SUCCESS_THRESHOLD_HELP)
    .addOption(new Option("--queue-share <fraction>", "timeout is `queue` when the queue wait is at least this share of the time limit").default("0.25"))
    .addOption(new Option("--loop-min <calls>", "timeout is `loop` at this many identical consecutive tool calls").default("5"))
    .addOption(new Option("--sluggish-ratio <x>", "timeout is `sluggish` when the last third of gaps averages this many times the first third").default("2"))
    .option("--expect <file>", "task ids expected, one a line: an absent one counts in total as missing (environment)")
    .option("--expect-count <n>", "tasks expected per run: a run short of N counts the rest in total as missing")
    .option(
      "--rerun-of <RERUN=ORIGINAL>",
      "run RERUN (a run_id) re-ran trials of run ORIGINAL: its attempts are further attempts of those trials, the first try kept; repeatable. A Harbor job over only the tasks an earlier job of the same agent, model and benchmark errored on is recognised without it",
      collect,
      [],
    )
    .option("--pool", POOL_HELP);
}

const POOL_HELP =
  "one figure over every agent, model and benchmark loaded, saying what it pools; by default inputs that hold several are grouped, each group with its own figure to quote (runs that name no model are groups of their own)";

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
 * The adapter `--input-format NAME` (or, its older spelling, `--format NAME`
 * when that named no output: out.inputFormatName) names, or null for
 * detection. Throws UsageError for a name that is no format, or two different names.
 */
function inputFormat(flags: { inputFormat?: string }, out: Output): Adapter | null {
  const viaFormat = out.inputFormatName;
  if (flags.inputFormat !== undefined && viaFormat !== undefined && flags.inputFormat !== viaFormat)
    throw new UsageError(`--input-format ${flags.inputFormat} and --format ${viaFormat} name two input formats; give one of them`);
  const name = flags.inputFormat ?? viaFormat;
  if (name === undefined) return null;
  const adapter = formatNamed(name);
  if (!adapter)
    throw new UsageError(
      `--input-format ${name}: no such format; use one of ${ALL_FORMATS.map((f) => f.name).join(", ")}; denom formats lists what each reads`,
    );
  return adapter;
}

/**
 * Checks the inputs every reading command shares: stdin once, -o not one of
 * them; says on stderr how to end stdin when `-` reads from a terminal.
 * Throws UsageError.
 */
function checkInputs(inputs: string[], flags: OutputFlags & { db?: string }, io: Io, out: Output): void {
  if (inputs.filter((i) => i === "-").length > 1) throw new UsageError("- given twice: stdin can be read once");
  if (flags.out !== undefined && flags.out !== "-") {
    const target = resolve(flags.out);
    if ([...inputs, flags.db ?? ""].some((input) => input !== "-" && input !== "" && resolve(input) === target))
      throw new UsageError(`--out ${flags.out}: that is an input; name another file`);
  }
  if (inputs.includes("-") && (io.stdin as { isTTY?: boolean }).isTTY)
    out.notices.print(
      "denom: reading records from stdin, which is a terminal: paste them and end with Ctrl-D (Ctrl-Z Enter on Windows), or name a file instead\n",
    );
}

/** Turns the shared flags into typed options; throws UsageError naming the flag. */
function runsOptions(inputs: string[], flags: CommonFlags, io: Io, command: string, out: Output): RunsOptions {
  if (inputs.length === 0 && !flags.db)
    throw new UsageError(
      `no input given: name files, folders or archives, or - for stdin (e.g. denom ${command} samples/seed-100.jsonl), or --db FILE kept by denom ingest`,
    );
  if (inputs.length > 0 && flags.db)
    throw new UsageError(`--db ${flags.db} and inputs given: --db reads the stored runs only; add inputs to it with denom ingest INPUT... --db ${flags.db}`);
  const options: RunsOptions = {
    inputs,
    db: flags.db,
    statusMap: parseStatusMap(flags.statusMap),
    thresholds: parseThresholds(flags),
    successThreshold: parseSuccessThreshold(flags.successThreshold),
    expectation: parseExpectation(flags),
    reruns: parseReruns(flags.rerunOf),
    format: inputFormat(flags, out),
    runPerFile: Boolean(flags.runPerFile),
    pool: Boolean(flags.pool),
    maxLineBytes: parseLineLimit(flags.maxLineBytes),
    scoreKey: flags.scoreKey ?? null,
    stdin: io.stdin as RunsOptions["stdin"],
    onReject: rejectPrinter(out.notices),
    onWarning: warningPrinter(out.notices),
  };
  checkInputs(inputs, flags, io, out);
  return options;
}

/** Prints a warning on stderr, secrets masked (a path or an archive's message may hold one). */
function warningPrinter(notices: Notices): (text: string) => void {
  return (text) => notices.print(`denom: warning: ${escapeMessage(maskSecrets(text).text)}\n`);
}

/** Prints the first rejects as they come, then counts the rest. */
function rejectPrinter(notices: Notices): (r: RejectNotice) => void {
  let shown = 0;
  return (r) => {
    if (++shown > REJECTS_SHOWN) return;
    const where = r.location ? `${r.source} (${r.location})` : `${r.source}:${r.line}`;
    const skipped = r.kind === "document" ? "" : `the ${r.kind} was skipped, `; // a broken document says what was kept in its reason
    notices.print(escapeMessage(`denom: ${where}: ${r.reason}; ${skipped}--strict makes this fatal`) + "\n");
    if (shown === REJECTS_SHOWN) notices.print(`denom: further rejected lines are not printed; the report counts them all\n`);
  };
}

/**
 * Runs a gate's `work`: inputs that yield no record (NoRecordError) fail the
 * gate (exit 4, DenomError) rather than the reading (exit 1): nothing to judge
 * is a gate that does not pass.
 */
async function gateFailsClosed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof NoRecordError) throw new DenomError(`${e.message}; the gate fails closed (exit 4)`, ExitCode.gateFailed, { cause: e });
    throw e;
  }
}

/** Opens the session a command reads (src/ingest/runs.ts), runs it, and closes the session. */
async function inSession<T>(options: RunsOptions, work: (session: Session) => Promise<T>): Promise<T> {
  const { withRuns } = await import("./ingest/runs.js");
  return withRuns(options, work);
}

/** Reading that lasts longer than this gets a progress line (short reads stay silent). */
const PROGRESS_AFTER_MS = 2000;
/** Least time between two redraws of the progress line. */
const PROGRESS_EVERY_MS = 200;

/**
 * Shows a progress line on stderr, only when stderr is a TTY that shows escape
 * codes (not TERM=dumb) and not with --quiet, once reading has taken
 * PROGRESS_AFTER_MS: a bar (when the total is known), MB read, records and rate
 * (progressLine); then a line while the figures are computed. A warning clears
 * it first (Notices); it is cleared when the work ends, so nothing of it stays
 * on the screen or reaches a pipe.
 */
async function withProgress<T>(io: Io, notices: Notices, options: Pick<RunsOptions, "onProgress" | "onComputing">, work: () => Promise<T>): Promise<T> {
  if (!io.stderr.isTTY || notices.quiet || io.env.TERM === "dumb") return work();
  const now = io.now ?? Date.now;
  const started = now();
  let last = 0;
  let drawn = false;
  options.onProgress = (read, total, records) => {
    const t = now();
    if (t - started < PROGRESS_AFTER_MS || t - last < PROGRESS_EVERY_MS) return;
    last = t;
    drawn = true;
    notices.statusLine(progressLine({ read, total, records, seconds: (t - started) / 1000 }));
  };
  // after a long read, say that the figures are being computed (the views run in DuckDB)
  options.onComputing = () => {
    if (drawn) notices.statusLine("computing the figures");
  };
  try {
    return await work();
  } finally {
    notices.clearLine();
  }
}

/**
 * The exit code --strict asks for: 1 (data error) when any line was rejected, any
 * source broke part-way (a truncated gzip or tar, whose lost rest no line count
 * shows), or differing duplicates met from two sources (two runs taken
 * for one), all from the accounting view; else 0.
 */
function strictExit(flags: { strict?: boolean }, read: Pick<ReadCounts, "rejected" | "broken_sources" | "duplicates_across_sources">, io: Io): number {
  const across = read.duplicates_across_sources ?? 0;
  if (flags.strict && (read.rejected > 0 || read.broken_sources > 0 || across > 0)) {
    io.stderr.write(`denom: ${strictProblems(read)} and --strict is set\n`);
    return ExitCode.data;
  }
  return ExitCode.ok;
}

/**
 * The exit code of what a command read: --strict's (strictExit) first; then
 * emptyExit: inputs that yielded no record fail (nothing to report is never a
 * success); else 0.
 */
function readExit(
  flags: { strict?: boolean; db?: string },
  read: ReadCounts & { records: number },
  io: Io,
  inputs: string[],
  emptyCode: number = ExitCode.data,
): number {
  const code = strictExit(flags, read, io);
  return code === ExitCode.ok ? emptyExit(read, io, inputs, flags.db, emptyCode) : code;
}

/**
 * `emptyCode` (1; a gate's 4) when the inputs (or the --db file) yielded no
 * record, saying so on stderr with what was read; else 0.
 */
function emptyExit(read: ReadCounts & { records: number }, io: Io, inputs: string[], db: string | undefined, emptyCode: number): number {
  if (read.records > 0) return ExitCode.ok;
  const where = inputs.length ? inputs.join(", ") : `--db ${db}`;
  io.stderr.write(
    `denom: ${escapeMessage(maskSecrets(`no record in ${where} (${nothingRead(read)}): nothing to ${emptyCode === ExitCode.gateFailed ? "gate" : "report"}, exit ${emptyCode}`).text)}\n`,
  );
  return emptyCode;
}

function handleError(e: unknown, io: Io, debug: boolean): number {
  if (e instanceof CommanderError) {
    // help asked for (--help, `help CMD`) and --version are not errors (commander's exit code
    // 0); help shown because no known command was given is a usage error, like everything
    // else commander rejects
    if (e.code === "commander.version" || ((e.code === "commander.helpDisplayed" || e.code === "commander.help") && e.exitCode === 0)) return ExitCode.ok;
    return ExitCode.usage;
  }
  if (e instanceof DenomError) {
    io.stderr.write(`denom: ${escapeMessage(maskSecrets(e.message).text)}\n`);
    if (debug && e.stack) io.stderr.write(`${escapeMessage(maskSecrets(e.stack).text)}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  io.stderr.write(
    `denom: internal error: ${escapeMessage(maskSecrets(err?.message ?? String(e)).text)}${debug ? "" : " (run with --debug for a stack trace)"}\n`,
  );
  if (debug && err?.stack) io.stderr.write(`${escapeMessage(maskSecrets(err.stack).text)}\n`);
  return ExitCode.data;
}
