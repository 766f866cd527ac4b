/**
 * The loader (DESIGN section 1): DuckDB appenders into the tables of
 * src/db/schema.ts (`sources`, `attempts`, `events`, `rejects`,
 * `run_metadata`, `run_logs`, `owed_trials`, `skipped_files`, `duplicate_keys`, `masked_secrets`).
 */
import type { DuckDBAppender, DuckDBType } from "@duckdb/node-api";
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
    for (const f of LATE_ATTEMPT_FIELDS) values.push(a[f] as Value);
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
