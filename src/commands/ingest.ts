/**
 * `denom ingest INPUT... --db FILE`: loads runs into a DuckDB file that keeps
 * the tables and the views, so later commands (`report --db`, `export --db`,
 * `query --db`) read nothing again. Ingesting more files later adds them; a
 * source whose sha256 is already in the file is skipped and listed, never
 * counted twice. One call is one transaction: it adds all or nothing.
 * Afterwards the session keeps the evaluation of the layers for the default
 * definitions (with `--success-threshold X`, for that threshold) as
 * `layer_<name>` tables (src/db/layer-cache.ts), which `report --db` reads
 * while their key matches its own definitions; the definitions stay in queries/.
 * Unlike the other commands, ingest opens its session itself: adding the
 * inputs to FILE is the session's load step.
 */
import { createLake, lakeSources, writeLake, writeLakeSkipped } from "../db/lake.js";
import { DEFAULT_DEFINITIONS, openSession, type Database } from "../db/session.js";
import { DataError } from "../errors.js";
import { ingestSpecs, withoutKnownFiles, type IngestResult, type SkippedSource } from "../ingest/ingest.js";
import { needsDisk, type RunsOptions } from "../ingest/runs.js";
import { expandInputs, type InputSpec } from "../ingest/bytes/sources.js";
import { offScaleLine, readOffScaleRuns } from "../ingest/notices.js";

export interface IngestCommandOptions
  extends Pick<
    RunsOptions,
    "inputs" | "stdin" | "onReject" | "onWarning" | "onProgress" | "format" | "maxLineBytes" | "expansion" | "scoreKey" | "runPerFile" | "successThreshold"
  > {
  /** the database file; created when missing (one of db and lake) */
  db?: string;
  /** `--lake DIR`: the lake folder the sources are written to as Parquet; made a lake when missing */
  lake?: string;
  /** any rejected line or broken source (a truncated gzip or tar) makes the call add nothing (rolled back) */
  strict: boolean;
}

/** A source added by this call, as stored in the sources table. */
export interface AddedSource {
  name: string;
  sha256: string;
  lines: number;
  records: number;
  rejected: number;
  attempts: number;
  /** the format adapters that read its records (null when none did, or the file predates the column) */
  adapter: string | null;
}

export interface IngestData {
  /** the database file, or the lake folder (with `lake`) */
  db: string;
  /** present (true) when the runs went to a lake folder (`--lake DIR`) */
  lake?: true;
  added: AddedSource[];
  skipped: SkippedSource[];
  /** lines rejected in the added sources (each printed on stderr as it was read) */
  rejected: number;
  /** sources read that broke part-way (each warned on stderr) */
  broken_sources: number;
  /** false when --strict rolled the call back because of rejected lines or broken sources */
  committed: boolean;
  /** what the file holds afterwards, summed over its sources table (duplicates included; `report --db` has the figures) */
  database: { sources: number; records: number; attempts: number };
}

/**
 * Adds the inputs to FILE (created with its tables and views when missing; the
 * views are re-created, so the file carries today's definitions), then
 * recomputes the stored layers when the sources or denom's queries changed
 * since they were stored (storeLayers; an ingest that adds nothing leaves them).
 * Throws DataError when an input or FILE cannot be read; nothing is added then.
 * An error while storing the layers (or a kill) comes after the sources were
 * committed: they stay added, and the layers' key was dropped before the first
 * layer was stored, so readers compute (Session.createViews); a full disk or
 * DuckDB out of memory then is a DataError saying so.
 */
export async function runIngest(options: IngestCommandOptions): Promise<IngestData> {
  if (options.lake !== undefined) return runLakeIngest({ ...options, lake: options.lake });
  const file = options.db!;
  // inputs first: a missing path or an empty folder must not leave a new empty FILE behind
  const specs = expandInputs(options.inputs, options.onWarning);
  let first = 0;
  let stored = false;
  const session = await openSession({
    write: file,
    // the kept figures are computed under --success-threshold when given (their key says so)
    definitions: { ...DEFAULT_DEFINITIONS, successThreshold: options.successThreshold ?? null },
    load: async (db) => {
      first = Number((await db.one("SELECT coalesce(max(source_id), 0) + 1 AS id FROM sources"))?.id);
      await db.run("BEGIN TRANSACTION");
      let result: IngestResult;
      try {
        result = await ingestSpecs(db, specs, { ...options, skipKnownSources: true });
      } catch (e) {
        await db.run("ROLLBACK");
        throw e;
      }
      const committed = !(options.strict && (result.rejected > 0 || result.broken > 0));
      await db.run(committed ? "COMMIT" : "ROLLBACK");
      stored = committed;
      return { result, committed };
    },
  }).catch((e: unknown) => {
    // a full disk, or DuckDB out of memory once the runs were committed: one line saying
    // what the file holds now, never an internal error
    const message = (e as Error)?.message ?? "";
    if (stored && /Out of Memory Error/.test(message))
      throw new DataError(
        `out of memory storing the precomputed figures in ${file}: the runs of this call were added (committed), the precomputed figures were not (report --db computes them without)`,
        { cause: e },
      );
    if (!/no space left on device/i.test(message)) throw e;
    throw new DataError(
      stored
        ? `cannot write ${file}: no space left on device; the runs of this call were added (committed), the precomputed figures were not (report --db computes them without)`
        : `cannot write ${file}: no space left on device; none of the runs of this call were added`,
      { cause: e },
    );
  });
  const { result, committed } = session.loaded;
  try {
    const added: AddedSource[] = committed ? await session.select("ingest/added_sources", { first }) : [];
    const summary = await session.selectOne("ingest/database_totals");
    // runs scored off their format's scale are unscored in every later report: said now too
    const offScale = committed ? offScaleLine(await readOffScaleRuns(session)) : null;
    if (offScale) options.onWarning?.(offScale);
    return {
      db: file,
      added,
      skipped: result.skipped,
      rejected: result.rejected,
      broken_sources: result.broken,
      committed,
      database: summary,
    };
  } finally {
    session.close();
  }
}

