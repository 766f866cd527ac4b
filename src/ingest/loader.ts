/**
 * The loader (DESIGN section 1): DuckDB appenders into the tables `sources`,
 * `attempts`, `events`, `rejects`, `run_metadata` and `skipped_files`. The
 * column lists below are the one declaration of those tables: CREATE TABLE and
 * the appenders both come from them.
 */
import { DuckDBDataChunk, type DuckDBAppender, type DuckDBType } from "@duckdb/node-api";
import type { Database } from "../db/database.js";
import { ATTEMPT_FIELDS, type CanonicalAttempt, type CanonicalEvent, type FieldKind } from "./canonical.js";
import type { RunMetadata } from "./formats/types.js";

type SqlType = "VARCHAR" | "BIGINT" | "INTEGER" | "DOUBLE" | "BOOLEAN" | "TIMESTAMPTZ";

interface Column {
  name: string;
  type: SqlType;
}

const SQL_TYPE: Record<Exclude<FieldKind, "events">, SqlType> = {
  id: "VARCHAR",
  text: "VARCHAR",
  error: "VARCHAR",
  status: "VARCHAR",
  fault: "VARCHAR",
  int: "INTEGER",
  bigint: "BIGINT",
  number: "DOUBLE",
  boolean: "BOOLEAN",
  timestamp: "TIMESTAMPTZ",
};

/** Column name in the table for a canonical field: `status` is kept as written, so it is `raw_status`. */
function columnName(field: string): string {
  return field === "status" ? "raw_status" : field;
}

const c = (name: string, type: SqlType): Column => ({ name, type });

/** The canonical fields stored as attempts columns (events go to their own table). */
const ATTEMPT_VALUE_SPECS = ATTEMPT_FIELDS.filter((f) => f.kind !== "events");

/** Every table denom loads, with its columns in order. */
export const TABLES: Record<string, Column[]> = {
  sources: [
    c("source_id", "INTEGER"), c("name", "VARCHAR"), c("sha256", "VARCHAR"), c("bytes", "BIGINT"),
    c("format", "VARCHAR"), c("physical_lines", "BIGINT"), c("lines", "BIGINT"), c("records", "BIGINT"),
    c("blank", "BIGINT"), c("rejected", "BIGINT"), c("attempts", "BIGINT"), c("non_finite", "BIGINT"),
    c("problem", "VARCHAR"), c("loaded_at", "TIMESTAMPTZ"), c("adapter", "VARCHAR"),
  ],
  attempts: [
    c("attempt_id", "BIGINT"), c("source_id", "INTEGER"), c("line", "BIGINT"), c("location", "VARCHAR"),
    c("format", "VARCHAR"), c("line_hash", "VARCHAR"),
    ...ATTEMPT_VALUE_SPECS.map((f) => c(columnName(f.field), SQL_TYPE[f.kind as Exclude<FieldKind, "events">])),
    c("event_count", "INTEGER"), c("naive_timestamps", "INTEGER"), c("non_finite", "INTEGER"), c("extra", "VARCHAR"),
  ],
  events: [
    c("attempt_id", "BIGINT"), c("seq", "INTEGER"), c("ts", "TIMESTAMPTZ"), c("type", "VARCHAR"),
    c("name", "VARCHAR"), c("args", "VARCHAR"), c("status", "VARCHAR"),
  ],
  rejects: [
    c("source_id", "INTEGER"), c("line", "BIGINT"), c("location", "VARCHAR"), c("reason", "VARCHAR"), c("excerpt", "VARCHAR"),
  ],
  run_metadata: [
    c("source_id", "INTEGER"), c("run_id", "VARCHAR"), c("agent", "VARCHAR"), c("model", "VARCHAR"), c("concurrency", "INTEGER"),
  ],
  // top_keys: a JSON list of the top-level keys of a side file no format reads (null for other skips)
  // trials a run says it owes (types.ts RunMetadata.announced): task_id null = that many in all, tasks unnamed
  announced_trials: [c("source_id", "INTEGER"), c("run_id", "VARCHAR"), c("task_id", "VARCHAR"), c("trials", "BIGINT")],
  skipped_files: [c("name", "VARCHAR"), c("reason", "VARCHAR"), c("top_keys", "VARCHAR")],
  // secrets masked at ingest (secrets.ts): one row per line (or source name) and kind; the secrets themselves are never stored
  masked_secrets: [c("source_id", "INTEGER"), c("line", "BIGINT"), c("location", "VARCHAR"), c("kind", "VARCHAR"), c("secrets", "INTEGER")],
};

