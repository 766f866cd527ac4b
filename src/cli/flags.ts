/**
 * The flags the commands share, declared once: the output flags (every
 * command), the definition flags (status aliases, classifier thresholds, the
 * expected tasks, re-runs) and the reading flags (inputs, --db, --strict, ...);
 * and their reading into the typed options the commands take. Every parse
 * error is a UsageError naming the flag.
 */
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { type Claim, parseClaim, readClaimsFile } from "../formats/claims.js";
import { parseExcludedTasks, parseExpectation, parseReruns, parseStatusMap, parseSuccessThreshold, parseThresholds } from "../definitions.js";
import { UsageError } from "../errors.js";
import { ALL_FORMATS, type Adapter, formatNamed } from "../formats/index.js";
import { parseLakeFilter } from "../db/lake.js";
import { MAX_LINE_BYTES } from "../ingest/bytes/lines.js";
import type { RejectNotice } from "../ingest/ingest.js";
import { maskSecrets } from "../ingest/records/secrets.js";
import type { RunsOptions } from "../ingest/runs.js";
import type { Io, Notices } from "../io.js";
import { type CommandName, type Output, type OutputFlags, outputFormats } from "../render/output.js";
import { escapeMessage } from "../render/terminal.js";
import { MAX_DECODED_HELP, MAX_LINE_HELP, MAX_MEMBERS_HELP, POOL_HELP, SCORE_KEY_HELP, SUCCESS_THRESHOLD_HELP } from "./help.js";
import type { ExpansionBounds } from "../ingest/bytes/bounds.js";

export type { OutputFlags };

/** The flags of every command that reads runs (addRunsFlags). */
export interface CommonFlags extends OutputFlags {
  strict?: boolean;
  db?: string;
  lakeFilter?: string[];
  statusMap: string[];
  queueShare: string;
  loopMin: string;
  sluggishRatio: string;
  expect?: string;
  expectCount?: string;
  excludeTasks?: string;
  rerunOf: string[];
  inputFormat?: string;
  runPerFile?: boolean;
  pool?: boolean;
  scoreKey?: string;
  successThreshold?: string;
  maxLineBytes?: string;
  maxDecodedBytes?: string;
  maxMembers?: string;
}

/** Rejects printed one by one on stderr before the rest are summarised. */
const REJECTS_SHOWN = 20;

/**
 * Adds the output flags every command shares: --format (the command's output
 * formats, render/output.ts), --json, -o/--out, --quiet, --no-color.
 * `readsInputs`: the help says where the input's format goes; `outHelp`: -o's
 * help when the command writes the file itself (export).
 */
export function addOutputFlags(cmd: Command, command: CommandName | "export", readsInputs: boolean, outHelp?: string): Command {
  const formats = outputFormats(command);
  const byExtension = command === "export";
  return cmd
    .option(
      "--format <name>",
      `the output: ${formats.join(", ")} (default ${byExtension ? `from -o's extension, else ${formats[0]}` : formats[0]})${readsInputs ? "; the input's format is --input-format" : ""}`,
    )
    .option("--json", formats.includes("json") ? "the same as --format json" : "print JSON")
    .option("-o, --out <file>", outHelp ?? "write the output to FILE instead of stdout (- for stdout)")
    .option(
      "-q, --quiet",
      "nothing on stderr but errors: no progress line, warnings or rejected lines (the output still counts them); export -o FILE prints no summary",
    )
    .option("--no-color", "no colour or bold, even on a terminal (as NO_COLOR=1 or TERM=dumb)");
}

/** The reading flags, the definition flags and the output flags of a command that reads runs. */
export function addRunsFlags(cmd: Command, command: CommandName | "export", outHelp?: string): Command {
  return addOutputFlags(
    addDefinitionFlags(
      cmd
        .option("--db <file>", "read the runs kept in FILE by denom ingest instead of inputs (reads nothing again, never writes FILE)")
        .option(
          "--lake-filter <key=value>",
          "with lake folders as inputs: read only the sources with a partition of this benchmark, model or run (e.g. model=gpt-4o); repeatable: values of one key are alternatives, keys all apply",
          collect,
          [],
        )
        .option("--strict", "exit 1 when any line is rejected or a source is broken, a truncated gzip or tar (the output is still printed or written)")
        .option("--input-format <name>", "read every input as this format (denom formats lists them); default: detected per source")
        .option("--max-line-bytes <size>", MAX_LINE_HELP)
        .option("--max-decoded-bytes <size>", MAX_DECODED_HELP)
        .option("--max-members <n>", MAX_MEMBERS_HELP)
        .option("--score-key <key>", SCORE_KEY_HELP)
        .option("--run-per-file", "make every file (or archive member) its own run, so that records of two files are never duplicates of one run"),
    ),
    command,
    true,
    outHelp,
  );
}

