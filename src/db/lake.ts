/**
 * A lake: the loaded tables of many sources kept as Parquet files in a folder
 * (docs/lake.md), written by `denom ingest INPUT... --lake DIR` from any number
 * of processes at once and read by every command that reads runs (`denom report
 * DIR`) as if its sources had been read again.
 *
 *   DIR/denom-lake.json                                  {"format":"denom-lake","version":1}, written once
 *   DIR/_sources/<sha256>.json                           a source's manifest: its commit
 *   DIR/<table>/<sha256>.<token>.parquet                 sources, rejects, run_metadata, ... (one per source)
 *   DIR/attempts/benchmark=B/model=M/run=R/<sha256>.<token>.parquet   attempts and events, per partition
 *   DIR/_skipped/<sha256>.json, DIR/skipped_files/...    the files a call skipped (side files)
 *   DIR/_tmp/                                            files being written (never read)
 *
 * A source is in the lake once its manifest exists: the manifest is written
 * beside its data files and hard-linked into `_sources/` (link() fails when the
 * name exists, so of two writers of one source one wins, the other removes its
 * files). Data files carry the writer's random token, so no writer ever
 * replaces a file another wrote. Readers take only the files manifests name.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DataError, UsageError, duckdbMessage } from "../errors.js";
import { sqlString, type Database, type Params } from "./database.js";
import { TABLES } from "./schema.js";

/** The file that makes a folder a lake, and the version of its layout and schema this denom reads and writes. */
export const LAKE_FILE = "denom-lake.json";
export const LAKE_VERSION = 1;
const LAKE_FORMAT = "denom-lake";

const MANIFESTS = "_sources";
const SKIPPED_MANIFESTS = "_skipped";
const STAGING = "_tmp";

/** The hive partition keys of the attempts and events files, in path order. */
export const PARTITION_KEYS = ["benchmark", "model", "run"] as const;
export type PartitionKey = (typeof PARTITION_KEYS)[number];

/** Tables written one file per source (no partition); attempts and events are partitioned. */
const SOURCE_TABLES = ["sources", "rejects", "run_metadata", "run_logs", "owed_trials", "duplicate_keys", "masked_secrets"] as const;
const PARTITIONED_TABLES = ["attempts", "events"] as const;

/** One partition of a source's attempts: its benchmark (format, and category when named), model and run_id. */
export type Partition = Record<PartitionKey, string | null>;

/** What `_sources/<sha256>.json` holds: the commit of one source. */
export interface LakeManifest {
  lake_version: number;
  sha256: string;
  /** the source's name as given to the ingest that wrote it */
  name: string;
  bytes: number;
  records: number;
  rejected: number;
  attempts: number;
  /** true when the source broke part-way (a truncated gzip or tar) */
  broken: boolean;
  partitions: Partition[];
  /** the data files of each table that holds rows of the source, relative to the lake, `/`-separated */
  files: Record<string, string[]>;
}

/** `--lake-filter KEY=VALUE` pairs by key: a source is read when, for every key, one of its partitions has one of the values. */
export type LakeFilter = Partial<Record<PartitionKey, string[]>>;

/** What a lake's `denom-lake.json` says; anything else is refused. */
function versionText(): string {
  return `${JSON.stringify({ format: LAKE_FORMAT, version: LAKE_VERSION })}\n`;
}

/** True when `path` is a folder holding a lake's version file (a lake, of this denom's version or not). */
export function isLake(path: string): boolean {
  try {
    return statSync(path).isDirectory() && existsSync(join(path, LAKE_FILE));
  } catch {
    return false;
  }
}

/**
 * Checks a lake's version file. Throws DataError when it is not a lake file of
 * LAKE_VERSION (another version, or not JSON): its files are not read.
 */
export function checkLake(dir: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dir, LAKE_FILE), "utf8"));
  } catch (e) {
    throw new DataError(`${join(dir, LAKE_FILE)}: not a denom lake version file (${(e as Error).message}); nothing read`);
  }
  const p = parsed as { format?: unknown; version?: unknown };
  if (p?.format !== LAKE_FORMAT) throw new DataError(`${join(dir, LAKE_FILE)}: not a denom lake version file (no "format": "${LAKE_FORMAT}"); nothing read`);
  if (p.version !== LAKE_VERSION)
    throw new DataError(
      `${dir}: a denom lake of version ${JSON.stringify(p.version)}, and this denom reads and writes version ${LAKE_VERSION} only; use the denom that wrote it, or ingest the inputs into a new lake`,
    );
}

