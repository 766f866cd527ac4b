/**
 * What runs around every command: its session (opened, worked, closed), the
 * progress line while it reads, and the exit codes shared by the commands
 * (--strict's refusal, inputs that yield no record, a gate that fails closed,
 * an error's code). One exit path: these return codes, nothing calls
 * process.exit.
 */
import { tmpdir } from "node:os";
import { CommanderError } from "commander";
import type { Session } from "../db/session.js";
import { DataError, DenomError, ExitCode, NoRecordError } from "../errors.js";
import type { RunsOptions } from "../ingest/runs.js";
import { maskSecrets } from "../ingest/records/secrets.js";
import type { Io, Notices } from "../io.js";
import { nothingRead, type ReadCounts, strictProblems } from "../number-format.js";
import { computingLine, progressLine } from "../render/progress.js";
import { escapeMessage } from "../render/terminal.js";

/**
 * Runs a gate's `work`: inputs that yield no record (NoRecordError) fail the
 * gate (exit 4, DenomError) rather than the reading (exit 1): nothing to judge
 * is a gate that does not pass.
 */
export async function gateFailsClosed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof NoRecordError) throw new DenomError(`${e.message}; the gate fails closed (exit 4)`, ExitCode.gateFailed, { cause: e });
    throw e;
  }
}

/** Opens the session a command reads (src/ingest/runs.ts), runs it, and closes the session. */
export async function inSession<T>(options: RunsOptions, work: (session: Session) => Promise<T>): Promise<T> {
  const { withRuns } = await import("../ingest/runs.js");
  return withRuns(options, work);
}

/** Reading that lasts longer than this gets a progress line (short reads stay silent). */
const PROGRESS_AFTER_MS = 2000;
/** Least time between two redraws of the progress line. */
const PROGRESS_EVERY_MS = 200;
/** Time between two redraws of the line shown while the figures are computed. */
const COMPUTING_EVERY_MS = 1000;

/**
 * Shows a progress line on stderr, only when stderr is a TTY that shows escape
 * codes (not TERM=dumb) and not with --quiet, once reading has taken
 * PROGRESS_AFTER_MS: a bar (when the total is known), MB read, records and rate
 * (progressLine, with an ETA); then a line while the figures are computed, with the time taken so far (computingLine). A warning clears
 * it first (Notices); it is cleared when the work ends, so nothing of it stays
 * on the screen or reaches a pipe.
 */
export async function withProgress<T>(io: Io, notices: Notices, options: Pick<RunsOptions, "onProgress" | "onComputing">, work: () => Promise<T>): Promise<T> {
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
  // after a long read, say that the figures are being computed (the views run in DuckDB), and
  // how long that has taken, redrawn each second so a long computation is never silent
  let ticking: ReturnType<typeof setInterval> | undefined;
  options.onComputing = () => {
    if (!drawn) return;
    const from = now();
    notices.statusLine(computingLine(0));
    ticking = setInterval(() => notices.statusLine(computingLine((now() - from) / 1000)), COMPUTING_EVERY_MS);
    ticking.unref();
  };
  try {
    return await work();
  } finally {
    clearInterval(ticking);
    notices.clearLine();
  }
}

/**
 * The exit code --strict asks for: 1 (data error) when any line was rejected, any
 * source broke part-way (a truncated gzip or tar, whose lost rest no line count
 * shows), or differing duplicates met from two sources (two runs taken
 * for one), all from the accounting view; else 0.
 */
