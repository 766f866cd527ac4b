/**
 * The loader (docs/architecture.md): DuckDB appenders into the tables of
 * src/db/schema.ts (`sources`, `attempts`, `events`, `rejects`,
 * `run_metadata`, `run_logs`, `owed_trials`, `skipped_files`, `duplicate_keys`, `masked_secrets`).
 */
import type { DuckDBAppender } from "@duckdb/node-api";
import type { Vector } from "@duckdb/node-bindings";
import { bindings as duckdb } from "../../db/duckdb.js";
import type { Database } from "../../db/session.js";
import { createTables, DuckDBDataChunk, TABLES, type Column } from "../../db/session.js";
import type { CanonicalAttempt, CanonicalEvent } from "../../formats/canonical-record.js";
import { attemptRow, BYTES, eventRow, setLongSlots, TableColumns, type AttemptOrigin, type LongBytes, type Value } from "./columns.js";
import type { OwedTrials, RunLog, RunMetadata } from "../../formats/types.js";

/**
 * Rows of one table gathered in the bytes DuckDB's vectors hold (columns.ts
 * TableColumns), and handed to DuckDB a data chunk at a time
 * (`appendDataChunk`): one native call per column and chunk, plus one per
 * string longer than 12 bytes, instead of one per value (the node-api vector
 * wrappers cost as much again as the load itself: the profile). Values
 * are checked before they get here: a failed chunk would lose its rows.
 */
class ChunkBatch {
  private readonly gathered: TableColumns;
  private readonly chunk: DuckDBDataChunk;

  constructor(
    private readonly appender: DuckDBAppender,
    spec: readonly Column[],
  ) {
    this.gathered = new TableColumns(spec);
    // the appender's own column types, so the chunk matches the table exactly
    this.chunk = DuckDBDataChunk.create(spec.map((_, i) => appender.columnType(i)));
  }

  /** Adds one row (values in column order); a full chunk goes to DuckDB. */
  row(values: readonly Value[]): void {
    this.gathered.row(values);
    if (this.gathered.full) this.flush();
  }

  /** Hands the gathered rows to the appender (DuckDB flushes its own buffer later). */
  flush(): void {
    if (this.gathered.rows === 0) return;
    this.append(this.gathered);
    this.gathered.clear();
  }

  /**
   * Hands `columns` (rows of this table, e.g. gathered in a line worker) to the
   * appender as one data chunk; their long strings are `columns.long`, or
   * `bytes` when given (a worker's, columns.ts LongBytes).
   */
  append(columns: TableColumns, bytes?: LongBytes): void {
    const n = columns.rows;
    if (n === 0) return;
    const chunk = this.chunk;
    chunk.reset();
    chunk.rowCount = n;
    const buffer = columns.buffer;
    const vectors = this.vectors;
    for (let c = 0; c < columns.columns.length; c++) vectors[c] = duckdb.data_chunk_get_vector(chunk.chunk, c);
    // a worker's long strings: DuckDB copies all their bytes in one call, and their slots point
    // into that copy, written before the slots are copied; 12 bytes or fewer in all would be
    // inlined, with no address to read back
    const pooled = bytes !== undefined && bytes.bytes.byteLength > 12 && bytes.bytes.byteLength <= POOL_MAX;
    if (pooled) this.pointInto(columns, bytes);
    for (let c = 0; c < columns.columns.length; c++) {
      const col = columns.columns[c];
      duckdb.copy_data_to_vector(vectors[c], 0, buffer, col.dataOffset, n * BYTES[col.layout]);
    }
    // otherwise DuckDB writes each long string's slot, after the copy
    if (bytes === undefined) {
      const { columns: cs, rows, strings } = columns.long;
      for (let k = 0; k < cs.length; k++) duckdb.vector_assign_string_element(vectors[cs[k]], rows[k], strings[k]);
    } else if (!pooled) {
      const { columns: cs, rows, ends } = bytes;
      for (let k = 0, start = 0; k < cs.length; start = ends[k++])
        duckdb.vector_assign_string_element_len(vectors[cs[k]], rows[k], new Uint8Array(bytes.bytes, start, ends[k] - start));
    }
    for (let c = 0; c < columns.columns.length; c++) {
      duckdb.vector_ensure_validity_writable(vectors[c]);
      duckdb.copy_data_to_vector_validity(vectors[c], 0, buffer, columns.columns[c].validOffset, Math.ceil(n / 64) * 8);
    }
    this.appender.appendDataChunk(chunk);
  }