/**
 * Makes `dir` a lake when it is not one (the version file written to a temporary
 * name, then linked into place: created once, whoever comes first), else checks
 * its version. Throws DataError when `dir` is a file, a folder of other files
 * (not empty, no version file), or a lake of another version.
 */
export function createLake(dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new DataError(`--lake ${dir}: a file, not a folder; name a folder (created when missing)`);
  if (!existsSync(join(dir, LAKE_FILE))) {
    mkdirSync(dir, { recursive: true });
    // another writer may be making it a lake at this moment: its files are no reason to refuse
    const others = readdirSync(dir).filter((n) => n !== STAGING && n !== LAKE_FILE && !n.startsWith("_") && !KNOWN_TABLE_FOLDERS.has(n));
    if (others.length && !existsSync(join(dir, LAKE_FILE)))
      throw new DataError(`--lake ${dir}: a folder of other files (${others.slice(0, 3).join(", ")}), not a lake; name an empty or new folder`);
    mkdirSync(join(dir, STAGING), { recursive: true });
    const temporary = join(dir, STAGING, `${LAKE_FILE}.${token()}`);
    writeFileSync(temporary, versionText());
    try {
      linkSync(temporary, join(dir, LAKE_FILE));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new DataError(`cannot write ${join(dir, LAKE_FILE)}: ${(e as Error).message}`);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  checkLake(dir);
  removeStaleStaging(dir);
  removeOrphans(dir);
}

/** How old a staging entry under `_tmp/` is before a writer takes it for a dead writer's (killed mid-source) and removes it. */
export const STALE_STAGING_MS = 24 * 3600 * 1000;

/**
 * Removes what writers killed mid-source left under `_tmp/`: entries not
 * modified for STALE_STAGING_MS. No reader reads them; a live writer touches its
 * own entry while it writes a source, which takes seconds, not a day.
 */
function removeStaleStaging(dir: string): void {
  const staging = join(dir, STAGING);
  let names: string[];
  try {
    names = readdirSync(staging);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const path = join(staging, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_STAGING_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile (its writer finished, or another removed it)
    }
  }
}

/**
 * Removes data files no manifest names and not modified for STALE_STAGING_MS:
 * what a writer killed between placing a source's files and linking its
 * manifest left (Stage.commit touches each file as it places it, so a live
 * commit's files are seconds old). Manifests are read again just before the
 * removal, so files a commit meanwhile named stay. When a manifest cannot be
 * read, nothing is removed.
 */
function removeOrphans(dir: string): void {
  const named = () => new Set([...manifestsOf(dir, MANIFESTS), ...manifestsOf(dir, SKIPPED_MANIFESTS)].flatMap((m) => Object.values(m.files ?? {}).flat()));
  try {
    const before = named();
    const now = Date.now();
    const stale = dataFilesOf(dir).filter((file) => !before.has(file) && now - statSync(join(dir, ...file.split("/"))).mtimeMs > STALE_STAGING_MS);
    if (stale.length === 0) return;
    const after = named();
    for (const file of stale) if (!after.has(file)) rmSync(join(dir, ...file.split("/")), { force: true });
  } catch {
    // a manifest being unreadable, or a file gone meanwhile: leave everything as it is
  }
}

/** The data files under the table folders of lake `dir`, relative to it with `/` (as manifests name them). */
function dataFilesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, ...relative.split("/")), { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".parquet")) out.push(path);
    }
  };
  for (const table of KNOWN_TABLE_FOLDERS) if (existsSync(join(dir, table))) walk(table);
  return out;
}

/** The folders a lake holds besides `_`-named ones: its tables'. */
const KNOWN_TABLE_FOLDERS = new Set([...Object.keys(TABLES)]);

/** A fresh random name part: no two writers share one. */
function token(): string {
  return randomBytes(8).toString("hex");
}

/**
 * A partition value as a path segment's value, Hive's way so that Spark, Trino,
 * Athena, ClickHouse and DuckDB read the value back: NULL and the empty string
 * as `__HIVE_DEFAULT_PARTITION__`; every ASCII character other than a letter, a
 * digit, `-`, `_` and `.` as `%` and two upper-case hex digits (`/` is `%2F`,
 * `%` is `%25`); other characters as they are (UTF-8). A value whose escaped
 * form is over 120 bytes keeps its first 100 escaped bytes, then `~` and 16 hex
 * digits of its sha256 (a `~` never stands unescaped otherwise): every segment
 * stays a valid file name, and the file's own column holds the whole value.
 */
