/**
 * The commander program: the commands and their flags, nothing more. What a
 * command does with its flags is src/cli/actions.ts's; the flags several
 * commands share are declared once (src/cli/flags.ts); the output flags and
 * the renderer they choose are the output layer's (src/render/output.ts).
 * `main` is the one exit path: it returns the exit code and never calls
 * `process.exit`. Command modules are imported lazily so `--help` stays fast
 * and never loads DuckDB.
 */
import { Command, Option } from "commander";
import { EXPORT_WHAT, GROUP_KEYS } from "./definitions.js";
import { ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { configureLineWorkers } from "./ingest/load/parallel.js";
import { escapeMessage } from "./render/terminal.js";
import { VERSION } from "./version.js";
import * as actions from "./cli/actions.js";
import { addDefinitionFlags, addOutputFlags, addRunsFlags, collect } from "./cli/flags.js";
import * as help from "./cli/help.js";
import { handleError } from "./cli/run.js";

export { parseLineLimit } from "./cli/flags.js";

const INPUTS = "files, folders, .gz, .tar.gz/.tgz archives, or - for stdin";

/**
 * Runs denom with `argv` (without `node` and the script) and returns the exit code.
 * Errors meant for the user print one line on stderr; a stack trace only with --debug.
 */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.ok;
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
  // every action returns its exit code; the last one run sets main's
  const run =
    <A extends unknown[]>(action: (io: Io, ...args: A) => Promise<number>) =>
    async (...args: A) => {
      exitCode = await action(io, ...args);
    };
  addReadingCommands(program, run);
  addJudgingCommands(program, run);
  addStoreCommands(program, run);
  addFormatsCommand(program, run);
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (e) {
    return handleError(e, io, argv.includes("--debug"));
  }
}

/** Wraps an action so that its exit code becomes main's. */
type Run = <A extends unknown[]>(action: (io: Io, ...args: A) => Promise<number>) => (...args: A) => Promise<void>;

/** report, timeouts and audit: the commands that read runs and say what they hold. */
function addReadingCommands(program: Command, run: Run): void {
  addRunsFlags(
    program
      .command("report")
      .summary("strict and adjusted success rates, each with its denominator")
      .description("Loads run records and prints the strict success rate beside every adjusted one, each with its denominator spelled out.")
      .argument("[inputs...]", INPUTS)
      .addOption(new Option("--by <field>", "every figure again per value of this field, side by side").choices(GROUP_KEYS))
      .option("--floor <input>", "a trivial or oracle agent's records on the same tasks: every cell shows its rate and the lift over it"),
    "report",
  )
    .addHelpText("after", help.REPORT_EXAMPLES)
    .action(run(actions.reportAction));

  addRunsFlags(
    program
      .command("timeouts")
      .summary("every timeout attempt with its cause and the evidence")
      .description(
        "Lists every timeout attempt with its cause (queue, external, loop, sluggish, unknown: the first rule that fires wins) and the evidence in words.",
      )
      .argument("[inputs...]", INPUTS)
      .option("--cause <name>", "list only this cause: queue, external, loop, sluggish or unknown"),
    "timeouts",
  )
    .addHelpText("after", help.TIMEOUTS_EXAMPLES)
    .action(run(actions.timeoutsAction));

  addRunsFlags(
    program
      .command("audit")
      .summary("find the definitions that reproduce a published success rate")
      .description(
        "Searches a family of success-rate definitions for the ones that reproduce a published figure, and says what each one counts and leaves out beside the strict figure.",
      )
      .argument("[inputs...]", INPUTS)
      .option("--claim <rate>", "a published figure: 87.5%, 0.3696 or 70/80; repeatable", collect, [])
      .option("--claims <file>", "read claims from FILE, one a line: CLAIM [LABEL]"),
    "audit",
  )
    .addHelpText("after", help.AUDIT_EXAMPLES)
    .action(run(actions.auditAction));
}

/** compare and gate: the commands that judge runs against each other or a bar. */
function addJudgingCommands(program: Command, run: Run): void {
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
      .option("--fail-if-inconclusive", "exit 4 also when the gated cell (--fail-if-worse CELL, else final/total) is inconclusive: its 95% interval spans 0")
      .option("--min-tasks <n>", "with --fail-if-worse: the least paired tasks the cell must hold, else the gate fails (default 2: fewer give no interval)")
      .option("--label <A=name,B=name>", "the names of the two sides (default: the model or agent that differs, else the file names); repeatable", collect, []),
    "compare",
  )
    .addHelpText("after", help.COMPARE_EXAMPLES)
    .action(run(actions.compareAction));

  addRunsFlags(
    program
      .command("gate")
      .summary("check a run against bars for CI: --min CELL=X --max METRIC=Y, exit 4 when one fails")
      .description("Checks the figures of a run against bars, one line per condition with the measured value; exits 4 when any condition fails.")
      .argument("[inputs...]", INPUTS)
      .option("--min <figure=x>", "the figure must be at least X (a cell basis/denominator or a metric); repeatable", collect, [])
      .option("--max <figure=y>", "the figure must be at most Y; repeatable", collect, [])
      .option("--min-tasks <n>", "a condition holds only on a figure of at least N tasks (default 1)"),
    "gate",
  )
    .addHelpText("after", help.GATE_EXAMPLES)
    .action(run(actions.gateAction));
}

