/**
 * The loader (DESIGN section 1): DuckDB appenders into the tables of
 * src/db/schema.ts (`sources`, `attempts`, `events`, `rejects`,
 * `run_metadata`, `run_logs`, `owed_trials`, `skipped_files`, `duplicate_keys`, `masked_secrets`).
 */
import type { DuckDBAppender } from "@duckdb/node-api";
import { bindings as duckdb } from "../db/duckdb.js";
import type { Database } from "../db/session.js";
import { createTables, DuckDBDataChunk, TABLES, type Column, type SqlType } from "../db/session.js";
import { DenomError } from "../errors.js";
import { ATTEMPT_FIELDS, type CanonicalAttempt, type CanonicalEvent, type FieldKind } from "./canonical.js";
import type { OwedTrials, RunLog, RunMetadata } from "./formats/types.js";

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

/** The canonical fields stored as attempts columns (events go to their own table). */
const ATTEMPT_VALUE_SPECS = ATTEMPT_FIELDS.filter((f) => f.kind !== "events" && !f.late);
/** Fields added after files were written (FieldSpec.late): the attempts table's last columns, so a kept file gains them (db/stored.ts). */
const LATE_ATTEMPT_SPECS = ATTEMPT_FIELDS.filter((f) => f.kind !== "events" && f.late);

/**
 * The attempts columns the loader fills from the canonical fields: after the 6
 * origin columns, before the 4 counts; then the late ones after the counts.
 */
const ATTEMPT_VALUE_COLUMNS = TABLES.attempts.slice(6, -4 - LATE_ATTEMPT_SPECS.length);
const LATE_ATTEMPT_COLUMNS = TABLES.attempts.slice(TABLES.attempts.length - LATE_ATTEMPT_SPECS.length);
const follows = (columns: readonly Column[], specs: typeof ATTEMPT_VALUE_SPECS) =>
  columns.length === specs.length &&
  specs.every((f, i) => columns[i].name === columnName(f.field) && columns[i].type === SQL_TYPE[f.kind as Exclude<FieldKind, "events">]);
if (!follows(ATTEMPT_VALUE_COLUMNS, ATTEMPT_VALUE_SPECS) || !follows(LATE_ATTEMPT_COLUMNS, LATE_ATTEMPT_SPECS))
  throw new DenomError("src/db/schema.ts: the attempts columns do not follow the canonical fields of src/ingest/canonical.ts");

type Value = string | number | boolean | null;

/** Rows per data chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

/** How a column's values are laid out in a DuckDB vector: 4-byte int, 8-byte int, double, 1-byte bool, 16-byte string_t. */
const enum Layout {
  Int32,
  Int64,
  Double,
  Bool,
  Str,
}

const LAYOUT: Record<SqlType, Layout> = {
  INTEGER: Layout.Int32,
  BIGINT: Layout.Int64,
  TIMESTAMPTZ: Layout.Int64,
  DOUBLE: Layout.Double,
  BOOLEAN: Layout.Bool,
  VARCHAR: Layout.Str,
};

const BYTES: Record<Layout, number> = { [Layout.Int32]: 4, [Layout.Int64]: 8, [Layout.Double]: 8, [Layout.Bool]: 1, [Layout.Str]: 16 };

/** The longest string DuckDB keeps inside its 16-byte string_t (duckdb.h `duckdb_string_t`: length, then 12 bytes inlined). */
const INLINE_MAX = 12;

const TWO_32 = 2 ** 32;

/**
 * One column of a chunk being gathered, in the bytes of its DuckDB vector:
 * numbers, booleans and short ASCII strings are written straight into `data`
 * (copied into the vector with one call); a longer string is kept in `strings`
 * and handed to DuckDB by `vector_assign_string_element`, which copies it into
 * the vector's string heap.
 */
interface ColumnBuffer {
  layout: Layout;
  buffer: ArrayBuffer;
  data: Uint8Array;
  /** views of `data` for the numeric layouts */
  i32: Int32Array;
  u32: Uint32Array;
  f64: Float64Array;
  /** one bit a row, 1 = a value (DuckDB's validity mask, little-endian 64-bit words) */
  valid: Uint8Array<ArrayBuffer>;
  /** VARCHAR: the strings not inlined, by row (undefined elsewhere) */
  strings: (string | undefined)[];
  /** VARCHAR: rows of `strings` set in this chunk */
  long: number[];
}

function columnBuffer(type: SqlType): ColumnBuffer {
  const layout = LAYOUT[type];
  const buffer = new ArrayBuffer(CHUNK_ROWS * BYTES[layout]);
  const data = new Uint8Array(buffer);
  const whole = layout === Layout.Int64 || layout === Layout.Double || layout === Layout.Str;
  return {
    layout,
    buffer,
    data,
    i32: new Int32Array(data.buffer, 0, layout === Layout.Bool ? 0 : data.length / 4),
    u32: new Uint32Array(data.buffer, 0, layout === Layout.Bool ? 0 : data.length / 4),
    f64: new Float64Array(data.buffer, 0, whole ? data.length / 8 : 0),
    valid: new Uint8Array(CHUNK_ROWS / 8),
    strings: [],
    long: [],
  };
}