export function partitionValue(value: string | null): string {
  if (value === null || value === "") return "__HIVE_DEFAULT_PARTITION__";
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    out += code < 128 && !/[A-Za-z0-9._-]/.test(ch) ? `%${code.toString(16).toUpperCase().padStart(2, "0")}` : ch;
  }
  if (Buffer.byteLength(out) <= 120) return out;
  let cut = out.slice(0, 100);
  // never end inside an escape (%2F) nor split a character
  cut = cut.replace(/%[0-9A-F]?$/, "");
  while (Buffer.byteLength(cut) > 100) cut = [...cut].slice(0, -1).join("");
  return `${cut}~${createHash("sha256").update(value).digest("hex").slice(0, 16)}`;
}

/** The folder of a partition under its table: `benchmark=B/model=M/run=R`. */
export function partitionPath(p: Partition): string {
  return PARTITION_KEYS.map((k) => `${k}=${partitionValue(p[k])}`).join("/");
}

/** A source of the loaded tables, as the writer reads it from table sources. */
interface LoadedSource {
  source_id: number;
  name: string;
  sha256: string;
  bytes: number;
  records: number;
  rejected: number;
  attempts: number;
  problem: string | null;
}

/** What writeLake did with each source of the loaded tables, in source order. */
export interface LakeWrite {
  /** sources written (their manifest landed) */
  written: LakeManifest[];
  /** sources whose manifest was there already (written before, or by another process at once): nothing of them written */
  present: { name: string; sha256: string; same_as: string }[];
}

/**
 * Writes every source of the tables loaded in `db` to lake `dir` (createLake
 * first): per source, each table's rows into its files under `_tmp/`, renamed
 * into place, then its manifest linked into `_sources/` (the commit). A source
 * whose manifest exists is left as it is; losing the link to another writer
 * removes this writer's files of it. Only sources from id `from` on (a batch).
 * Throws DataError when a file cannot be written (what was committed before stays).
 */
export async function writeLake(db: Database, dir: string, from = 1, onSource?: (done: number, total: number) => void): Promise<LakeWrite> {
  const sources = (await db.all(
    "SELECT source_id, name, sha256, bytes, records, rejected, attempts, problem FROM sources WHERE source_id >= $from ORDER BY source_id",
    { from },
  )) as unknown as LoadedSource[];
  const result: LakeWrite = { written: [], present: [] };
  const mine = token();
  for (const [i, s] of sources.entries()) {
    const manifest = await writeSource(db, dir, s, mine);
    if ("same_as" in manifest) result.present.push(manifest);
    else result.written.push(manifest);
    onSource?.(i + 1, sources.length);
  }
  return result;
}

/** The committed manifest of `sha256` in `dir`, or null. */
function manifestAt(dir: string, folder: string, sha256: string): LakeManifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, folder, `${sha256}.json`), "utf8")) as LakeManifest;
  } catch {
    return null;
  }
}

