/**
 * Opening a session over the runs a command reads: the inputs read into a
 * fresh database, or a file kept by `denom ingest --db` attached read-only
 * (src/db/session.ts runs the steps; this module supplies the ingest step).
 */
import type { Readable } from "node:stream";
import { openSession, type Definitions, type Session, type Writable } from "../db/session.js";
import { ingestSpecs, type IngestOptions, type IngestResult } from "./ingest.js";
import { noticeLines, readNotices } from "./notices.js";
import { expandedBytes, expandInputs, type InputSpec } from "./bytes/sources.js";
import { UsageError } from "../errors.js";
import { isLake, lakeBytes, loadLakes, type LakeFilter } from "../db/lake.js";

/** Options of every command that loads runs. */
export interface RunsOptions extends Definitions {
  /** paths, folders, archives, or `-` for stdin; empty when `db` is given */
  inputs: string[];
  /** a file kept by `denom ingest --db`: read (never written) instead of `inputs` */
  db?: string;
  /** `--lake-filter KEY=VALUE`: the sources of lake inputs read (docs/lake.md); none: every source */
  lakeFilter?: LakeFilter;
  stdin: Readable;
  onReject?: IngestOptions["onReject"];
  onWarning?: IngestOptions["onWarning"];
  onProgress?: IngestOptions["onProgress"];
  /** `--input-format NAME`: the adapter every source is read with; null or absent = detected per source */
  format?: IngestOptions["format"];
  /** `--run-per-file`: every source its own run */
  runPerFile?: boolean;
  /** `--max-line-bytes N`: the longest JSONL line read; a longer one is a reject */
  maxLineBytes?: IngestOptions["maxLineBytes"];
  /** `--max-decoded-bytes`, `--max-members`: expansion bounds raised or lowered */
  expansion?: IngestOptions["expansion"];
  /** with `db`: what the locked-down session may write (an export being staged; src/db/sandbox.ts) */
  writable?: Writable;
  /** `--score-key KEY`: the key of a dict-valued score that decides success */
  scoreKey?: IngestOptions["scoreKey"];
  /** told when reading is done and the figures are being computed (for a progress line) */
  onComputing?: () => void;
  /** every relation of queries/ as a view up front (`denom query --schema`: it lists them all) */
  views?: boolean;
  /** a session with a folder of its own even when small (`denom query --lake --csv`: COPY writes there) */
  scratch?: boolean;
  /** false: the notices about the figures (identity groups, re-runs...; notices.ts) are neither read nor said, as `denom query` prints rows, not figures; other warnings are */
  figureNotices?: boolean;
  /** every relation created on the session's one connection, as TEMP objects (compare; src/db/session.ts) */
  oneConnection?: boolean;
  /** in memory, a DuckDB instance of the session's own: the session will be locked down (`denom query`; src/db/sandbox.ts) */
  ownInstance?: boolean;
  /**
   * Begins the statements the command will run (Session.prefetch, e.g. report.ts
   * prefetchReport) beside the notices': on two connections, no wait between the two
   */
  prefetch?: (session: Session<IngestResult>) => void;
}

/** What reading nothing gives: a `--db` session reads no input again. */
const NOTHING_READ: IngestResult = { sources: 0, records: 0, rejected: 0, attempts: 0, broken: 0, skipped: [] };

/**
 * Opens a session with every input loaded (in memory, or in a temporary file
 * for big inputs), or over the kept file `db`. Throws DataError when an input
 * or the file cannot be read; inputs that hold no record are no error here
 * (every rate is then n/a): the command's exit code says so (1, a gate's 4),
 * after its output, which shows where each line went. Throws DenomError when a
 * query file fails.
 */
export async function openRuns(options: RunsOptions): Promise<Session<IngestResult>> {
  const session = await openLoaded(options);
  try {
    if (options.reruns?.length) await checkReruns(session);
    options.prefetch?.(session);
    // what could make a figure wrong unseen is said on stderr before any figure
    if (options.onWarning && options.figureNotices !== false)
      for (const line of noticeLines(await readNotices(session), options.by ?? null, Boolean(options.pool))) options.onWarning(line);
  } catch (e) {
    session.close();
    throw e;
  }
  return session;
}

