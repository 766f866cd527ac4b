/**
 * What every command that reads runs shares: the options that define the
 * figures (status map, classifier thresholds), and opening a database with the
 * inputs loaded and the views of queries/ in place.
 */
import type { Readable } from "node:stream";
import { Database } from "../db/database.js";
import { usableLayers } from "../db/layer-cache.js";
import { freezeLayers, loadQueries, readStoredLayers } from "../db/queries.js";
import { openStoredForReading, STORED } from "../db/stored.js";
import type { Expectation, GroupKey, Thresholds } from "../definitions.js";
import { ingestSpecs, type IngestOptions, type IngestResult } from "../ingest/ingest.js";
import { createTables } from "../ingest/loader.js";
import { expandedBytes, expandInputs, type InputSpec } from "../ingest/sources.js";

/** Options of every command that loads runs. */
export interface RunsOptions {
  /** paths, folders, archives, or `-` for stdin; empty when `db` is given */
  inputs: string[];
  /** a file kept by `denom ingest --db`: read (never written) instead of `inputs` */
  db?: string;
  /** extra status aliases, lower-cased FROM -> canonical TO */
  statusMap: Record<string, string>;
  thresholds: Thresholds;
  /** `--expect FILE` / `--expect-count N`: expected tasks missing from a run enter `total` as missing */
  expectation?: Expectation | null;
  stdin: Readable;
  onReject?: IngestOptions["onReject"];
  onWarning?: IngestOptions["onWarning"];
  onProgress?: IngestOptions["onProgress"];
  /** `--input-format NAME`: the adapter every source is read with; null or absent = detected per source */
  format?: IngestOptions["format"];
  /** told when reading is done and the figures are being computed (for a progress line) */
  onComputing?: () => void;
}

/** An open database with the runs loaded; close it when done. */
export interface LoadedRuns {
  db: Database;
  /** what this call read: all zero with `db`, which reads nothing again */
  ingest: IngestResult;
}

/**
 * Sets the session variables the views read (status map, thresholds, expected tasks,
 * and the `--by` key: `group_by` NULL means no groups, only the overall scope).
 */
export async function applyDefinitions(
  db: Database,
  options: Pick<RunsOptions, "statusMap" | "thresholds" | "expectation"> & { by?: GroupKey | null },
): Promise<void> {
  // text from the user (status names, task ids of --expect) travels as a bound parameter,
  // never inside the SQL: a quote, semicolon or newline in it cannot change the statement
  const pairs = Object.entries(options.statusMap).map(([key, value]) => ({ key, value }));
  await db.run(
    `SET VARIABLE status_map = map_from_entries(CAST(from_json($pairs, '[{"key":"VARCHAR","value":"VARCHAR"}]') AS STRUCT(key VARCHAR, value VARCHAR)[]))`,
    { pairs: JSON.stringify(pairs) },
  );
  // the thresholds and the count are numbers parsed by definitions.ts, written as numeric literals
  await db.setVariable("queue_share", String(options.thresholds.queueShare));
  await db.setVariable("loop_min", String(options.thresholds.loopMin));
  await db.setVariable("sluggish_ratio", String(options.thresholds.sluggishRatio));
  const tasks = options.expectation?.tasks;
  await db.run(`SET VARIABLE expected_tasks = CAST(from_json($tasks::VARCHAR, '["VARCHAR"]') AS VARCHAR[])`, { tasks: tasks ? JSON.stringify(tasks) : null });
  await db.setVariable("expected_count", options.expectation?.count ? String(options.expectation.count) : "NULL::BIGINT");
  await db.run("SET VARIABLE group_by = $by::VARCHAR", { by: options.by ?? null });
}

/**
 * Opens an in-memory database, loads every input and creates the views; or,
 * with `db`, attaches that file read-only and creates today's views over its
 * tables. Throws DataError when an input or the file cannot be read; inputs that
 * hold no attempt at all are no error (a warning; every rate is then n/a). Throws
 * DenomError when a query file fails.
 */
export async function loadRuns(options: RunsOptions & { by?: GroupKey | null }): Promise<LoadedRuns> {
  const specs = options.db ? [] : expandInputs(options.inputs, options.onWarning);
  const db = options.db ? await openStoredForReading(options.db) : await Database.open({ temporary: needsDisk(specs) });
  try {
    if (!options.db) await createTables(db);
    // a kept file may hold layers ingest evaluated under these very definitions
    const stored = options.db ? await usableLayers(db, STORED, options) : new Set<string>();
    await readStoredLayers(db, stored);
    await loadQueries(db);
    await applyDefinitions(db, options);
    const result = options.db ? { sources: 0, records: 0, rejected: 0, attempts: 0, broken: 0, skipped: [] } : await ingestSpecs(db, specs, options);
    if (!options.db && options.inputs.length > 0 && result.attempts === 0) {
      // an empty file, empty stdin or a log whose every line was rejected: nothing to count.
      // That is a finding, not an error (issue 7): the output says so, every rate is n/a, and
      // the accounting shows where each line went (--strict still fails on the rejects)
      options.onWarning?.(
        result.rejected > 0
          ? `no attempt could be read from ${options.inputs.join(", ")}: every record was rejected (${result.rejected}, listed above); every rate is n/a`
          : `no attempt records in ${options.inputs.join(", ")}: the input is empty or holds only blank lines; every rate is n/a`,
      );
    }
    options.onComputing?.();
    await freezeLayers(db, stored);
    return { db, ingest: result };
  } catch (e) {
    db.close();
    throw e;
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
 * one is stdin or a gzip whose size cannot be told.
 */
export function needsDisk(specs: readonly InputSpec[]): boolean {
  let bytes = 0;
  for (const s of specs) {
    if (s.kind === "stdin") return true;
    if (s.kind === "file") bytes += expandedBytes(s.path, s.size);
  }
  return bytes > IN_MEMORY_MAX_BYTES;
}