/** The flags that change definitions, not inputs: status aliases, classifier thresholds, expected tasks, re-runs, pooling. */
export function addDefinitionFlags(cmd: Command): Command {
  return cmd
    .option("--status-map <FROM=TO>", "read status FROM as TO (success, failure, timeout, aborted, invalid); repeatable", collect, [])
    .option("--success-threshold <x>", SUCCESS_THRESHOLD_HELP)
    .addOption(new Option("--queue-share <fraction>", "timeout is `queue` when the queue wait is at least this share of the time limit").default("0.25"))
    .addOption(new Option("--loop-min <calls>", "timeout is `loop` at this many identical consecutive tool calls").default("5"))
    .addOption(new Option("--sluggish-ratio <x>", "timeout is `sluggish` when the last third of gaps averages this many times the first third").default("2"))
    .option("--expect <file>", "task ids expected, one a line: an absent one counts in total as missing (environment)")
    .option("--expect-count <n>", "tasks expected per run: a run short of N counts the rest in total as missing")
    .option(
      "--exclude-tasks <file>",
      "tasks known to be broken, one `TASK_ID REASON` a line: a denominator `validated` (valid minus these tasks) joins the chain, total stays every trial",
    )
    .option(
      "--rerun-of <RERUN=ORIGINAL>",
      "run RERUN (a run_id) re-ran trials of run ORIGINAL: its attempts are further attempts of those trials, the first try kept; repeatable. In a format that declares re-run jobs (denom formats), a job over only the tasks an earlier job of the same agent, model and benchmark errored on is recognised without it",
      collect,
      [],
    )
    .option("--pool", POOL_HELP);
}

/** commander's accumulator of a repeatable flag. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * `--max-line-bytes SIZE`: bytes, or a number with KB, MB, GB (powers of 1000)
 * or KiB, MiB, GiB (powers of 1024). Undefined when absent. Throws UsageError
 * for anything else, or above MAX_LINE_BYTES (a line must fit in one string).
 */
export function parseLineLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const bytes = parseSize("--max-line-bytes", value);
  if (bytes > MAX_LINE_BYTES)
    throw new UsageError(
      `--max-line-bytes ${value}: at most ${MAX_LINE_BYTES} bytes (${(MAX_LINE_BYTES / 1024 ** 2).toFixed(0)} MiB), the longest string JavaScript can hold`,
    );
  return bytes;
}