/** Writes one source (writeLake): its manifest, or what stands in its place already. */
async function writeSource(db: Database, dir: string, s: LoadedSource, mine: string): Promise<LakeManifest | LakeWrite["present"][number]> {
  const there = manifestAt(dir, MANIFESTS, s.sha256);
  if (there) return { name: s.name, sha256: s.sha256, same_as: there.name };
  const stage = new Stage(dir, `${s.sha256}.${mine}`);
  try {
    const id = { id: s.source_id, sha: s.sha256 };
    for (const table of SOURCE_TABLES) {
      // the rows in their load order (rowid); the source's id gives way to its sha256
      await stage.copy(
        db,
        `SELECT $sha::VARCHAR AS source_sha256, * EXCLUDE (source_id) FROM ${table} WHERE source_id = $id ORDER BY rowid`,
        id,
        table,
        table !== "sources",
      );
    }
    const first = Number((await db.one("SELECT coalesce(min(attempt_id), 1) AS first FROM attempts WHERE source_id = $id", { id: s.source_id }))?.first);
    const partitions = (await db.all(`SELECT DISTINCT ${BENCHMARK} AS benchmark, model, run_id AS run FROM attempts WHERE source_id = $id ORDER BY ALL`, {
      id: s.source_id,
    })) as unknown as Partition[];
    for (const p of partitions) {
      const params = { id: s.source_id, sha: s.sha256, first, benchmark: p.benchmark, model: p.model, run: p.run };
      const where = `source_id = $id AND ${BENCHMARK} IS NOT DISTINCT FROM $benchmark::VARCHAR AND model IS NOT DISTINCT FROM $model::VARCHAR AND run_id IS NOT DISTINCT FROM $run::VARCHAR`;
      // attempt ids from 1 within the source: a reader numbers them on from the sources before it
      await stage.copy(
        db,
        `SELECT $sha::VARCHAR AS source_sha256, * EXCLUDE (source_id) REPLACE (attempt_id - $first + 1 AS attempt_id) FROM attempts WHERE ${where} ORDER BY rowid`,
        params,
        `attempts/${partitionPath(p)}`,
        false,
      );
      await stage.copy(
        db,
        `SELECT $sha::VARCHAR AS source_sha256, * REPLACE (attempt_id - $first + 1 AS attempt_id) FROM events
         WHERE attempt_id IN (SELECT attempt_id FROM attempts WHERE ${where}) ORDER BY rowid`,
        params,
        `events/${partitionPath(p)}`,
        true,
      );
    }
    const manifest: LakeManifest = {
      lake_version: LAKE_VERSION,
      sha256: s.sha256,
      name: s.name,
      bytes: s.bytes,
      records: s.records,
      rejected: s.rejected,
      attempts: s.attempts,
      broken: s.problem !== null,
      partitions,
      files: stage.files,
    };
    const winner = stage.commit(MANIFESTS, s.sha256, manifest);
    return winner === null ? manifest : { name: s.name, sha256: s.sha256, same_as: winner.name };
  } finally {
    stage.close();
  }
}

/** The benchmark of an attempts row as a partition: its format, and its category when the harness names one (trial_identities). */
const BENCHMARK = "(format || coalesce(' ' || category, ''))";

/**
 * Writes the files the call listed as skipped (table skipped_files: side files no
 * format reads) to lake `dir`, as one entry keyed by their rows' sha256 and
 * committed as a source is (writeLake); nothing when there are none or the lake
 * holds the same list. Throws DataError when a file cannot be written.
 */
export async function writeLakeSkipped(db: Database, dir: string): Promise<void> {
  const mine = token();
  const rows = await db.all("SELECT name, reason, top_keys FROM skipped_files ORDER BY name, reason");
  if (rows.length === 0) return;
  const key = createHash("sha256").update(JSON.stringify(rows)).digest("hex");
  if (manifestAt(dir, SKIPPED_MANIFESTS, key)) return;
  const stage = new Stage(dir, `${key}.${mine}`);
  try {
    await stage.copy(db, "SELECT name, reason, top_keys FROM skipped_files ORDER BY name, reason", {}, "skipped_files", false);
    stage.commit(SKIPPED_MANIFESTS, key, { lake_version: LAKE_VERSION, key, files: stage.files });
  } finally {
    stage.close();
  }
}

/**
 * One entry being written: its files under `_tmp/<name>/` until commit renames
 * them into their tables' folders and links the manifest into place.
 */
class Stage {
  readonly files: Record<string, string[]> = {};
  private readonly folder: string;
  private readonly staged: { temporary: string; target: string }[] = [];
  private placed: string[] = [];

  constructor(
    private readonly dir: string,
    /** `<sha256>.<token>`: the name of every data file of the entry */
    private readonly name: string,
  ) {
    this.folder = join(dir, STAGING, name);
    mkdirSync(this.folder, { recursive: true });
  }

  /**
   * Writes the rows of `select` to a file of `folder` (a table, or a table's
   * partition folder), or nothing when there are none and `skipEmpty`. The
   * path is a bound parameter.
   */
  async copy(db: Database, select: string, params: Record<string, string | number | null>, folder: string, skipEmpty: boolean): Promise<void> {
    const temporary = join(this.folder, `${this.staged.length}.parquet`);
    let rows: number;
    try {
      rows = Number((await db.one(`COPY (${select}) TO $path (FORMAT parquet)`, { ...params, path: temporary }))?.Count ?? 0);
    } catch (e) {
      throw new DataError(`cannot write ${join(this.dir, folder)}: ${duckdbMessage(e)}`, { cause: e });
    }
    if (rows === 0 && skipEmpty) return rmSync(temporary, { force: true });
    const relative = `${folder}/${this.name}.parquet`;
    this.staged.push({ temporary, target: join(this.dir, ...relative.split("/")) });
    const table = folder.split("/")[0];
    (this.files[table] ??= []).push(relative);
  }

