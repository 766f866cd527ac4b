/**
 * What each command does with its flags: read them into typed options, run the
 * command (src/commands/, which returns data), hand the data to the output
 * layer (src/render/output.ts, which picks the renderer), and return the exit
 * code. One function a command; each returns its code, none exits.
 */
import { existsSync } from "node:fs";
import type { CompareData, CompareOptions } from "../commands/compare.js";
import type { IngestCommandOptions } from "../commands/ingest.js";
import type { CopyFormat } from "../db/session.js";
import { type ExportWhat, type GroupKey, parseCause, parseLabels, parseMinTasks, parseSuccessThreshold } from "../definitions.js";
import { DataError, ExitCode, NoRecordError, UsageError } from "../errors.js";
import { isLake, parseLakeFilter } from "../db/lake.js";
import type { RunsOptions } from "../ingest/runs.js";
import type { Io } from "../io.js";
import { strictProblems } from "../number-format.js";
import { outputOf } from "../render/output.js";
import { escapeMessage, terminalData, terminalSafe } from "../render/terminal.js";
import {
  auditClaims,
  type CommonFlags,
  checkInputs,
  definitionOptions,
  inputFormat,
  type OutputFlags,
  parseExpansion,
  parseLineLimit,
  rejectPrinter,
  runsOptions,
  warningPrinter,
} from "./flags.js";
import { emptyExit, gateFailsClosed, inSession, readExit, strictExit, withProgress } from "./run.js";

/** `denom report INPUT...`: the grid and every figure beside it. */
export async function reportAction(io: Io, inputs: string[], flags: CommonFlags & { by?: GroupKey; floor?: string }): Promise<number> {
  const out = outputOf(flags, io, "report", true);
  const options = { ...runsOptions(inputs, flags, io, "report", out), by: flags.by ?? null, charts: out.format === "html" };
  const { prefetchReport, readFloor, runReport } = await import("../commands/report.js");
  if (flags.floor !== undefined) {
    // the floor in a session of its own, under the same definitions, read before the run's
    const floorOptions = { ...runsOptions([flags.floor], { ...flags, db: undefined }, io, "report --floor", out), by: null, pool: true };
    options.floor = { inputs: [flags.floor], ...(await inSession(floorOptions, readFloor)) };
    // no floor is no lift: fail closed rather than print a lift over nothing
    if (options.floor.tasks.length === 0) throw new NoRecordError(`--floor ${flags.floor}: no trial in it, so there is no floor to measure a lift over`);
  }
  // the renderer loads while DuckDB computes (the main thread waits for it then)
  const writer = out.writer();
  writer.catch(() => {}); // awaited below, unless the report fails first
  const data = await withProgress(io, out.notices, options, () =>
    inSession({ ...options, prefetch: prefetchReport }, (session) => runReport(session, options)),
  );
  (await writer)(data);
  return readExit(flags, data.accounting, io, inputs);
}

/** `denom timeouts INPUT...`: every timeout attempt with its cause and evidence. */
export async function timeoutsAction(io: Io, inputs: string[], flags: CommonFlags & { cause?: string }): Promise<number> {
  const out = outputOf(flags, io, "timeouts", true);
  const cause = flags.cause === undefined ? null : parseCause(flags.cause);
  const options = { ...runsOptions(inputs, flags, io, "timeouts", out), cause };
  const { runTimeouts } = await import("../commands/timeouts.js");
  const data = await withProgress(io, out.notices, options, () => inSession(options, (session) => runTimeouts(session, options)));
  (await out.writer())(data);
  return readExit(flags, data, io, inputs);
}

/** `denom audit INPUT... --claim X`: exit 3 when a claim is not reproduced. */
export async function auditAction(io: Io, inputs: string[], flags: CommonFlags & { claim: string[]; claims?: string }): Promise<number> {
  const out = outputOf(flags, io, "audit", true);
  const claims = auditClaims(flags);
  const options = { ...runsOptions(inputs, flags, io, "audit --claim 87.5%", out), claims };
  const { runAudit } = await import("../commands/audit.js");
  const data = await withProgress(io, out.notices, options, () => inSession(options, (session) => runAudit(session, options)));
  (await out.writer())({ ...data, single: !flags.claims });
  const code = readExit(flags, data, io, inputs);
  return code === ExitCode.ok && !data.audits.every((a) => a.reproduced) ? ExitCode.notReproduced : code;
}

