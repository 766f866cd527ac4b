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
import { createLake, lakeSources, writeLake } from "../db/lake.js";
import { DEFAULT_DEFINITIONS, openSession } from "../db/session.js";
import { DataError } from "../errors.js";
import { ingestSpecs, withoutKnownFiles, type IngestResult, type SkippedSource } from "../ingest/ingest.js";
import { needsDisk, type RunsOptions } from "../ingest/runs.js";
import { expandInputs } from "../ingest/bytes/sources.js";
import { offScaleLine, readOffScaleRuns } from "../ingest/notices.js";

export interface IngestCommandOptions
  extends Pick<
    RunsOptions,
    "inputs" | "stdin" | "onReject" | "onWarning" | "onProgress" | "format" | "maxLineBytes" | "scoreKey" | "runPerFile" | "successThreshold"
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
 * layer was stored, so readers compute (Session.createViews).
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
    // a full disk: one line saying what the file holds now, never an internal error
    if (!/no space left on device/i.test((e as Error)?.message ?? "")) throw e;
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
 * own (in memory, or a temporary file for big inputs), then writes each source
 * to the lake (src/db/lake.ts writeLake), each committed on its own. A plain
 * file whose sha256 the lake holds is not read at all; any other source already
 * there (an archive member, or one another process committed meanwhile) is read
 * and not written. Nothing is written under --strict with a rejected line or a
 * broken source. Several processes may write into one DIR at once. Throws
 * DataError when an input cannot be read or the lake cannot be written.
 */
async function runLakeIngest(options: IngestCommandOptions & { lake: string }): Promise<IngestData> {
  const specs = expandInputs(options.inputs, options.onWarning);
  createLake(options.lake);
  const known = new Map(lakeSources([options.lake]).map(({ manifest: m }) => [m.sha256, m.name]));
  const skipped: SkippedSource[] = [];
  const fresh = await withoutKnownFiles(specs, known, new Set(lakeSources([options.lake]).map(({ manifest: m }) => m.bytes)), skipped);
  const session = await openSession({
    temporary: needsDisk(fresh),
    oneConnection: true,
    definitions: DEFAULT_DEFINITIONS,
    load: async (db) => {
      const result = fresh.length ? await ingestSpecs(db, fresh, { ...options, skipKnownSources: true }) : null;
      const committed = !(options.strict && result && (result.rejected > 0 || result.broken > 0));
      const wrote = committed && result ? await writeLake(db, options.lake) : { written: [], present: [] };
      return { result, committed, wrote };
    },
  });
  try {
    const { result, committed, wrote } = session.loaded;
    const written = new Set(wrote.written.map((m) => m.sha256));
    const added = committed ? (await session.select("ingest/added_sources", { first: 1 })).filter((s) => written.has(s.sha256)) : [];
    const all = lakeSources([options.lake]);
    return {
      db: options.lake,
      lake: true,
      added,
      skipped: [...skipped, ...(result?.skipped ?? []), ...wrote.present],
      rejected: committed ? added.reduce((n, s) => n + s.rejected, 0) : (result?.rejected ?? 0),
      broken_sources: result?.broken ?? 0,
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