/**
 * `denom ingest INPUT... --lake DIR`: reads the inputs into a session of their
 * own, one input at a time (all at once under --strict), and writes the sources
 * of each to the lake (src/db/lake.ts writeLake) before reading the next, each
 * source committed on its own. A plain file whose sha256 the lake holds is not
 * read at all; any other source already there (an archive member, one read
 * earlier in the call, one another process committed meanwhile) is read and
 * not written. Nothing is written under --strict with a rejected line or a
 * broken source. Several processes may write into one DIR at once. Throws
 * DataError when an input cannot be read or the lake cannot be written.
 */
async function runLakeIngest(options: IngestCommandOptions & { lake: string }): Promise<IngestData> {
  const specs = expandInputs(options.inputs, options.onWarning);
  createLake(options.lake);
  const stored = lakeSources([options.lake]);
  const skipped: SkippedSource[] = [];
  const known = new Map(stored.map(({ manifest: m }) => [m.sha256, m.name]));
  const fresh = await withoutKnownFiles(specs, known, new Set(stored.map(({ manifest: m }) => m.bytes)), skipped);
  // one input at a time: memory and each write bounded by the biggest input, not by all of them
  const batches = options.strict ? [fresh] : fresh.map((spec) => [spec]);
  const session = await openSession({
    temporary: batches.some((b) => needsDisk(b)),
    oneConnection: true,
    definitions: DEFAULT_DEFINITIONS,
    load: (db) => loadIntoLake(db, batches, { ...options, onProgress: progressAcross(fresh, options.onProgress) }),
  });
  try {
    const { result, committed, written, present } = session.loaded;
    const added = committed ? (await session.select("ingest/added_sources", { first: 1 })).filter((s) => written.has(s.sha256)) : [];
    const all = lakeSources([options.lake]);
    return {
      db: options.lake,
      lake: true,
      added,
      skipped: [...skipped, ...result.skipped, ...present],
      rejected: committed ? added.reduce((n, s) => n + s.rejected, 0) : result.rejected,
      broken_sources: result.broken,
      committed,
      database: {
        sources: all.length,
        records: all.reduce((n, s) => n + s.manifest.records, 0),
        attempts: all.reduce((n, s) => n + s.manifest.attempts, 0),
      },
    };
  } finally {
    session.close();
  }
}

/** The rows of a batch's sources, removed once they are in the lake (sources and skipped_files stay: later batches skip what they hold). */
const BATCH_TABLES = ["attempts", "events", "rejects", "run_metadata", "run_logs", "owed_trials", "duplicate_keys", "masked_secrets"];

/**
 * Reads each batch of inputs into `db` and writes its sources to the lake, then
 * the skipped files of all. Returns the counts of every batch, and the sha256s
 * written and the sources found already there.
 */
async function loadIntoLake(db: Database, batches: InputSpec[][], options: IngestCommandOptions & { lake: string }) {
  const result: IngestResult = { sources: 0, records: 0, rejected: 0, attempts: 0, broken: 0, skipped: [] };
  const written = new Set<string>();
  const present: SkippedSource[] = [];
  for (const batch of batches) {
    const from = Number((await db.one("SELECT coalesce(max(source_id), 0) + 1 AS id FROM sources"))?.id);
    const read = await ingestSpecs(db, batch, { ...options, skipKnownSources: true });
    for (const key of ["sources", "records", "rejected", "attempts", "broken"] as const) result[key] += read[key];
    result.skipped.push(...read.skipped);
    if (options.strict && (read.rejected > 0 || read.broken > 0)) return { result, committed: false, written, present };
    const wrote = await writeLake(db, options.lake, from);
    for (const m of wrote.written) written.add(m.sha256);
    present.push(...wrote.present);
    for (const table of BATCH_TABLES) await db.run(`DELETE FROM ${table}`);
  }
  await writeLakeSkipped(db, options.lake);
  return { result, committed: true, written, present };
}

/** onProgress over all the inputs, though each batch reads its own (bytes and records carried over from the batches before). */
function progressAcross(specs: readonly InputSpec[], onProgress: IngestCommandOptions["onProgress"]): IngestCommandOptions["onProgress"] {
  if (!onProgress) return undefined;
  const total = specs.every((s) => s.kind === "file") ? specs.reduce((n, s) => n + (s.kind === "file" ? s.size : 0), 0) : null;
  let base = { read: 0, records: 0 };
  let last = { read: 0, records: 0 };
  return (read, _total, records) => {
    // a batch starts again from 0: what the last one reached is carried
    if (read < last.read) base = { read: base.read + last.read, records: base.records + last.records };
    last = { read, records };
    onProgress(base.read + read, total, base.records + records);
  };
}