/** `denom formats [NAME...]`: the input formats; with --format md, the sections of docs/formats.md. */
export async function formatsAction(io: Io, names: string[], flags: OutputFlags & { md?: boolean; markdown?: boolean }): Promise<number> {
  if (flags.md || flags.markdown) {
    const alias = flags.md ? "--md" : "--markdown";
    if (flags.format !== undefined && flags.format !== "md")
      throw new UsageError(`${alias} and --format ${flags.format} ask for two outputs; give one of them`);
    flags.format = "md";
  }
  const out = outputOf(flags, io, "formats", false);
  const { runFormats } = await import("../commands/formats.js");
  const data = runFormats();
  if (out.format === "md") {
    const unknown = names.filter((n) => !data.formats.some((f) => f.name === n));
    if (unknown.length) throw new UsageError(`no input format named ${unknown.join(", ")} (denom formats lists them)`);
  }
  (await out.writer())({ ...data, names });
  return ExitCode.ok;
}

type CompareFlags = CommonFlags & {
  by?: GroupKey;
  baseline?: string;
  failIfWorse?: string;
  failIfInconclusive?: boolean;
  minTasks?: string;
  label: string[];
};

/** `denom compare A B` or `denom compare INPUT --by FIELD`: exit 4 when --fail-if-worse's cell is worse, or nothing could be judged. */
export async function compareAction(io: Io, inputs: string[], flags: CompareFlags): Promise<number> {
  const out = outputOf(flags, io, "compare", true);
  const { DEFAULT_COMPARE_MIN_TASKS } = await import("../commands/compare.js");
  // parsed in the session, whose chain of denominators names the cells; --fail-if-inconclusive alone gates the strict cell
  const failIfWorse = flags.failIfWorse ?? (flags.failIfInconclusive ? "final/total" : null);
  if (flags.minTasks !== undefined && !failIfWorse)
    throw new UsageError("--min-tasks sets the least paired tasks of the --fail-if-worse gate; add --fail-if-worse CELL");
  const labels = parseLabels(flags.label);
  if (flags.by && flags.label.length) throw new UsageError(`--label names the two inputs A and B; with --by ${flags.by} the sides are named by their values`);
  const minTasks = parseMinTasks(flags.minTasks, DEFAULT_COMPARE_MIN_TASKS);
  if (flags.baseline !== undefined && !flags.by)
    throw new UsageError("--baseline names a group of --by FIELD; with two inputs A B the first one is the baseline");
  // compare puts TEMP tables of its own in place of side views and sets a session variable: one connection
  const runs = {
    ...runsOptions(inputs, flags, io, flags.by ? "compare results/ --by agent --baseline NAME" : "compare a.jsonl b.jsonl", out),
    oneConnection: true,
  };
  const options = { failIfWorse, failIfInconclusive: Boolean(flags.failIfInconclusive), minTasks, strict: Boolean(flags.strict), labels };
  const read = failIfWorse ? gateFailsClosed : <T>(work: () => Promise<T>) => work();
  const data = await read(() => withProgress(io, out.notices, runs, () => compareRuns(inputs, flags, runs, options)));
  (await out.writer())(data);
  return compareExit(flags, data, io);
}

/** The comparison of the groups of one input (--by), or of two inputs each in its own session: two inputs without run ids never become one run. */
async function compareRuns(
  inputs: string[],
  flags: CompareFlags,
  runs: RunsOptions,
  gate: Pick<CompareOptions, "failIfWorse" | "failIfInconclusive" | "minTasks" | "strict" | "labels">,
) {
  const { runCompare } = await import("../commands/compare.js");
  if (flags.by) {
    const options: CompareOptions = { inputs, by: flags.by, baselineValue: flags.baseline ?? null, ...gate };
    const byRuns = { ...runs, by: flags.by };
    return inSession(byRuns, (session) => runCompare({ baseline: session, candidate: null }, options));
  }
  if (flags.db) throw new UsageError(`--db ${flags.db} holds one set of runs: compare its groups with --by FIELD --baseline VALUE`);
  if (inputs.length !== 2)
    throw new UsageError(`compare takes two inputs, baseline A and candidate B (got ${inputs.length}); or one input with --by FIELD --baseline VALUE`);
  const options: CompareOptions = { baseline: inputs[0], candidate: inputs[1], ...gate };
  return inSession({ ...runs, inputs: [inputs[0]] }, (a) =>
    inSession({ ...runs, inputs: [inputs[1]] }, (b) => runCompare({ baseline: a, candidate: b }, options)),
  );
}

