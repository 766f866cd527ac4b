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
import { DEFAULT_DEFINITIONS, openSession } from "../db/session.js";
import { DataError } from "../errors.js";
import { ingestSpecs, type IngestResult, type SkippedSource } from "../ingest/ingest.js";
import type { RunsOptions } from "../ingest/runs.js";
import { expandInputs } from "../ingest/bytes/sources.js";
import { offScaleLine, readOffScaleRuns } from "../ingest/notices.js";

export interface IngestCommandOptions
  extends Pick<
    RunsOptions,
    "inputs" | "stdin" | "onReject" | "onWarning" | "onProgress" | "format" | "maxLineBytes" | "expansion" | "scoreKey" | "runPerFile" | "successThreshold"
  > {
  /** the database file; created when missing */
  db: string;
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
  db: string;
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
  // inputs first: a missing path or an empty folder must not leave a new empty FILE behind
  const specs = expandInputs(options.inputs, options.onWarning);
  let first = 0;
  let stored = false;
  const session = await openSession({
    write: options.db,
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
        ? `cannot write ${options.db}: no space left on device; the runs of this call were added (committed), the precomputed figures were not (report --db computes them without)`
        : `cannot write ${options.db}: no space left on device; none of the runs of this call were added`,
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
      db: options.db,
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