/** Creates the tables (all, or the ones named) when missing (a `--db` file keeps them between runs). */
export async function createTables(db: Database, tables: readonly string[] = Object.keys(TABLES)): Promise<void> {
  for (const table of tables) {
    await db.run(`CREATE TABLE IF NOT EXISTS ${table} (${TABLES[table].map((col) => `${col.name} ${col.type}`).join(", ")})`);
  }
}

type Value = string | number | boolean | null;

/** Rows per data chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

/**
 * Rows of one table gathered column by column and handed to DuckDB a data chunk
 * at a time (`appendDataChunk`): one native call per chunk and per string
 * instead of one per value and per row (endRow included).
 * Values are checked before they get here: a failed chunk would lose its rows.
 */
class ChunkBatch {
  private readonly columns: Value[][];
  private readonly types: DuckDBType[];
  private rows = 0;
  /** reused for TIMESTAMPTZ values: the vector reads `micros` at once */
  private readonly stamp = { micros: 0n };

  constructor(
    private readonly appender: DuckDBAppender,
    private readonly spec: readonly Column[],
  ) {
    this.columns = spec.map(() => new Array<Value>(CHUNK_ROWS));
    // the appender's own column types, so the chunk matches the table exactly
    this.types = spec.map((_, i) => appender.columnType(i));
  }

  /** Adds one row (values in column order); a full chunk goes to DuckDB. */
  row(values: readonly Value[]): void {
    const r = this.rows;
    for (let c = 0; c < values.length; c++) this.columns[c][r] = values[c] ?? null;
    if (++this.rows === CHUNK_ROWS) this.flush();
  }

  /** Hands the gathered rows to the appender (DuckDB flushes its own buffer later). */
  flush(): void {
    const n = this.rows;
    if (n === 0) return;
    this.rows = 0;
    const chunk = DuckDBDataChunk.create(this.types, n);
    for (let c = 0; c < this.spec.length; c++) {
      const vector = chunk.getColumnVector(c);
      const values = this.columns[c];
      const type = this.spec[c].type;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (v === null) vector.setItem(i, null);
        else if (type === "BIGINT") vector.setItem(i, BigInt(v as number));
        else if (type === "TIMESTAMPTZ") {
          this.stamp.micros = BigInt(v as number);
          vector.setItem(i, this.stamp as never);
        } else vector.setItem(i, v as never);
        values[i] = null; // let the strings go
      }
      vector.flush();
    }
    this.appender.appendDataChunk(chunk);
  }
}

/** A row of the sources table. */
export interface SourceRow {
  source_id: number;
  name: string;
  sha256: string;
  bytes: number;
  format: string;
  physical_lines: number;
  lines: number;
  records: number;
  blank: number;
  rejected: number;
  attempts: number;
  non_finite: number;
  problem: string | null;
  loaded_at: number;
  /** the format adapters that read the source's records, e.g. `terminal-bench` (null when none did) */
  adapter: string | null;
}

/** Where an attempt came from. */
export interface AttemptOrigin {
  sourceId: number;
  line: number;
  location: string | null;
  format: string;
  lineHash: string;
  nonFinite: number;
}

const ATTEMPT_VALUE_FIELDS = ATTEMPT_VALUE_SPECS.map((f) => f.field as keyof CanonicalAttempt);

/**
 * Appends rows through one appender per table. Rows are validated before they
 * get here (an appender's failed row would drop every unflushed row).
 * Attempt ids continue from the largest already in the database.
 */
export class Loader {
  private constructor(
    private readonly db: Database,
    private readonly appenders: Record<string, DuckDBAppender>,
    private readonly batches: Record<string, ChunkBatch>,
    private nextAttemptId: number,
  ) {}

  static async open(db: Database): Promise<Loader> {
    await createTables(db);
    const appenders: Record<string, DuckDBAppender> = {};
    for (const table of Object.keys(TABLES)) appenders[table] = await db.connection.createAppender(table);
    const row = await db.one("SELECT coalesce(max(attempt_id), 0) AS max_id FROM attempts");
    const batches: Record<string, ChunkBatch> = {};
    for (const table of Object.keys(TABLES)) batches[table] = new ChunkBatch(appenders[table], TABLES[table]);
    return new Loader(db, appenders, batches, Number(row?.max_id ?? 0) + 1);
  }