/** compare's exit code: --strict's refusal first (1); then a side that yielded no record (1, or the gate's 4); then --fail-if-worse (4). */
async function compareExit(flags: CompareFlags, data: CompareData, io: Io): Promise<number> {
  let code: number = strictExit(flags, data, io);
  const gateCode = flags.failIfWorse || flags.failIfInconclusive ? ExitCode.gateFailed : ExitCode.data;
  for (const side of data.accounting) if (code === ExitCode.ok) code = emptyExit(side, io, side.inputs, flags.db, gateCode);
  if (code !== ExitCode.ok) return code;
  const worse = data.comparisons.filter((c) => c.fail_if_worse?.worse);
  const closed = data.comparisons.filter((c) => c.fail_if_worse?.failed && !c.fail_if_worse.worse);
  if (worse.length) {
    io.stderr.write(
      escapeMessage(
        `denom: --fail-if-worse ${flags.failIfWorse}: ${worse.map((c) => c.candidate.label).join(", ")} significantly worse than ${worse[0].baseline.label} (95% interval below 0)`,
      ) + "\n",
    );
    return ExitCode.gateFailed;
  }
  if (closed.length) {
    // the gate fails closed: the verdict line of each comparison it could not judge
    const { failIfWorseLine } = await import("../render/compare-words.js");
    for (const c of closed) io.stderr.write(escapeMessage(`denom: ${c.candidate.label}: ${failIfWorseLine(c)}`) + "\n");
    return ExitCode.gateFailed;
  }
  return ExitCode.ok;
}

/** `denom gate INPUT... --min CELL=X --max METRIC=Y`: exit 4 when a condition fails or nothing was read. */
export async function gateAction(io: Io, inputs: string[], flags: CommonFlags & { min: string[]; max: string[]; minTasks?: string }): Promise<number> {
  const { DEFAULT_GATE_MIN_TASKS, runGate } = await import("../commands/gate.js");
  const minTasks = parseMinTasks(flags.minTasks, DEFAULT_GATE_MIN_TASKS);
  // parsed in the session, whose chain of denominators names the cells
  const conditions = [...flags.min.map((text) => ({ text, bound: "min" as const })), ...flags.max.map((text) => ({ text, bound: "max" as const }))];
  if (!conditions.length)
    throw new UsageError("no condition given: add --min CELL=X (e.g. --min final/total=0.8) or --max METRIC=Y (e.g. --max timeout_rate=0.1)");
  const out = outputOf(flags, io, "gate", true);
  const runs = runsOptions(inputs, flags, io, "gate runs.jsonl --min final/total=0.8", out);
  const data = await gateFailsClosed(() =>
    withProgress(io, out.notices, runs, () => inSession(runs, (session) => runGate(session, { conditions, minTasks, strict: Boolean(flags.strict) }))),
  );
  (await out.writer())(data);
  // --strict's refusal is exit 1, inputs that yielded no record the gate's 4, as is a condition not met
  const code = readExit(flags, data, io, inputs, ExitCode.gateFailed);
  return code === ExitCode.ok && !data.passed ? ExitCode.gateFailed : code;
}

/** `denom export INPUT... -o FILE`: DuckDB writes the rows; with -o FILE (not -q) a summary on stdout. */
export async function exportAction(
  io: Io,
  inputs: string[],
  flags: CommonFlags & { what: ExportWhat; by?: GroupKey; excel?: boolean; rawCsv?: boolean },
): Promise<number> {
  const out = outputOf(flags, io, "export", true);
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
  const { exportFormat, exportStaging, runExport } = await import("../commands/export.js");
  const format = exportFormat(options); // a bad --out, --format or flag pair is a usage error before anything is read
  // rows to a terminal: CSV, TSV and JSON with their control characters shown escaped (Parquet is refused there)
  if (options.out === "-" && io.stdout.isTTY) {
    const json = format === "json" || format === "jsonl";
    options.stdout = { isTTY: true, write: (text) => io.stdout.write(typeof text === "string" ? terminalData(text, json) : text) };
  }
  const staged = exportStaging(options);
  const data = await withProgress(io, out.notices, staged, () => inSession(staged, (session) => runExport(session, staged)));
  if (flags.rawCsv && data.format !== "csv" && data.format !== "tsv")
    out.notices.print(escapeMessage(`denom: warning: --raw-csv applies to CSV and TSV only; ${data.file} is ${data.format}`) + "\n");
  // with -o FILE, stdout says what was written; with stdout, the rows are all it carries
  // -q: a file written says nothing on stdout either
  if (data.meta_file !== null && !flags.quiet) {
    const { renderExportText } = await import("../render/store-text.js");
    io.stdout.write(renderExportText(terminalSafe(data)));
  }
  return readExit(flags, data, io, inputs);
}

type IngestFlags = OutputFlags & {
  db?: string;
  lake?: string;
  strict?: boolean;
  inputFormat?: string;
  maxLineBytes?: string;
  maxDecodedBytes?: string;
  maxMembers?: string;
  scoreKey?: string;
  successThreshold?: string;
  runPerFile?: boolean;
};