/**
 * Rows of one table gathered column by column in the bytes DuckDB's vectors
 * hold, and handed to DuckDB a data chunk at a time (`appendDataChunk`): one
 * native call per column and chunk, plus one per string longer than 12 bytes,
 * instead of one per value (the node-api vector wrappers cost as much again
 * as the load itself: issue 20's profile). Values are checked before they get
 * here: a failed chunk would lose its rows. Whole numbers (INTEGER, BIGINT,
 * TIMESTAMPTZ microseconds) are exact JS numbers (at most 2^53 in magnitude).
 */
class ChunkBatch {
  private readonly columns: ColumnBuffer[];
  private readonly chunk: DuckDBDataChunk;
  private rows = 0;

  constructor(
    private readonly appender: DuckDBAppender,
    spec: readonly Column[],
  ) {
    this.columns = spec.map((c) => columnBuffer(c.type));
    // the appender's own column types, so the chunk matches the table exactly
    this.chunk = DuckDBDataChunk.create(spec.map((_, i) => appender.columnType(i)));
  }

  /** Adds one row (values in column order); a full chunk goes to DuckDB. */
  row(values: readonly Value[]): void {
    const r = this.rows;
    const columns = this.columns;
    for (let c = 0; c < columns.length; c++) this.set(columns[c], r, values[c]);
    if (++this.rows === CHUNK_ROWS) this.flush();
  }

  private set(col: ColumnBuffer, r: number, v: Value | undefined): void {
    const bit = 1 << (r & 7);
    if (v === null || v === undefined) {
      col.valid[r >> 3] &= ~bit;
      // a null string's slot holds an empty inlined string, never a stale one's pointer
      if (col.layout === Layout.Str) col.u32.fill(0, 4 * r, 4 * r + 4);
      return;
    }
    col.valid[r >> 3] |= bit;
    switch (col.layout) {
      case Layout.Int32:
        col.i32[r] = v as number;
        return;
      case Layout.Int64: {
        const n = v as number;
        const hi = Math.floor(n / TWO_32);
        col.u32[2 * r] = n - hi * TWO_32;
        col.i32[2 * r + 1] = hi;
        return;
      }
      case Layout.Double:
        col.f64[r] = v as number;
        return;
      case Layout.Bool:
        col.data[r] = v ? 1 : 0;
        return;
      default:
        this.setString(col, r, v as string);
    }
  }