  /**
   * Renames the data files into place, then links the manifest into
   * `<manifests>/<key>.json`. Returns null when this writer's manifest landed,
   * else the manifest that was there (its files then removed again).
   */
  commit(manifests: string, key: string, manifest: object): LakeManifest | null {
    const now = new Date();
    for (const f of this.staged) {
      mkdirSync(dirname(f.target), { recursive: true });
      // placed now: a file no manifest names is a dead writer's only once it is a day old (removeOrphans)
      utimesSync(f.temporary, now, now);
      renameSync(f.temporary, f.target);
      this.placed.push(f.target);
    }
    mkdirSync(join(this.dir, manifests), { recursive: true });
    const temporary = join(this.folder, "manifest.json");
    writeFileSync(temporary, `${JSON.stringify(manifest)}\n`);
    try {
      linkSync(temporary, join(this.dir, manifests, `${key}.json`));
      this.placed = [];
      return null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST")
        throw new DataError(`cannot write ${join(this.dir, manifests, `${key}.json`)}: ${(e as Error).message}`);
      return manifestAt(this.dir, manifests, key) ?? ({ name: "(another writer)" } as LakeManifest);
    }
  }

  /** Removes the staging folder, and the data files placed by a commit whose manifest did not land. */
  close(): void {
    for (const f of this.placed) rmSync(f, { force: true });
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** What reading lakes loaded, counted as an ingest of their sources would count it. */
export interface LakeLoaded {
  sources: number;
  records: number;
  rejected: number;
  attempts: number;
  broken: number;
}

/** The manifests of `folder` in lake `dir`, by file name (a manifest being linked is whole: it was written before). */
function manifestsOf(dir: string, folder: string): LakeManifest[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, folder))
      .filter((n) => n.endsWith(".json"))
      .sort();
  } catch {
    return [];
  }
  return names.map((n) => {
    try {
      return JSON.parse(readFileSync(join(dir, folder, n), "utf8")) as LakeManifest;
    } catch (e) {
      throw new DataError(`${join(dir, folder, n)}: not a lake manifest (${(e as Error).message})`);
    }
  });
}

/**
 * The sources lakes `dirs` hold (each checked: checkLake), read as one: a
 * source in several lakes once (the first lake's), those `filter` keeps, in
 * the order a folder walk reads their names (path segments compared one by one,
 * then the sha256), the order a call naming the same files would read them in.
 */
export function lakeSources(
  dirs: readonly string[],
  filter: LakeFilter = {},
  onRepeat?: (manifest: LakeManifest, first: string, again: string) => void,
): { dir: string; manifest: LakeManifest }[] {
  const seen = new Map<string, string>();
  const out: { dir: string; manifest: LakeManifest }[] = [];
  for (const dir of dirs) {
    checkLake(dir);
    for (const manifest of manifestsOf(dir, MANIFESTS)) {
      if (manifest.lake_version !== LAKE_VERSION)
        throw new DataError(
          `${join(dir, MANIFESTS, `${manifest.sha256}.json`)}: a manifest of lake version ${manifest.lake_version}; this denom reads ${LAKE_VERSION}`,
        );
      if (!kept(manifest, filter)) continue;
      const first = seen.get(manifest.sha256);
      if (first !== undefined) {
        onRepeat?.(manifest, first, dir);
        continue;
      }
      seen.set(manifest.sha256, dir);
      out.push({ dir, manifest });
    }
  }
  return out.sort((a, b) => compareNames(a.manifest, b.manifest));
}

/** True when, for every key of `filter`, a partition of the source has one of its values. */
function kept(m: LakeManifest, filter: LakeFilter): boolean {
  return PARTITION_KEYS.every((k) => {
    const values = filter[k];
    // an empty value picks the sources with no value (the __HIVE_DEFAULT_PARTITION__ folder)
    return !values || m.partitions.some((p) => values.includes(p[k] ?? ""));
  });
}

