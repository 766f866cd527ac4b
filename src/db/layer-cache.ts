/**
 * Kept layers: `denom ingest --db FILE` evaluates every relation of queries/
 * marked `kept` (src/db/queries.ts: each view past reference/ whose header does
 * not say `Not materialized`) once, for the default definitions, and keeps each
 * result in FILE as a table `layer_<name>`, with a one-row table `layer_key`
 * saying what they were computed under. A reading session (`report --db`, ...)
 * takes from the file every kept layer whose inputs its own definitions leave
 * as they were stored (usableLayers), and computes the rest.
 *
 * The definitions stay in queries/: the file only keeps their evaluation. The
 * key holds a fingerprint of the queries/ text (a newer denom never reads
 * layers an older one computed), of the status map, the classifier
 * thresholds and the success threshold, and of the stored sources' rows, so a stale or
 * foreign cache is simply not used: the session computes as if it were absent.
 */
import { createHash } from "node:crypto";
import { DEFAULT_THRESHOLDS, type ExcludedTasks, type Expectation, type Floor, type GroupKey, type RerunPair, type Thresholds } from "../definitions.js";
import { sqlName, type Database } from "./database.js";
import { variablesRead, type Catalog } from "./queries.js";

/** The definitions a session computes its figures under. */
export interface Definitions {
  /** `--status-map` pairs, lower-cased FROM -> canonical TO; `{}` by default */
  statusMap: Record<string, string>;
  thresholds: Thresholds;
  /** `--expect FILE` / `--expect-count N`: expected tasks missing from a run enter `total` as missing */
  expectation?: Expectation | null;
  /** `--by`: every figure again per value of this field */
  by?: GroupKey | null;
  /** `--exclude-tasks FILE`: tasks known to be broken, left out of the `validated` denominator; none by default */
  excludedTasks?: ExcludedTasks | null;
  /** `--rerun-of RERUN=ORIGINAL`: runs whose attempts are further attempts of another run's trials; none by default */
  reruns?: readonly RerunPair[];
  /** `--run-per-file`: every file its own run, so no run is recognised as another's re-run (only `--rerun-of` names one) */
  runPerFile?: boolean;
  /**
   * `--pool`: one figure over every agent, model and benchmark loaded; by default
   * (false) the runs' identity groups (view run_groups) each get their own
   */
  pool?: boolean;
  /**
   * `--success-threshold X` (a number >= 0): every attempt whose status a score
   * decided is a success when its score >= X (queries: stg_score_rule); null or
   * absent: each format's declared rule, and a run off its scale unscored
   */
  successThreshold?: number | null;
  /** `--floor INPUT`: the floor's figures and tasks, read in a session of their own; none by default */
  floor?: Floor | null;
}

/** The definitions `ingest` keeps layers for: no status pair, default thresholds, no `--expect`, no `--by`, no `--success-threshold` (unless ingest is given one). */
export const DEFAULT_DEFINITIONS: Definitions = { statusMap: {}, thresholds: DEFAULT_THRESHOLDS, expectation: null, by: null, successThreshold: null };

/** The session variables of --expect / --expect-count, --by and --rerun-of: NULL (none) under the defaults. */
const EXPECT_AND_BY_VARIABLES: Record<string, (d: Definitions) => boolean> = {
  expected_tasks: (d) => Boolean(d.expectation?.tasks),
  expected_count: (d) => Boolean(d.expectation?.count),
  excluded_tasks: (d) => Boolean(d.excludedTasks),
  group_by: (d) => Boolean(d.by),
  reruns: (d) => Boolean(d.reruns?.length),
  recognise_reruns: (d) => Boolean(d.runPerFile),
  pool: (d) => Boolean(d.pool),
  floor_cells: (d) => Boolean(d.floor),
  floor_tasks: (d) => Boolean(d.floor),
};

/** The table of FILE holding layer NAME. */
export function layerTable(name: string): string {
  return `layer_${name}`;
}

/** The one-row table of FILE with the key the layers were computed under. */
export const LAYER_KEY_TABLE = "layer_key";

/**
 * A hex sha256 of the queries/ files (paths and text, in creation order), the
 * status map (pairs sorted), the thresholds and the success threshold: two
 * sessions with the same fingerprint evaluate every relation that reads neither
 * --expect nor --by identically.
 */
export function definitionsFingerprint(catalog: Catalog, defs: Pick<Definitions, "statusMap" | "thresholds" | "successThreshold">): string {
  const pairs = Object.entries(defs.statusMap).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const t = defs.thresholds;
  return createHash("sha256")
    .update(queriesDigest(catalog))
    .update(JSON.stringify({ statusMap: pairs, thresholds: [t.queueShare, t.loopMin, t.sluggishRatio], successThreshold: defs.successThreshold ?? null }))
    .digest("hex");
}

const digests = new WeakMap<Catalog, string>();