/** A size flag's bytes: a number, with KB, MB, GB, TB or KiB, MiB, GiB, TiB. Throws UsageError naming `flag` for anything else. */
function parseSize(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(|B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i.exec(value);
  const units: Record<string, number> = { "": 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };
  const bytes = m ? Math.floor(Number(m[1]) * units[m[2].toLowerCase()]) : NaN;
  if (!Number.isFinite(bytes) || bytes < 1) throw new UsageError(`${flag} ${value}: expected a size such as 268435456, 256MiB or 300MB`);
  return bytes;
}

/**
 * `--max-decoded-bytes SIZE` and `--max-members N`: the expansion bounds they
 * set (ingest/bytes/bounds.ts; absent ones keep their default). Throws
 * UsageError for a size or count it cannot read.
 */
export function parseExpansion(flags: { maxDecodedBytes?: string; maxMembers?: string }): Partial<ExpansionBounds> {
  const out: Partial<ExpansionBounds> = {};
  if (flags.maxDecodedBytes !== undefined) out.inputBytes = parseSize("--max-decoded-bytes", flags.maxDecodedBytes);
  if (flags.maxMembers !== undefined) {
    if (!/^\s*\d+\s*$/.test(flags.maxMembers) || Number(flags.maxMembers) < 1)
      throw new UsageError(`--max-members ${flags.maxMembers}: expected a whole number of members, such as 500000`);
    out.members = Number(flags.maxMembers);
  }
  return out;
}

/** The claims of `--claim` (in order) then `--claims FILE`; throws UsageError when there is none or one is malformed. */
export function auditClaims(flags: { claim: string[]; claims?: string }): Claim[] {
  const claims = flags.claim.map((c) => parseClaim(c));
  if (flags.claims !== undefined) claims.push(...readClaimsFile(flags.claims));
  if (claims.length === 0) throw new UsageError("no claim given: add --claim 87.5% (repeatable) or --claims FILE");
  return claims;
}

/**
 * The adapter `--input-format NAME` (or, its older spelling, `--format NAME`
 * when that named no output: out.inputFormatName) names, or null for
 * detection. Throws UsageError for a name that is no format, or two different names.
 */
export function inputFormat(flags: { inputFormat?: string }, out: Pick<Output<CommandName>, "inputFormatName">): Adapter | null {
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
export function checkInputs(inputs: string[], flags: OutputFlags & { db?: string }, io: Io, notices: Notices): void {
  if (inputs.filter((i) => i === "-").length > 1) throw new UsageError("- given twice: stdin can be read once");
  if (flags.out !== undefined && flags.out !== "-") {
    const target = resolve(flags.out);
    if ([...inputs, flags.db ?? ""].some((input) => input !== "-" && input !== "" && resolve(input) === target))
      throw new UsageError(`--out ${flags.out}: that is an input; name another file`);
  }
  if (inputs.includes("-") && (io.stdin as { isTTY?: boolean }).isTTY)
    notices.print("denom: reading records from stdin, which is a terminal: paste them and end with Ctrl-D (Ctrl-Z Enter on Windows), or name a file instead\n");
}

/** The definition flags as typed options (status aliases, thresholds, expected tasks, re-runs); throws UsageError naming the flag. */
export function definitionOptions(
  flags: CommonFlags,
): Pick<RunsOptions, "statusMap" | "thresholds" | "successThreshold" | "expectation" | "excludedTasks" | "reruns"> {
  return {
    statusMap: parseStatusMap(flags.statusMap),
    thresholds: parseThresholds(flags),
    successThreshold: parseSuccessThreshold(flags.successThreshold),
    expectation: parseExpectation(flags),
    excludedTasks: parseExcludedTasks(flags.excludeTasks),
    reruns: parseReruns(flags.rerunOf),
  };
}

/**
 * Turns the shared flags into typed options; `example` is the command line a
 * "no input given" error suggests. Throws UsageError naming the flag.
 */
export function runsOptions(
  inputs: string[],
  flags: CommonFlags,
  io: Io,
  example: string,
  out: Pick<Output<CommandName>, "inputFormatName" | "notices">,
): RunsOptions {
  if (inputs.length === 0 && !flags.db)
    throw new UsageError(
      `no input given: name files, folders or archives, or - for stdin (e.g. denom ${example} samples/seed-100.jsonl), or --db FILE kept by denom ingest`,
    );
  if (inputs.length > 0 && flags.db)
    throw new UsageError(`--db ${flags.db} and inputs given: --db reads the stored runs only; add inputs to it with denom ingest INPUT... --db ${flags.db}`);
  const options: RunsOptions = {
    inputs,
    db: flags.db,
    lakeFilter: parseLakeFilter(flags.lakeFilter ?? []),
    ...definitionOptions(flags),
    format: inputFormat(flags, out),
    runPerFile: Boolean(flags.runPerFile),
    pool: Boolean(flags.pool),
    maxLineBytes: parseLineLimit(flags.maxLineBytes),
    expansion: parseExpansion(flags),
    scoreKey: flags.scoreKey ?? null,
    stdin: io.stdin as RunsOptions["stdin"],
    onReject: rejectPrinter(out.notices),
    onWarning: warningPrinter(out.notices),
  };
  checkInputs(inputs, flags, io, out.notices);
  return options;
}

/** Prints a warning on stderr, secrets masked (a path or an archive's message may hold one). */
export function warningPrinter(notices: Notices): (text: string) => void {
  return (text) => notices.print(`denom: warning: ${escapeMessage(maskSecrets(text).text)}\n`);
}

/** Prints the first rejects as they come, then counts the rest. */
export function rejectPrinter(notices: Notices): (r: RejectNotice) => void {
  let shown = 0;
  return (r) => {
    if (++shown > REJECTS_SHOWN) return;
    const where = r.location ? `${r.source} (${r.location})` : `${r.source}:${r.line}`;
    const skipped = r.kind === "document" ? "" : `the ${r.kind} was skipped, `; // a broken document says what was kept in its reason
    notices.print(escapeMessage(`denom: ${where}: ${r.reason}; ${skipped}--strict makes this fatal`) + "\n");
    if (shown === REJECTS_SHOWN) notices.print(`denom: further rejected lines are not printed; the report counts them all\n`);
  };
}