/** `denom ingest INPUT... --db FILE`: adds all or nothing; with --strict and a rejected line, nothing (exit 1). */
export async function ingestAction(io: Io, inputs: string[], flags: IngestFlags): Promise<number> {
  const out = outputOf(flags, io, "ingest", true);
  if ((flags.db === undefined) === (flags.lake === undefined))
    throw new UsageError("give one of --db FILE (a DuckDB file) and --lake DIR (a folder of Parquet files) for denom ingest to write to");
  if (flags.lake !== undefined && flags.successThreshold !== undefined)
    throw new UsageError("--success-threshold applies to the figures kept in a --db file; a lake keeps none (give it to the command that reads the lake)");
  checkInputs(inputs, flags, io, out.notices);
  const options: IngestCommandOptions = {
    inputs,
    format: inputFormat(flags, out),
    maxLineBytes: parseLineLimit(flags.maxLineBytes),
    expansion: parseExpansion(flags),
    scoreKey: flags.scoreKey ?? null,
    successThreshold: parseSuccessThreshold(flags.successThreshold),
    runPerFile: Boolean(flags.runPerFile),
    db: flags.db,
    lake: flags.lake,
    strict: Boolean(flags.strict),
    stdin: io.stdin as RunsOptions["stdin"],
    onReject: rejectPrinter(out.notices),
    onWarning: warningPrinter(out.notices),
  };
  const { runIngest } = await import("../commands/ingest.js");
  const data = await withProgress(io, out.notices, options, () => runIngest(options));
  (await out.writer())(data);
  if (data.committed) return ExitCode.ok;
  io.stderr.write(escapeMessage(`denom: ${strictProblems(data)} and --strict is set; nothing was added to ${data.db}`) + "\n");
  return ExitCode.data;
}

/**
 * The lake folders of `denom query --lake DIR...`. Throws DataError for a
 * folder that does not exist, UsageError beside --db, for a path that is not a
 * lake, or for --lake-filter without --lake.
 */
function queryLakes(flags: CommonFlags & { lake?: string[] }): string[] {
  const lakes = flags.lake ?? [];
  if (lakes.length && flags.db !== undefined) throw new UsageError(`--db ${flags.db} and --lake ${lakes[0]} given: query reads one of them`);
  const missing = lakes.find((dir) => !existsSync(dir));
  if (missing !== undefined) throw new DataError(`--lake ${missing}: no such folder; write one with denom ingest INPUT... --lake ${missing}`);
  const other = lakes.find((dir) => !isLake(dir));
  if (other !== undefined)
    throw new UsageError(`--lake ${other}: not a lake folder (one holding denom-lake.json, written by denom ingest INPUT... --lake DIR)`);
  if (!lakes.length && flags.lakeFilter?.length) throw new UsageError("--lake-filter chooses the sources of a lake; give the lake with --lake DIR");
  return lakes;
}

/** `denom query --db FILE SQL` or `--lake DIR... SQL` (or --schema): one read-only statement over the stored tables and views. */
export async function queryAction(
  io: Io,
  sql: string | undefined,
  flags: CommonFlags & { csv?: boolean; rawCsv?: boolean; schema?: boolean; lake?: string[] },
): Promise<number> {
  if (flags.csv) {
    if (flags.format !== undefined && flags.format !== "csv") throw new UsageError(`--csv and --format ${flags.format} ask for two outputs; give one of them`);
    flags.format = "csv";
  }
  const out = outputOf(flags, io, "query", false);
  if (flags.schema && sql) throw new UsageError("--schema and SQL given: --schema lists the views; drop one of them");
  if (!flags.schema && !sql) throw new UsageError(`no SQL given: e.g. denom query --db runs.duckdb "SELECT * FROM rate_grid", or --schema`);
  const lakes = queryLakes(flags);
  if (!flags.schema && !flags.db && !lakes.length)
    throw new UsageError(
      "--db FILE missing: query reads a file kept by denom ingest INPUT... --db FILE, or lake folders (--lake DIR) written by denom ingest --lake",
    );
  if (flags.schema && out.format === "csv") throw new UsageError("--schema lists the views as a table or JSON; --format csv applies to query rows");
  const options = {
    db: flags.db,
    ...definitionOptions(flags),
    stdin: io.stdin as RunsOptions["stdin"],
    inputs: lakes,
    lakeFilter: parseLakeFilter(flags.lakeFilter ?? []),
    onWarning: warningPrinter(out.notices),
    figureNotices: false,
    views: Boolean(flags.schema),
    scratch: out.format === "csv",
    // TEMP relations on one connection, as a --db session makes them: views made later over them never clash
    oneConnection: true,
    // locked down before the user's SQL runs: an instance of its own
    ownInstance: true,
  };
  const query = await import("../commands/query.js");
  if (sql) await query.precheckStatement(sql);
  const write = await out.writer();
  if (flags.schema) write({ schema: await inSession(options, (session) => query.readSchema(session)) });
  else if (out.format === "csv") write({ csv: await inSession(options, (session) => query.runQueryCsv(session, sql as string, !flags.rawCsv)) });
  else write({ rows: await inSession(options, (session) => query.runQuery(session, sql as string)) });
  return ExitCode.ok;
}