export function strictExit(flags: { strict?: boolean }, read: Pick<ReadCounts, "rejected" | "broken_sources" | "duplicates_across_sources">, io: Io): number {
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
export function readExit(
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
export function emptyExit(read: ReadCounts & { records: number }, io: Io, inputs: string[], db: string | undefined, emptyCode: number): number {
  if (read.records > 0) return ExitCode.ok;
  const where = inputs.length ? inputs.join(", ") : `--db ${db}`;
  io.stderr.write(
    `denom: ${escapeMessage(maskSecrets(`no record in ${where} (${nothingRead(read)}): nothing to ${emptyCode === ExitCode.gateFailed ? "gate" : "report"}, exit ${emptyCode}`).text)}\n`,
  );
  return emptyCode;
}

/**
 * The exit code of an error that ends a command, its message on stderr (one
 * line, secrets masked, escapes shown): commander's usage errors 2 (help and
 * --version 0), a DenomError its own code, anything else an internal error, 1.
 * A stack trace only with --debug.
 */
export function handleError(e: unknown, io: Io, debug: boolean): number {
  if (e instanceof CommanderError) {
    // help asked for (--help, `help CMD`) and --version are not errors (commander's exit code
    // 0); help shown because no known command was given is a usage error, like everything
    // else commander rejects
    if (e.code === "commander.version" || ((e.code === "commander.helpDisplayed" || e.code === "commander.help") && e.exitCode === 0)) return ExitCode.ok;
    return ExitCode.usage;
  }
  const memory = outOfMemory(e);
  if (memory) {
    const code = handleError(memory, io, debug);
    if (debug) io.stderr.write(`${escapeMessage(maskSecrets(String((e as Error)?.stack ?? e)).text)}\n`);
    return code;
  }
  if (e instanceof DenomError) {
    io.stderr.write(`denom: ${escapeMessage(maskSecrets(e.message).text)}\n`);
    if (debug && e.stack) io.stderr.write(`${escapeMessage(maskSecrets(e.stack).text)}\n`);
    return e.exitCode;
  }
  const full = diskFull(e);
  if (full) return handleError(full, io, debug);
  const err = e as Error;
  io.stderr.write(
    `denom: internal error: ${escapeMessage(maskSecrets(err?.message ?? String(e)).text)}${debug ? "" : " (run with --debug for a stack trace)"}\n`,
  );
  if (debug && err?.stack) io.stderr.write(`${escapeMessage(maskSecrets(err.stack).text)}\n`);
  return ExitCode.data;
}

/** DuckDB's and Node's words for a full disk (ENOSPC), and DuckDB's own cap on its spill folder. */
const DISK_FULL = /no space left on device|\bENOSPC\b|max_temp_directory_size/i;

/** DuckDB's words when a statement needs more memory than its limit and cannot spill the rest. */
const OUT_OF_MEMORY = /Out of Memory Error:[^(\n]*(?:\(([\d.]+ \w+)\/([\d.]+ \w+) used\))?/;

/**
 * DuckDB ran out of memory (its limit: 400 MB in memory, 600 MB for a file,
 * src/db/database.ts): the DataError (exit 1) naming the query file whose
 * statement failed when there is one, and what was in use, instead of DuckDB's
 * advice to change settings denom does not let a user change; null when `e`
 * is something else. With --debug, DuckDB's own message follows.
 */
export function outOfMemory(e: unknown): DenomError | null {
  const message = String((e as Error)?.message ?? e);
  const found = OUT_OF_MEMORY.exec(message);
  if (!found) return null;
  const where = /^(queries\/\S+\.sql): /.exec(message)?.[1];
  const used = found[1] ? ` (${found[1]} of ${found[2]} in use)` : "";
  return new DataError(
    `out of memory${where ? ` in ${where}` : ""}: DuckDB needed more than its memory limit${used} and could not spill the rest to disk, so the command stopped with no figure from it; this input is bigger than that statement can take: please report it with the input's size`,
    { cause: e },
  );
}

/**
 * A full disk met outside the commands' own handling (which name a --db or -o
 * file they could not write): the DataError saying which folder is full and
 * the way out, or null when `e` is something else. The folder is the
 * temporary folder (the OS's, TMPDIR) unless the message names a file
 * elsewhere; the temporary files are removed as the process ends (src/scratch.ts).
 */
export function diskFull(e: unknown): DenomError | null {
  const message = String((e as Error)?.message ?? e);
  if (!DISK_FULL.test(message) && (e as NodeJS.ErrnoException)?.code !== "ENOSPC") return null;
  const temp = tmpdir();
  const file = /"(\/[^"]+)"/.exec(message)?.[1] ?? (e as NodeJS.ErrnoException)?.path;
  if (file && !file.startsWith(`${temp}/`))
    return new DataError(`cannot write ${file}: no space left on device; free space in its folder and run again`, { cause: e });
  return new DataError(
    `no space left on device in the temporary folder ${temp}: free space there, or point TMPDIR at a folder with room (TMPDIR=/path/with/room denom ...); the temporary files of this run are removed`,
    { cause: e },
  );
}