  /** The next free source id. */
  async nextSourceId(): Promise<number> {
    const row = await this.db.one("SELECT coalesce(max(source_id), 0) AS max_id FROM sources");
    return Number(row?.max_id ?? 0) + 1;
  }

  attempt(a: CanonicalAttempt, origin: AttemptOrigin): void {
    const id = this.nextAttemptId++;
    const values: Value[] = [id, origin.sourceId, origin.line, origin.location, origin.format, origin.lineHash];
    for (const f of ATTEMPT_VALUE_FIELDS) values.push(a[f] as Value);
    values.push(a.events.length, a.naive_timestamps, origin.nonFinite, a.extra);
    this.batches.attempts.row(values);
    for (const e of a.events) this.event(id, e);
  }

  private event(attemptId: number, e: CanonicalEvent): void {
    this.batches.events.row([attemptId, e.seq, e.ts, e.type, e.name, e.args, e.status]);
  }

  reject(sourceId: number, line: number, location: string | null, reason: string, excerpt: string): void {
    this.batches.rejects.row([sourceId, line, location, reason, excerpt]);
  }

  source(row: SourceRow): void {
    this.batches.sources.row(TABLES.sources.map((col) => row[col.name as keyof SourceRow] as Value));
  }

  /** A run's description, and the trials it announces (one announced_trials row per task, or one for the run). */
  runMetadata(sourceId: number, m: RunMetadata): void {
    this.batches.run_metadata.row([sourceId, m.run_id, m.agent, m.model, m.concurrency]);
    for (const a of m.announced ?? []) this.batches.announced_trials.row([sourceId, m.run_id, a.task_id, a.trials]);
  }

  /** sha256 -> name of every source in the database, for skipping one loaded before. */
  async sourceDigests(): Promise<Map<string, string>> {
    const rows = await this.db.all("SELECT sha256, name FROM sources ORDER BY source_id");
    return new Map(rows.map((r) => [r.sha256 as string, r.name as string]));
  }

  /** The byte counts of every source in the database: a file of another size cannot be one of them. */
  async sourceSizes(): Promise<Set<number>> {
    const rows = await this.db.all("SELECT DISTINCT bytes FROM sources ORDER BY bytes");
    return new Set(rows.map((r) => r.bytes as number));
  }

  /** `name\treason` of every skipped_files row, so a member skipped before is listed once. */
  async skippedKeys(): Promise<Set<string>> {
    const rows = await this.db.all("SELECT name, reason FROM skipped_files ORDER BY name");
    return new Set(rows.map((r) => `${r.name}\t${r.reason}`));
  }

  /**
   * Removes every row appended for `sourceId`, the source being read (found,
   * once read, to be one already loaded), and hands its attempt ids out again.
   * Flushes the appenders first so their rows can be deleted.
   */
  async discardSource(sourceId: number): Promise<void> {
    for (const table of ["attempts", "events", "rejects", "run_metadata", "announced_trials", "masked_secrets"]) {
      this.batches[table].flush();
      this.appenders[table].flushSync();
    }
    const id = { id: sourceId };
    const first = await this.db.one("SELECT min(attempt_id) AS first_id FROM attempts WHERE source_id = $id", id);
    await this.db.run("DELETE FROM events WHERE attempt_id IN (SELECT attempt_id FROM attempts WHERE source_id = $id)", id);
    for (const table of ["attempts", "rejects", "run_metadata", "announced_trials", "masked_secrets"]) await this.db.run(`DELETE FROM ${table} WHERE source_id = $id`, id);
    if (typeof first?.first_id === "number") this.nextAttemptId = first.first_id;
  }

  /** Records that `counts` secrets (per kind) were masked in a line, element or (line null) the source's name. */
  masked(sourceId: number, line: number | null, location: string | null, counts: Record<string, number>): void {
    for (const [kind, n] of Object.entries(counts)) this.batches.masked_secrets.row([sourceId, line, location, kind, n]);
  }

  /** A file skipped (an archive member by its name, a side file no format reads, with its top-level keys). */
  skipped(name: string, reason: string, topKeys: readonly string[] | null): void {
    this.batches.skipped_files.row([name, reason, topKeys === null ? null : JSON.stringify(topKeys)]);
  }

  /** Hands every gathered row to DuckDB, then flushes and closes every appender. */
  close(): void {
    for (const table of Object.keys(TABLES)) {
      this.batches[table].flush();
      this.appenders[table].closeSync();
    }
  }
}