async function openLoaded(options: RunsOptions): Promise<Session<IngestResult>> {
  const definitions: Definitions = {
    statusMap: options.statusMap,
    thresholds: options.thresholds,
    expectation: options.expectation,
    excludedTasks: options.excludedTasks,
    by: options.by,
    reruns: options.reruns,
    runPerFile: options.runPerFile,
    successThreshold: options.successThreshold ?? null,
    pool: options.pool,
    floor: options.floor ?? null,
  };
  if (options.db)
    return openSession({
      read: options.db,
      writable: options.writable,
      views: options.views,
      definitions,
      load: async () => NOTHING_READ,
      onComputing: options.onComputing,
    });
  const lakes = options.inputs.filter((input) => input !== "-" && isLake(input));
  if (lakes.length) return openLakes(options, lakes, definitions);
  if (options.lakeFilter && Object.keys(options.lakeFilter).length)
    throw new UsageError("--lake-filter chooses the sources of a lake; no input is a lake folder (one holding denom-lake.json)");
  const specs = expandInputs(options.inputs, options.onWarning);
  return openSession({
    temporary: needsDisk(specs),
    views: options.views,
    oneConnection: options.oneConnection,
    ownInstance: options.ownInstance,
    definitions,
    onComputing: options.onComputing,
    load: async (db) => {
      const result = await ingestSpecs(db, specs, options);
      // records that hold no attempt (a run's metadata alone): every rate is n/a, which the
      // report shows; no record at all fails the command after its output (cli.ts)
      if (options.inputs.length > 0 && result.records > 0 && result.attempts === 0)
        options.onWarning?.(`no attempt in ${options.inputs.join(", ")}: its ${result.records} record${result.records === 1 ? "" : "s"} hold none`);
      return result;
    },
  });
}

/**
 * A session over the sources of lake folders (src/db/lake.ts loadLakes): the
 * same tables reading those sources would load, so the same figures. Throws
 * UsageError when some inputs are lakes and others not, DataError when a lake
 * is of another version or a file cannot be read.
 */
async function openLakes(options: RunsOptions, lakes: string[], definitions: Definitions): Promise<Session<IngestResult>> {
  if (lakes.length !== options.inputs.length)
    throw new UsageError(
      `${options.inputs.find((i) => !lakes.includes(i))}: not a lake folder, and ${lakes[0]} is one; read lakes alone, or ingest the other inputs into a lake first (denom ingest INPUT... --lake DIR)`,
    );
  return openSession({
    temporary: Boolean(options.scratch) || lakeBytes(lakes, options.lakeFilter) > IN_MEMORY_MAX_BYTES,
    views: options.views,
    oneConnection: options.oneConnection,
    ownInstance: options.ownInstance,
    definitions,
    onComputing: options.onComputing,
    load: async (db) => {
      // one source in two lakes is the same bytes: read once, and said
      const loaded = await loadLakes(db, lakes, options.lakeFilter, (m, first, again) =>
        options.onWarning?.(`${m.name} (sha256 ${m.sha256.slice(0, 12)}) is in lakes ${first} and ${again}: read once, from ${first}`),
      );
      if (loaded.sources === 0 && options.lakeFilter && Object.keys(options.lakeFilter).length)
        options.onWarning?.(`--lake-filter: no source of ${lakes.join(", ")} has a partition with those values`);
      return { ...loaded, skipped: [] };
    },
  });
}

/**
 * Opens a session (openRuns), hands it to `work` and closes it afterwards,
 * whatever `work` does.
 */
export async function withRuns<T>(options: RunsOptions, work: (session: Session<IngestResult>) => Promise<T>): Promise<T> {
  const session = await openRuns(options);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}

/**
 * Inputs above this many bytes in all are loaded into a temporary database
 * file with a memory limit (Database.open `temporary`), not into memory.
 */
export const IN_MEMORY_MAX_BYTES = 256e6;

/**
 * True when the inputs may hold more than IN_MEMORY_MAX_BYTES once
 * decompressed (expandedBytes: a gzip by the size its trailer records), or
 * one is stdin, a named pipe or a gzip whose size cannot be told.
 */
export function needsDisk(specs: readonly InputSpec[]): boolean {
  return inputBytes(specs) > IN_MEMORY_MAX_BYTES;
}

/** The inputs' bytes once decompressed (expandedBytes); Infinity with stdin or a named pipe, whose size cannot be told. */
function inputBytes(specs: readonly InputSpec[]): number {
  let bytes = 0;
  for (const s of specs) {
    if (s.kind === "superseded") continue;
    if (s.kind !== "file") return Infinity;
    bytes += expandedBytes(s.path, s.size);
  }
  return bytes;
}

/**
 * Fails closed on a `--rerun-of` pair that matched no loaded runs: throws
 * UsageError naming the pairs (a run_id mistyped would leave the re-run counted
 * as trials of its own).
 */
async function checkReruns(session: Session<IngestResult>): Promise<void> {
  const { unmatched } = await session.selectOne("meta/attempt_ledger");
  if (unmatched.length)
    throw new UsageError(
      `--rerun-of ${unmatched.join(", ")}: no loaded run has that run_id with a run of the same agent and model, or the original is itself a re-run; the trial inventory (denom report) lists the run_ids`,
    );
}