function compareNames(a: LakeManifest, b: LakeManifest): number {
  const x = a.name.split("/");
  const y = b.name.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  if (x.length !== y.length) return x.length - y.length;
  return a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0;
}

/** The bytes of the sources lakeSources gives: what reading them as inputs would read. */
export function lakeBytes(dirs: readonly string[], filter: LakeFilter = {}): number {
  return lakeSources(dirs, filter).reduce((n, s) => n + s.manifest.bytes, 0);
}

/**
 * Loads the sources of lakes `dirs` (lakeSources) into the tables of `db`, as
 * reading those sources would: source ids from 1 in their order, attempt ids
 * numbered on from the sources before, every table's rows in load order; the
 * skipped files of every call (none under a filter: they belong to no
 * partition), each name and reason once. File paths enter the SQL as quoted
 * literals (sqlString). Throws DataError when a lake or a file cannot be read.
 */
export async function loadLakes(
  db: Database,
  dirs: readonly string[],
  filter: LakeFilter = {},
  onRepeat?: (manifest: LakeManifest, first: string, again: string) => void,
  /** sources of at least this many attempts are loaded one statement each (ALONE_MIN_ATTEMPTS; a test's smaller one) */
  aloneMinAttempts = ALONE_MIN_ATTEMPTS,
): Promise<LakeLoaded> {
  const sources = lakeSources(dirs, filter, onRepeat);
  const loaded: LakeLoaded = { sources: sources.length, records: 0, rejected: 0, attempts: 0, broken: 0 };
  const ids = sources.map(({ dir, manifest: m }, i) => {
    // a count that numbers the attempts of the sources after it: a whole number, or no lake
    if (!Number.isSafeInteger(m.attempts) || m.attempts < 0)
      throw new DataError(`${join(dir, MANIFESTS, `${m.sha256}.json`)}: not a lake manifest (attempts is not a count)`);
    const row = { sha256: m.sha256, source_id: i + 1, attempt_offset: loaded.attempts };
    loaded.records += m.records;
    loaded.rejected += m.rejected;
    loaded.attempts += m.attempts;
    loaded.broken += m.broken ? 1 : 0;
    return row;
  });
  await db.run(
    `CREATE OR REPLACE TEMP TABLE lake_ids AS SELECT unnest(from_json($ids, '[{"sha256":"VARCHAR","source_id":"INTEGER","attempt_offset":"BIGINT"}]'), recursive := true)`,
    { ids: JSON.stringify(ids) },
  );
  try {
    for (const table of [...SOURCE_TABLES, ...PARTITIONED_TABLES]) {
      const parts = sources.map(({ dir, manifest }, i) => ({
        ...ids[i]!,
        attempts: manifest.attempts,
        files: (manifest.files[table] ?? []).map((f) => join(dir, ...f.split("/"))),
      }));
      await insertFrom(db, table, parts, aloneMinAttempts);
    }
    if (Object.keys(filter).length === 0) {
      const files = dirs.flatMap((dir) =>
        manifestsOf(dir, SKIPPED_MANIFESTS).flatMap((m) => (m.files.skipped_files ?? []).map((f) => join(dir, ...f.split("/")))),
      );
      if (files.length)
        await run(
          db,
          `INSERT INTO skipped_files SELECT name, reason, min(top_keys) FROM read_parquet(${fileList(files)}) GROUP BY name, reason ORDER BY name, reason`,
        );
    }
  } finally {
    await db.run("DROP TABLE IF EXISTS lake_ids");
  }
  return loaded;
}

/** A source's files of one table, the ids its rows take, and its attempts (loadLakes). */
interface SourceFiles {
  sha256: string;
  source_id: number;
  attempt_offset: number;
  attempts: number;
  files: string[];
}

/**
 * Attempts from which a source is loaded by a statement of its own (insertFrom):
 * one file then needs no sort. A statement costs a few milliseconds, about
 * what sorting 3,000 attempts costs.
 */
const ALONE_MIN_ATTEMPTS = 10_000;

