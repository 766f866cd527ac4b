/**
 * Stored layers: `denom ingest --db FILE` evaluates the base layers of queries/
 * (FROZEN_LAYERS) once, for the default definitions, and keeps each result in
 * FILE as a table `layer_<name>`, with a one-row table `layer_key` saying what
 * they were computed under. A reading session (`report --db`, ...) whose
 * definitions give the same key reads those tables instead of recomputing the
 * chain from the attempts (src/db/queries.ts, freezeLayers).
 *
 * The definitions stay in queries/: the cache only stores their evaluation.
 * The key holds a fingerprint of the queries/*.sql text (a newer denom never
 * reads layers an older one computed), of the status map and the classifier
 * thresholds, and of the set of stored sources (by sha256), so a stale or
 * foreign cache is simply not used: the session computes as if it were absent.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_THRESHOLDS, type Expectation, type GroupKey, type Thresholds } from "../definitions.js";
import { applyDefinitions } from "../commands/runs.js";
import { sqlName, type Database } from "./database.js";
import { FROZEN_LAYERS, QUERIES_DIR, queryFiles } from "./queries.js";

/**
 * Layers whose inputs are the stored tables, the status map and the thresholds
 * only (getvariable status_map, queue_share, loop_min, sluggish_ratio, directly
 * or through the views they read): usable by any session with the stored
 * definitions, whatever its `--by` or `--expect`.
 */
export const BASE_LAYERS = ["stg_attempts", "attempt_timeout_cause", "attempt_faults", "trials"] as const;

/**
 * Layers that also read expected_tasks, expected_count and group_by
 * (30_trials.sql trial_outcomes and the views on it): stored for their
 * defaults (all NULL: no `--expect`, no `--by`), usable only by such a session.
 */
export const DEFAULT_ONLY_LAYERS = ["trial_outcomes", "rate_cells", "pass_at_k_by_task"] as const;

/**
 * Views `report` reads that are costly over millions of attempts (meta over
 * every attempt, efficiency percentiles, bootstrap intervals, per-call figures
 * over the events, the trial inventory), in dependency order. Not frozen per
 * session (FROZEN_LAYERS); stored, like DEFAULT_ONLY_LAYERS, for the default
 * definitions only: they read group_by or the expectation through
 * trial_outcomes.
 */
export const REPORT_LAYERS = [
  "trial_scopes",
  "run_summary",
  "timeout_limits",
  "retry_policy",
  "denominator_removals",
  "diagnostics",
  "figure_intervals",
  "efficiency",
  "duration_by_status",
  "call_outcomes",
  "trial_inventory",
  "inventory_runs",
  "inventory_totals",
] as const;

/** Every stored layer, in dependency order: the frozen ones (FROZEN_LAYERS order), then REPORT_LAYERS. */
export const STORED_LAYERS: readonly string[] = [
  ...FROZEN_LAYERS.filter(
    (l) => (BASE_LAYERS as readonly string[]).includes(l) || (DEFAULT_ONLY_LAYERS as readonly string[]).includes(l),
  ),
  ...REPORT_LAYERS,
];

/** The table of FILE holding layer NAME. */
export function layerTable(name: string): string {
  return `layer_${name}`;
}

/** The one-row table of FILE with the key the layers were computed under. */
export const LAYER_KEY_TABLE = "layer_key";

/** The definitions a session computes its figures under. */
export interface LayerDefinitions {
  /** `--status-map` pairs, lower-cased FROM -> canonical TO; `{}` by default */
  statusMap: Record<string, string>;
  thresholds: Thresholds;
  expectation?: Expectation | null;
  by?: GroupKey | null;
}

/** The definitions `ingest` stores layers for: no status pair, default thresholds, no `--expect`, no `--by`. */
export const DEFAULT_DEFINITIONS: LayerDefinitions = { statusMap: {}, thresholds: DEFAULT_THRESHOLDS, expectation: null, by: null };

/**
 * A hex sha256 of the queries/*.sql files (names and text, in run order), the
 * status map (pairs sorted) and the thresholds: two sessions with the same
 * fingerprint evaluate the base layers identically over the same tables.
 */
export function definitionsFingerprint(defs: Pick<LayerDefinitions, "statusMap" | "thresholds">, dir: string = QUERIES_DIR): string {
  const pairs = Object.entries(defs.statusMap).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const t = defs.thresholds;
  return createHash("sha256")
    .update(queriesDigest(dir))
    .update(JSON.stringify({ statusMap: pairs, thresholds: [t.queueShare, t.loopMin, t.sluggishRatio] }))
    .digest("hex");
}

const queriesDigests = new Map<string, string>();

/** A hex sha256 of the queries/*.sql names and text in run order; read from disk once per folder and process. */
function queriesDigest(dir: string): string {
  let digest = queriesDigests.get(dir);
  if (digest === undefined) {
    const hash = createHash("sha256");
    for (const file of queryFiles(dir)) hash.update(`${file}\0${readFileSync(join(dir, file), "utf8")}\0`);
    digest = hash.digest("hex");
    queriesDigests.set(dir, digest);
  }
  return digest;
}