function queriesDigest(catalog: Catalog): string {
  let digest = digests.get(catalog);
  if (digest === undefined) {
    const hash = createHash("sha256");
    for (const r of catalog.relations) hash.update(`${r.path}\0${r.sql}\0`);
    digest = hash.digest("hex");
    digests.set(catalog, digest);
  }
  return digest;
}

/** The relations a writing session keeps, in creation order. */
export function keptRelations(catalog: Catalog): string[] {
  return catalog.relations.filter((r) => r.kept).map((r) => r.name);
}

/**
 * A hex sha256 of every row of table `sources` in `database` (the attached
 * file, or the open one), in source order: changes whenever a source is added,
 * and when a row is edited by hand (its line counts are what the accounting reads).
 * The open file's database is named after its stem (`runs-2025`, `full`, `my
 * runs`, or a name crafted to hold SQL), so the name is always quoted.
 */
async function sourcesFingerprint(db: Database, database: string): Promise<string> {
  const row = await db.one(`SELECT coalesce(string_agg(s::VARCHAR, chr(10) ORDER BY source_id), '') AS list FROM ${sqlName(database)}.main.sources AS s`);
  return createHash("sha256")
    .update(String(row?.list ?? ""))
    .digest("hex");
}

/** True when the layers stored in `database` were computed under `defs` (status map, thresholds, success threshold) with today's queries/ over today's sources, every layer table present. */
async function storedKeyMatches(db: Database, catalog: Catalog, database: string, defs: Definitions): Promise<boolean> {
  const rows = await db.all("SELECT table_name FROM duckdb_tables() WHERE database_name = $database AND schema_name = 'main'", { database });
  const tables = new Set(rows.map((r) => String(r.table_name)));
  if (!tables.has(LAYER_KEY_TABLE) || !keptRelations(catalog).every((name) => tables.has(layerTable(name)))) return false;
  const key = await db.all(`SELECT definitions, sources FROM ${sqlName(database)}.main.${LAYER_KEY_TABLE}`);
  if (key.length !== 1) return false;
  return key[0].definitions === definitionsFingerprint(catalog, defs) && key[0].sources === (await sourcesFingerprint(db, database));
}

async function currentDatabase(db: Database): Promise<string> {
  return String((await db.one("SELECT current_database() AS name"))?.name);
}

/** In a writing session computing under `defs`: true when the open file's layers are current for them (then nothing is stored again, e.g. `ingest --strict` that added nothing). */
export async function keptKeyMatches(db: Database, catalog: Catalog, defs: Definitions = DEFAULT_DEFINITIONS): Promise<boolean> {
  return storedKeyMatches(db, catalog, await currentDatabase(db), defs);
}

/**
 * In a writing session, before the first layer is stored: drops the key, in a
 * commit of its own (autocommit), so that the layers stored after it, committed
 * a few at a time (Session.createViews), never stand beside a key that still
 * matches. Until storeKey is committed, no reader takes any layer of the file.
 */
export async function dropKey(db: Database): Promise<void> {
  await db.run(`DROP TABLE IF EXISTS ${LAYER_KEY_TABLE}`);
}

/**
 * In a writing session, in the transaction of the last layers it stores (the
 * others committed before): writes the key they were computed under (the file
 * holds the new layers and their key, or layers without a key: dropKey).
 */
export async function storeKey(db: Database, catalog: Catalog, defs: Definitions = DEFAULT_DEFINITIONS): Promise<void> {
  await db.run(`DROP TABLE IF EXISTS ${LAYER_KEY_TABLE}`);
  await db.run(`CREATE TABLE ${LAYER_KEY_TABLE} (definitions VARCHAR, sources VARCHAR, computed_at TIMESTAMPTZ)`);
  await db.run(`INSERT INTO ${LAYER_KEY_TABLE} VALUES ($definitions, $sources, now())`, {
    definitions: definitionsFingerprint(catalog, defs),
    sources: await sourcesFingerprint(db, await currentDatabase(db)),
  });
}

/**
 * The kept layers a reading session may take from the file attached as
 * `database`: none when the file has no layers, or their key differs (another
 * denom's queries, other sources, or definitions other than the session's:
 * ingest keeps them under the defaults, or under its --success-threshold);
 * else every kept layer that reads (directly or through what it reads) no
 * variable of --expect / --expect-count / --by that the session sets.
 */
export async function usableLayers(db: Database, catalog: Catalog, database: string, defs: Definitions): Promise<Set<string>> {
  const usable = new Set<string>();
  if (!(await storedKeyMatches(db, catalog, database, defs))) return usable;
  const changed = Object.keys(EXPECT_AND_BY_VARIABLES).filter((v) => EXPECT_AND_BY_VARIABLES[v](defs));
  const seen = new Map<string, Set<string>>();
  for (const name of keptRelations(catalog)) {
    const vars = variablesRead(catalog, name, seen);
    if (!changed.some((v) => vars.has(v))) usable.add(name);
  }
  return usable;
}