  /**
   * Hands DuckDB the bytes of every long string of `bytes` as one string (into
   * the vector of the first one's column, which owns the copy until the chunk is
   * reset, after the append has copied the rows out), reads back where DuckDB put
   * them, and writes each string's slot in `columns` pointing into that copy
   * (columns.ts setLongSlots). The slot DuckDB wrote is written over by the
   * columns' copy that follows, with the first string's own.
   */
  private pointInto(columns: TableColumns, bytes: LongBytes): void {
    const vector = this.vectors[bytes.columns[0]];
    const row = bytes.rows[0];
    duckdb.vector_assign_string_element_len(vector, row, new Uint8Array(bytes.bytes));
    const slot = duckdb.vector_get_data(vector, (row + 1) * 16);
    const view = new DataView(slot.buffer, slot.byteOffset + row * 16, 16);
    // duckdb_string_t of more than 12 bytes: length, 4 bytes of prefix, then the 64-bit address
    setLongSlots(columns, bytes, view.getUint32(8, true), view.getUint32(12, true));
  }

  /** The chunk's vectors, fetched once a chunk (reused) */
  private readonly vectors: Vector[] = [];
}

/** The most bytes of long strings a worker's chunk hands DuckDB as one string (duckdb_string_t's length is 32 bits); past it, one at a time. */
const POOL_MAX = 1 << 30;

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
  /** the names of the format adapters that read the source's records (null when none did) */
  adapter: string | null;
}

/** The attempts column of the source id. */
const SOURCE_ID = TABLES.attempts.findIndex((c) => c.name === "source_id");

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
    this.batches.attempts.row(attemptRow(this.attemptRow, id, origin, a));
    for (const e of a.events) this.event(id, e);
  }

  private event(attemptId: number, e: CanonicalEvent): void {
    this.batches.events.row(eventRow(this.eventRow, attemptId, e));
  }

  /** Hands out the next `count` attempt ids, for attempts whose rows a line worker gathered (appendGathered); returns the first. */
  takeAttemptIds(count: number): number {
    const first = this.nextAttemptId;
    this.nextAttemptId += count;
    return first;
  }

  /**
   * Appends attempts or events rows gathered in a line worker (packed.ts), their
   * attempt ids already written (takeAttemptIds), attempts of source `sourceId`
   * (written here, the worker knows no id), after every row gathered here
   * so far: the table's rows stay in the order they were applied.
   */
  appendGathered(sourceId: number, table: "attempts" | "events", columns: TableColumns, bytes: LongBytes): void {
    if (table === "attempts") columns.columns[SOURCE_ID].i32.fill(sourceId, 0, columns.rows);
    const batch = this.batches[table];
    batch.flush();
    batch.append(columns, bytes);
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
      sourceId,
      log.run_id,
      log.invocation,
      log.task,
      log.model,
      log.status,
      log.error_message,
      log.total_samples,
      log.completed_samples,
      log.incomplete,
      log.owed.length,
      dict.trials,
      dict.keys.length ? dict.keys.join(", ") : null,
      log.detail,
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
    for (const table of ["attempts", "rejects", "run_metadata", "masked_secrets", "run_logs", "owed_trials", "duplicate_keys"])
      await this.db.run(`DELETE FROM ${table} WHERE source_id = $id`, id);
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