/**
 * A hex sha256 of the sorted sha256s in table `sources` of `catalog` (the
 * attached file, or the open one): changes whenever a source is added. The
 * open file's catalog is named after its stem (`runs-2025`, `full`, `my runs`,
 * or a name crafted to hold SQL), so it is always quoted.
 */
async function sourcesFingerprint(db: Database, catalog: string): Promise<string> {
  const row = await db.one(`SELECT coalesce(string_agg(sha256, ',' ORDER BY sha256), '') AS list FROM ${sqlName(catalog)}.main.sources`);
  return createHash("sha256").update(String(row?.list ?? "")).digest("hex");
}

/** The names of the tables in schema main of `catalog`. */
async function tablesOf(db: Database, catalog: string): Promise<Set<string>> {
  const rows = await db.all("SELECT table_name FROM duckdb_tables() WHERE database_name = $catalog AND schema_name = 'main'", { catalog });
  return new Set(rows.map((r) => String(r.table_name)));
}

/**
 * True when the layers stored in `catalog` were computed under the default
 * definitions of today's queries/ over today's sources, with every layer table present.
 */
async function storedKeyMatches(db: Database, catalog: string): Promise<boolean> {
  const tables = await tablesOf(db, catalog);
  if (!tables.has(LAYER_KEY_TABLE) || !STORED_LAYERS.every((layer) => tables.has(layerTable(layer)))) return false;
  const key = await db.all(`SELECT definitions, sources FROM ${sqlName(catalog)}.main.${LAYER_KEY_TABLE}`);
  if (key.length !== 1) return false;
  return key[0].definitions === definitionsFingerprint(DEFAULT_DEFINITIONS) && key[0].sources === (await sourcesFingerprint(db, catalog));
}

/**
 * Called by `ingest` after its transaction: (re)computes the stored layers of
 * the open file `db` for DEFAULT_DEFINITIONS unless the stored key already
 * matches (then nothing is written; e.g. `ingest --strict` that added
 * nothing). The views of queries/ must be loaded. One transaction: the file
 * holds either the old layers and key or the new ones. Returns true when it
 * computed them. Throws what DuckDB throws (the file keeps its old layers).
 */
export async function storeLayers(db: Database): Promise<boolean> {
  const catalog = String((await db.one("SELECT current_database() AS name"))?.name);
  if (await storedKeyMatches(db, catalog)) return false;
  await applyDefinitions(db, DEFAULT_DEFINITIONS);
  await db.run("BEGIN TRANSACTION");
  try {
    await db.run(`DROP TABLE IF EXISTS ${LAYER_KEY_TABLE}`);
    for (const layer of STORED_LAYERS) {
      await db.run(`CREATE OR REPLACE TABLE ${layerTable(layer)} AS SELECT * FROM main.${layer}`);
      // later layers read this one from the table, not by recomputing the view chain
      await db.run(`CREATE OR REPLACE TEMP VIEW ${layer} AS SELECT * FROM main.${layerTable(layer)}`);
    }
    await db.run(`CREATE TABLE ${LAYER_KEY_TABLE} (definitions VARCHAR, sources VARCHAR, computed_at TIMESTAMPTZ)`);
    await db.run(`INSERT INTO ${LAYER_KEY_TABLE} VALUES ($definitions, $sources, now())`, {
      definitions: definitionsFingerprint(DEFAULT_DEFINITIONS),
      sources: await sourcesFingerprint(db, catalog),
    });
    await db.run("COMMIT");
  } catch (e) {
    await db.run("ROLLBACK");
    throw e;
  } finally {
    for (const layer of STORED_LAYERS) await db.run(`DROP VIEW IF EXISTS temp.main.${layer}`);
  }
  return true;
}

/**
 * The layers a reading session may take from the file attached as `catalog`:
 * none when the file has no stored layers or their key differs (another
 * denom's queries, other sources); BASE_LAYERS when the session's status map
 * and thresholds are the defaults; DEFAULT_ONLY_LAYERS too when it has no
 * `--expect` and no `--by`, and REPORT_LAYERS with them.
 */
export async function usableLayers(db: Database, catalog: string, defs: LayerDefinitions): Promise<Set<string>> {
  const usable = new Set<string>();
  if (definitionsFingerprint(defs) !== definitionsFingerprint(DEFAULT_DEFINITIONS)) return usable;
  if (!(await storedKeyMatches(db, catalog))) return usable;
  for (const layer of BASE_LAYERS) usable.add(layer);
  if (!defs.expectation && !defs.by) for (const layer of [...DEFAULT_ONLY_LAYERS, ...REPORT_LAYERS]) usable.add(layer);
  return usable;
}