/**
 * Appends the rows of a table's lake files to it in load order: source by
 * source, each source's rows in the order it wrote them, ids mapped through
 * lake_ids. A source of ALONE_MIN_ATTEMPTS or more is a statement of its own,
 * and when it holds one file of the table (every table but the partitioned
 * ones, and the usual source of those), the file is read as it is stored, its
 * order kept (a single table's rows keep their order in DuckDB) with no sort:
 * sorting every row of the 1 GB reference log's lake cost about 40% of loading
 * it, attempts 4.4-4.8 -> 2.2 s, events 4.4 -> 2.8 s (docs/benchmarks.md).
 * The others, and a big source spanning several partitions, are read sorted
 * on their source, attempt ids and rows' places in their files, the small
 * sources together: a statement each, or a UNION ALL of their files, costs
 * more than their sort (a report over a lake of 624 small sources: 4.8 s
 * against 1.8 s).
 */
async function insertFrom(db: Database, table: string, sources: readonly SourceFiles[], aloneMinAttempts: number): Promise<void> {
  let batch: SourceFiles[] = [];
  const flush = async () => {
    if (batch.length) await insertSorted(db, table, batch);
    batch = [];
  };
  for (const source of sources) {
    if (source.files.length === 0) continue;
    if (source.attempts < aloneMinAttempts) {
      batch.push(source);
      continue;
    }
    await flush();
    if (source.files.length === 1) await insertAsStored(db, table, source);
    else await insertSorted(db, table, [source]);
  }
  await flush();
}

/** The columns of `table` as read from lake file `f`, its ids mapped by `sourceId` and `offset` (SQL expressions). */
function mappedColumns(table: string, sourceId: string, offset: string): string {
  return TABLES[table]
    .map((c) => (c.name === "source_id" ? `${sourceId} AS source_id` : c.name === "attempt_id" ? `f.attempt_id + ${offset} AS attempt_id` : `f.${c.name}`))
    .join(", ");
}

/** One statement of insertFrom: the files of `sources`, sorted into load order. */
async function insertSorted(db: Database, table: string, sources: readonly SourceFiles[]): Promise<void> {
  const order = TABLES[table].some((c) => c.name === "attempt_id") ? "m.source_id, f.attempt_id, f.file_row_number" : "m.source_id, f.file_row_number";
  await run(
    db,
    `INSERT INTO ${table} SELECT ${mappedColumns(table, "m.source_id", "m.attempt_offset")}
     FROM read_parquet(${fileList(sources.flatMap((s) => s.files))}, hive_partitioning = false, file_row_number = true) AS f
     JOIN lake_ids AS m ON m.sha256 = f.source_sha256
     ORDER BY ${order}`,
  );
}

/** One statement of insertFrom: a big source's one file, in its stored order (its rows only: those naming its sha256). */
async function insertAsStored(db: Database, table: string, source: SourceFiles): Promise<void> {
  // a parameter is bound only where the statement names it (DuckDB refuses one it does not)
  const params: Params = { sha: source.sha256 };
  for (const c of TABLES[table]) {
    if (c.name === "source_id") params.source = source.source_id;
    if (c.name === "attempt_id") params.offset = source.attempt_offset;
  }
  await run(
    db,
    `INSERT INTO ${table} SELECT ${mappedColumns(table, "$source::INTEGER", "$offset::BIGINT")}
     FROM read_parquet(${fileList(source.files)}, hive_partitioning = false) AS f
     WHERE f.source_sha256 = $sha::VARCHAR`,
    params,
  );
}

/** A list of file paths as a DuckDB list literal, each quoted (sqlString): a quote in a path stays in the path. */
function fileList(files: readonly string[]): string {
  return `[${files.map(sqlString).join(", ")}]`;
}

async function run(db: Database, sql: string, params?: Params): Promise<void> {
  try {
    await db.run(sql, params);
  } catch (e) {
    throw new DataError(`cannot read the lake: ${duckdbMessage(e)}`, { cause: e });
  }
}

/**
 * Parses `--lake-filter KEY=VALUE` flags (KEY benchmark, model or run; repeatable:
 * values of one key are alternatives, keys all apply). Throws UsageError.
 */
export function parseLakeFilter(values: readonly string[]): LakeFilter {
  const filter: LakeFilter = {};
  for (const v of values) {
    const at = v.indexOf("=");
    const key = v.slice(0, Math.max(at, 0)) as PartitionKey;
    if (at < 0 || !PARTITION_KEYS.includes(key))
      throw new UsageError(`--lake-filter ${v}: give KEY=VALUE with KEY one of ${PARTITION_KEYS.join(", ")} (e.g. --lake-filter model=gpt-4o)`);
    (filter[key] ??= []).push(v.slice(at + 1));
  }
  return filter;
}
