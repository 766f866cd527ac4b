/**
 * The commander program: flags -> typed options -> command -> renderer.
 * `main` is the one exit path: it returns the exit code and never calls
 * `process.exit`. Command modules are imported lazily so `--help` stays fast
 * and never loads DuckDB.
 */
import { Command, CommanderError, Option } from "commander";
import type { RunsOptions } from "./commands/runs.js";
import { GROUP_KEYS, parseExpectation, parseStatusMap, parseThresholds, type GroupKey } from "./definitions.js";
import { DenomError, ExitCode, UsageError } from "./errors.js";
import type { Io } from "./io.js";
import { useColor } from "./io.js";
import type { RejectNotice } from "./ingest/ingest.js";
import { VERSION } from "./version.js";

/** Rejects printed one by one on stderr before the rest are summarised. */
const REJECTS_SHOWN = 20;

interface CommonFlags {
  json?: boolean;
  strict?: boolean;
  statusMap: string[];
  queueShare: string;
  loopMin: string;
  sluggishRatio: string;
  expect?: string;
  expectCount?: string;
}

const REPORT_EXAMPLES = `
Examples:
  $ denom report samples/seed-100.jsonl
  $ denom report logs/                       # every .jsonl/.json/.gz below logs/
  $ denom report task_logs.tar.gz --json     # archive members streamed, nothing extracted
  $ cat results.json | denom report -        # stdin
  $ denom report runs.jsonl --status-map unsuccessful=failure --strict
  $ denom report runs/ --by model             # every figure again per model, side by side
  $ denom report results.json --expect task_ids.txt   # absent tasks count as missing
  $ denom report results.json --expect-count 500

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

Exit codes: 0 ok, 1 data error (or any rejected line with --strict), 2 usage error.`;

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
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith("error:") ? `denom: ${s}` : s),
    });

  addRunsFlags(
    program
      .command("report")
      .summary("strict and adjusted success rates, each with its denominator")
      .description("Loads run records and prints the strict success rate beside every adjusted one, each with its denominator spelled out.")
      .argument("[inputs...]", "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin")
      .option("--json", "print one JSON object (DESIGN section 9) instead of tables")
      .addOption(new Option("--by <field>", "every figure again per value of this field, side by side").choices(GROUP_KEYS)),
  )
    .addHelpText("after", REPORT_EXAMPLES)
    .action(async (inputs: string[], flags: CommonFlags & { by?: GroupKey }) => {
      const options = { ...runsOptions(inputs, flags, io), by: flags.by ?? null };
      const { runReport } = await import("./commands/report.js");
      const data = await withProgress(io, options, () => runReport(options));
      if (flags.json) {
        const { renderJson } = await import("./render/json.js");
        io.stdout.write(renderJson(data));
      } else {
        const { renderReportText } = await import("./render/report-text.js");
        io.stdout.write(renderReportText(data, { color: useColor(io.stdout, io.env) }));
      }
      exitCode = strictExit(flags, data.accounting.rejected, io);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (e) {
    return handleError(e, io, debug);
  }
}

function addRunsFlags(cmd: Command): Command {
  return cmd
    .option("--strict", "exit 1 when any line is rejected (the report is still printed)")
    .option("--status-map <FROM=TO>", "read status FROM as TO (success, failure, timeout, aborted, invalid); repeatable", collect, [])
    .addOption(new Option("--queue-share <fraction>", "timeout is `queue` when the queue wait is at least this share of the time limit").default("0.25"))
    .addOption(new Option("--loop-min <calls>", "timeout is `loop` at this many identical consecutive tool calls").default("5"))
    .addOption(new Option("--sluggish-ratio <x>", "timeout is `sluggish` when the last third of gaps averages this many times the first third").default("2"))
    .option("--expect <file>", "task ids expected, one a line: an absent one counts in total as missing (environment)")
    .option("--expect-count <n>", "tasks expected per run: a run short of N counts the rest in total as missing");
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Turns the shared flags into typed options; throws UsageError naming the flag. */
function runsOptions(inputs: string[], flags: CommonFlags, io: Io): RunsOptions {
  if (inputs.length === 0) throw new UsageError("no input given: name files, folders or archives, or - for stdin (e.g. denom report samples/seed-100.jsonl)");
  return {
    inputs,
    statusMap: parseStatusMap(flags.statusMap),
    thresholds: parseThresholds(flags),
    expectation: parseExpectation(flags),
    stdin: io.stdin as RunsOptions["stdin"],
    onReject: rejectPrinter(io),
    onWarning: (text) => io.stderr.write(`denom: warning: ${text}\n`),
  };
}

/** Prints the first rejects as they come, then counts the rest. */
function rejectPrinter(io: Io): (r: RejectNotice) => void {
  let shown = 0;
  return (r) => {
    if (++shown > REJECTS_SHOWN) return;
    const where = r.location ? `${r.source} (${r.location})` : `${r.source}:${r.line}`;
    io.stderr.write(`denom: ${where}: ${r.reason}; the line was skipped, --strict makes this fatal\n`);
    if (shown === REJECTS_SHOWN) io.stderr.write(`denom: further rejected lines are not printed; the report counts them all\n`);
  };
}

/** Shows a progress line on a TTY while inputs are read, for inputs of 20 MB or more. */
async function withProgress<T>(io: Io, options: RunsOptions, work: () => Promise<T>): Promise<T> {
  if (!io.stderr.isTTY) return work();
  let last = 0;
  let drawn = false;
  options.onProgress = (read, total) => {
    const now = Date.now();
    if ((total !== null && total < 20e6) || now - last < 200) return;
    last = now;
    drawn = true;
    const mb = (read / 1e6).toFixed(0);
    const text = total ? `reading ${mb} of ${(total / 1e6).toFixed(0)} MB (${Math.floor((100 * read) / total)}%)` : `reading ${mb} MB`;
    io.stderr.write(`\r${text}\u001b[K`);
  };
  try {
    return await work();
  } finally {
    if (drawn) io.stderr.write("\r\u001b[K");
  }
}

function strictExit(flags: { strict?: boolean }, rejected: number, io: Io): number {
  if (flags.strict && rejected > 0) {
    io.stderr.write(`denom: ${rejected} line${rejected === 1 ? "" : "s"} rejected and --strict is set\n`);
    return ExitCode.data;
  }
  return ExitCode.ok;
}

function handleError(e: unknown, io: Io, debug: boolean): number {
  if (e instanceof CommanderError) {
    // help and version are not errors; everything else commander rejects is a usage error
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return ExitCode.ok;
    return ExitCode.usage;
  }
  if (e instanceof DenomError) {
    io.stderr.write(`denom: ${e.message}\n`);
    if (debug && e.stack) io.stderr.write(`${e.stack}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  io.stderr.write(`denom: internal error: ${err?.message ?? String(e)}${debug ? "" : " (run with --debug for a stack trace)"}\n`);
  if (debug && err?.stack) io.stderr.write(`${err.stack}\n`);
  return ExitCode.data;
}