  /** A string of at most 12 ASCII characters is inlined (length, bytes, zeros: DuckDB compares the 12 bytes whole); others go to DuckDB as text. */
  private setString(col: ColumnBuffer, r: number, s: string): void {
    const n = s.length;
    if (n <= INLINE_MAX) {
      const data = col.data;
      const at = r * 16 + 4;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        data[at + i] = c;
      }
      if (i === n) {
        col.u32[4 * r] = n;
        for (; i < INLINE_MAX; i++) data[at + i] = 0;
        return;
      }
    }
    col.strings[r] = s;
    col.long.push(r);
  }

  /** Hands the gathered rows to the appender (DuckDB flushes its own buffer later). */
  flush(): void {
    const n = this.rows;
    if (n === 0) return;
    this.rows = 0;
    const chunk = this.chunk;
    chunk.reset();
    chunk.rowCount = n;
    for (let c = 0; c < this.columns.length; c++) {
      const col = this.columns[c];
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
      duckdb.copy_data_to_vector(vector, 0, col.buffer, 0, n * BYTES[col.layout]);
      for (const r of col.long) {
        duckdb.vector_assign_string_element(vector, r, col.strings[r]!);
        col.strings[r] = undefined; // let the string go
      }
      col.long.length = 0;
      duckdb.vector_ensure_validity_writable(vector);
      duckdb.copy_data_to_vector_validity(vector, 0, col.valid.buffer, 0, Math.ceil(n / 64) * 8);
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
const LATE_ATTEMPT_FIELDS = LATE_ATTEMPT_SPECS.map((f) => f.field as keyof CanonicalAttempt);

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
    const batches: Record<string, ChunkBatch> = {};
    for (const table of Object.keys(TABLES)) {
      appenders[table] = await db.connection.createAppender(table);
      batches[table] = new ChunkBatch(appenders[table], TABLES[table]);
    }
    const row = await db.one("SELECT coalesce(max(attempt_id), 0) AS max_id FROM attempts");
    return new Loader(db, appenders, batches, Number(row?.max_id ?? 0) + 1);
  }

  /** The next free source id. */
  async nextSourceId(): Promise<number> {
    const row = await this.db.one("SELECT coalesce(max(source_id), 0) AS max_id FROM sources");
    return Number(row?.max_id ?? 0) + 1;
  }

  attempt(a: CanonicalAttempt, origin: AttemptOrigin): void {
    const id = this.nextAttemptId++;
    const values = this.attemptRow;
    let i = 0;
    values[i++] = id;
    values[i++] = origin.sourceId;
    values[i++] = origin.line;
    values[i++] = origin.location;
    values[i++] = origin.format;
    values[i++] = origin.lineHash;
    for (const f of ATTEMPT_VALUE_FIELDS) values[i++] = a[f] as Value;
    values[i++] = a.events.length;
    values[i++] = a.naive_timestamps;
    values[i++] = origin.nonFinite;
    values[i++] = a.extra;
    for (const f of LATE_ATTEMPT_FIELDS) values[i++] = a[f] as Value;
    this.batches.attempts.row(values);
    for (const e of a.events) this.event(id, e);
  }

  private event(attemptId: number, e: CanonicalEvent): void {
    this.eventRow[0] = attemptId;
    this.eventRow[1] = e.seq;
    this.eventRow[2] = e.ts;
    this.eventRow[3] = e.type;
    this.eventRow[4] = e.name;
    this.eventRow[5] = e.args;
    this.eventRow[6] = e.status;
    this.batches.events.row(this.eventRow);
  }

  /** One attempts row, reused (ChunkBatch.row copies the values out). */
  private readonly attemptRow: Value[] = TABLES.attempts.map(() => null);

  /** One events row, reused (ChunkBatch.row copies the values out). */
  private readonly eventRow: Value[] = TABLES.events.map(() => null);

  reject(sourceId: number, line: number, location: string | null, reason: string, excerpt: string): void {
    this.batches.rejects.row([sourceId, line, location, reason, excerpt]);
  }

  source(row: SourceRow): void {
    this.batches.sources.row(TABLES.sources.map((col) => row[col.name as keyof SourceRow] as Value));
  }

  /** A run's description, and the trials it announces (owed_trials, promised by the run's metadata). */
  runMetadata(sourceId: number, m: RunMetadata): void {
    this.batches.run_metadata.row([sourceId, m.run_id, m.agent, m.model, m.concurrency]);
    this.owedTrials(sourceId, m.run_id, m.owed ?? [], "run_metadata");
  }

  /** The trials a run owes, and who promised them (schema.ts owed_trials). */
  private owedTrials(sourceId: number, runId: string | null, owed: readonly OwedTrials[], promisedBy: "run_log" | "run_metadata"): void {
    for (const o of owed) this.batches.owed_trials.row([sourceId, runId, o.task_id, o.trial ?? null, o.trials ?? null, promisedBy]);
  }

  /**
   * Stores what a log says of its run, and the trials it owes. `dict` counts
   * the trials left unscored for a dict-valued score, with the keys seen.
   */
  runLog(sourceId: number, log: RunLog, dict: { trials: number; keys: readonly string[] }): void {
    this.batches.run_logs.row([
      sourceId, log.run_id, log.invocation, log.task, log.model, log.status, log.error_message, log.total_samples, log.completed_samples,
      log.incomplete, log.owed.length, dict.trials, dict.keys.length ? dict.keys.join(", ") : null, log.detail,
    ]);
    this.owedTrials(sourceId, log.run_id, log.owed, "run_log");
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
    for (const table of ["attempts", "events", "rejects", "run_metadata", "masked_secrets", "run_logs", "owed_trials", "duplicate_keys"]) {
      this.batches[table].flush();
      this.appenders[table].flushSync();
    }
    const id = { id: sourceId };
    const first = await this.db.one("SELECT min(attempt_id) AS first_id FROM attempts WHERE source_id = $id", id);
    await this.db.run("DELETE FROM events WHERE attempt_id IN (SELECT attempt_id FROM attempts WHERE source_id = $id)", id);
    for (const table of ["attempts", "rejects", "run_metadata", "masked_secrets", "run_logs", "owed_trials", "duplicate_keys"]) await this.db.run(`DELETE FROM ${table} WHERE source_id = $id`, id);
    if (typeof first?.first_id === "number") this.nextAttemptId = first.first_id;
  }

  /** Records that `counts` secrets (per kind) were masked in a line, element or (line null) the source's name. */
  masked(sourceId: number, line: number | null, location: string | null, counts: Record<string, number>): void {
    for (const [kind, n] of Object.entries(counts)) this.batches.masked_secrets.row([sourceId, line, location, kind, n]);
  }

  /** Records that `key` (a path in the record, e.g. `status`) was written twice in one object of a line or element. */
  duplicateKey(sourceId: number, line: number, location: string | null, key: string): void {
    this.batches.duplicate_keys.row([sourceId, line, location, key]);
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