/** export, ingest and query: the commands that take the figures elsewhere. */
function addStoreCommands(program: Command, run: Run): void {
  addRunsFlags(
    program
      .command("export")
      .summary("write trials, attempts, rates, rejects or timeouts to CSV, Parquet or JSON")
      .description(
        "Writes the rows of the views the report reads to a file or stdout (format from --format or the file's extension) and the meta block to FILE.meta.json.",
      )
      .argument("[inputs...]", INPUTS)
      .addOption(new Option("--what <rows>", "which rows or figures (listed below)").choices(EXPORT_WHAT).default("trials"))
      .addOption(new Option("--by <field>", "the figures once per value of this field, the value in a first column").choices(GROUP_KEYS))
      .option("--excel", "CSV or TSV for a spreadsheet: a UTF-8 byte order mark first (lines end in CRLF as always)")
      .option("--raw-csv", "write CSV cells that start with = + - @ tab or CR as they are (default: a leading apostrophe)"),
    "export",
    "the file to write, or - for stdout (the default); its extension names the format unless --format does",
  )
    .addHelpText("after", help.EXPORT_EXAMPLES)
    .action(run(actions.exportAction));

  addOutputFlags(
    program
      .command("ingest")
      .summary("keep loaded runs in a DuckDB file (--db) or a Parquet lake folder (--lake)")
      .description("Loads run records into a DuckDB file that keeps the tables and the views. Sources already in the file (same sha256) are skipped.")
      .argument("<inputs...>", INPUTS)
      .option("--db <file>", "the DuckDB file to add to (created when missing)")
      .option("--lake <dir>", "write the runs as Parquet into lake folder DIR instead (docs/lake.md; several processes may write at once)")
      .option("--strict", "add nothing and exit 1 when any line is rejected or a source is broken (a truncated gzip or tar)")
      .option("--input-format <name>", "read every input as this format (denom formats lists them); default: detected per source")
      .option("--max-line-bytes <size>", help.MAX_LINE_HELP)
      .option("--max-decoded-bytes <size>", help.MAX_DECODED_HELP)
      .option("--max-members <n>", help.MAX_MEMBERS_HELP)
      .option("--score-key <key>", help.SCORE_KEY_HELP)
      .option(
        "--success-threshold <x>",
        `${help.SUCCESS_THRESHOLD_HELP}; the figures kept in FILE are computed under it (readers pass the same flag to use them)`,
      )
      .option("--run-per-file", "make every file (or archive member) its own run, so that records of two files are never duplicates of one run"),
    "ingest",
    true,
  )
    .addHelpText("after", help.INGEST_EXAMPLES)
    .action(run(actions.ingestAction));

  addOutputFlags(
    addDefinitionFlags(
      program
        .command("query")
        .summary("run read-only SQL against the tables and views of a --db file or lake folders")
        .description(
          "Runs one SQL statement against the tables and views of a file kept by denom ingest (opened read-only) or of lake folders it wrote, and prints the rows.",
        )
        .argument("[sql]", "one SQL statement")
        .option("--db <file>", "the DuckDB file kept by denom ingest")
        .option("--lake <dir>", "a lake folder written by denom ingest --lake instead (docs/lake.md); repeatable: their union", collect, [])
        .option(
          "--lake-filter <key=value>",
          "with --lake: only the sources with a partition of this benchmark, model or run (e.g. model=gpt-4o); repeatable: values of one key are alternatives, keys all apply",
          collect,
          [],
        )
        .option("--csv", "the same as --format csv")
        .option("--raw-csv", "with --format csv: cells that start with = + - @ tab or CR as they are")
        .option("--schema", "list the tables and views with their columns instead (works without --db or --lake too)"),
    ),
    "query",
    false,
  )
    .addHelpText("after", help.QUERY_EXAMPLES)
    .action(run(actions.queryAction));
}

/** formats: the input formats denom reads (listed last in --help). */
function addFormatsCommand(program: Command, run: Run): void {
  addOutputFlags(
    program
      .command("formats")
      .summary("the input formats denom reads, with the fields each reads")
      .description("Lists every input format (adapter) with the fields it reads and the canonical fields they become. --input-format NAME forces one.")
      // the two markdown flags of earlier versions, kept as hidden aliases of --format md
      .addOption(new Option("--md").hideHelp())
      .addOption(new Option("--markdown").hideHelp())
      .argument("[names...]", "only these formats (with --format md: their sections of docs/formats.md)"),
    "formats",
    false,
  ).action(run(actions.formatsAction));
}
