/**
 * Prepared units gathered into table rows in a line worker, for the trip to
 * the main thread. Posting PreparedUnit objects costs the main
 * thread more than reading the lines itself (structured clone of tens of
 * small objects a record: docs/benchmarks.md), and reading them back into
 * objects only to write their values into DuckDB's vectors cost it as much
 * again; so the common unit (a record whose adapter was detected, with its
 * attempts, nothing masked, repeated or rejected) is written by the worker
 * straight into attempts and events rows in the bytes of DuckDB's vectors
 * (columns.ts TableColumns), which the main thread appends as they are. What
 * only the main thread knows is filled in there: the attempt ids (column 0 of
 * both tables holds, from the worker, the attempt's ordinal among the block's
 * packed attempts) and the source id. Any other unit (and any value of an
 * unexpected type) is posted as its PreparedUnit object; a chunk of rows ends
 * before each such unit, so the main thread appends every row in the order
 * the units are applied, as in one thread.
 */
import { TABLES } from "../../db/schema.js";
import type { CanonicalAttempt } from "../../formats/canonical-record.js";
import { attemptRow, CHUNK_ROWS, eventRow, getInt64, longBytes, setInt64, TableColumns, type AttemptOrigin, type LongBytes, type Value } from "./columns.js";
import type { Detection } from "../../formats/index.js";
import { runOfFile, type PreparedUnit } from "./prepare.js";

/** The tables whose rows a worker gathers. */
export type GatheredTable = "attempts" | "events";

/** One chunk of rows gathered in a worker, as posted (its buffers transferred). */
export interface PackedChunk {
  table: GatheredTable;
  /** rows the buffer was laid out for (TableColumns capacity) */
  capacity: number;
  rows: number;
  buffer: ArrayBuffer;
  /** the strings not inlined, as UTF-8 */
  long: LongBytes;
  /** the ordinal (among the block's packed attempts) past the last one this chunk's rows belong to */
  endOrdinal: number;
}

/** What a block's packed units are, as posted. */
export interface Packed {
  /** per packed unit, in order: its Detection (index in `formats` times 2, plus 1 when `hit`), its attempts, its NaN / Infinity tokens */
  units: Int32Array;
  /** the adapter names the units name, by index */
  formats: string[];
  chunks: PackedChunk[];
}

/** What the worker knows of the source beyond PrepareContext: `--run-per-file` and the name it prefixes. */
export interface PackContext {
  source: string;
  runPerFile: boolean;
}

/** Gathers a block's packable units into rows; `unit` refuses (writing nothing) a unit that must travel as its object. */
export class PackWriter {
  private attempts: TableColumns | null = null;
  private events: TableColumns | null = null;
  private readonly chunks: PackedChunk[] = [];
  private readonly units: number[] = [];
  private readonly formats: string[] = [];
  /** packed attempts so far */
  private ordinal = 0;
  private readonly attemptValues: Value[] = TABLES.attempts.map(() => null);
  private readonly eventValues: Value[] = TABLES.events.map(() => null);
  private readonly origin: AttemptOrigin = { sourceId: 0, line: 0, location: null, format: "", lineHash: "", nonFinite: 0 };

  /** `attemptRows`: the rows the block's first attempts chunk is laid out for (about its lines: most lines are one attempt). */
  constructor(
    private readonly context: PackContext,
    private readonly attemptRows = CHUNK_ROWS,
  ) {}

  /** Writes the rows of `p` and returns true, or returns false (nothing written) when it must travel as an object. */
  unit(p: PreparedUnit): boolean {
    const d = p.detection;
    const plan = p.plan;
    if (p.text !== null || p.duplicateKeys || p.masked || p.location !== null || !d || d.format === null || d.keys !== null || d.format !== p.adapter)
      return this.refuse();
    if (plan.kind !== "attempts" || plan.error !== null || plan.dictTrials !== 0 || plan.dictKeys.length || plan.lineHash === null || plan.attemptHashes)
      return this.refuse();
    let events = 0;
    for (const a of plan.attempts) {
      if (!Array.isArray(a.events)) return this.refuse();
      events += a.events.length;
    }
    // the unit's rows go into one chunk of each table, so that a value of an unexpected type takes them all back
    if (plan.attempts.length > CHUNK_ROWS || events > CHUNK_ROWS) return this.refuse();
    const attempts = plan.attempts.length ? this.open("attempts", plan.attempts.length) : null;
    const eventRows = events ? this.open("events", events) : null;
    const marks = [attempts?.rows ?? 0, eventRows?.rows ?? 0];
    const origin = this.origin;
    origin.line = p.line;
    origin.format = d.format;
    origin.lineHash = plan.lineHash;
    origin.nonFinite = p.nonFinite;
    for (let i = 0; i < plan.attempts.length; i++) {
      const a = plan.attempts[i];
      const ordinal = this.ordinal + i;
      let fits = attempts!.checkedRow(this.attemptValuesOf(a, ordinal));
      for (let j = 0; fits && j < a.events.length; j++) fits = eventRows!.checkedRow(eventRow(this.eventValues, ordinal, a.events[j]));
      if (!fits) {
        attempts!.truncate(marks[0]);
        eventRows?.truncate(marks[1]);
        return this.refuse();
      }
    }
    this.ordinal += plan.attempts.length;
    let f = this.formats.indexOf(d.format);
    if (f === -1) f = this.formats.push(d.format) - 1;
    this.units.push(f * 2 + (d.hit ? 1 : 0), plan.attempts.length, p.nonFinite);
    if (attempts?.full) this.close("attempts");
    if (eventRows?.full) this.close("events");
    return true;
  }

  /** The attempts row of `a` with `ordinal` in the id's place; under `--run-per-file`, its run is the file's (ingest.ts does the same to the attempts it loads). */
  private attemptValuesOf(a: CanonicalAttempt, ordinal: number): Value[] {
    const values = attemptRow(this.attemptValues, ordinal, this.origin, a);
    if (this.context.runPerFile) values[RUN_ID] = runOfFile(this.context.source, a.run_id);
    return values;
  }

  /** The rows and units written, and the buffers to transfer. */
  finish(): { packed: Packed; transfer: ArrayBuffer[] } {
    this.close("attempts");
    this.close("events");
    const packed: Packed = { units: new Int32Array(this.units), formats: this.formats, chunks: this.chunks };
    const transfer = [packed.units.buffer as ArrayBuffer];
    for (const c of this.chunks)
      transfer.push(c.buffer, c.long.bytes, c.long.columns.buffer as ArrayBuffer, c.long.rows.buffer as ArrayBuffer, c.long.ends.buffer as ArrayBuffer);
    return { packed, transfer };
  }

  /** A unit that travels as its object: the rows before it are chunks of their own, so that they are appended before its rows. */
  private refuse(): false {
    this.close("attempts");
    this.close("events");
    return false;
  }

  /** The table's open chunk, with room for `rows` more (a full one is posted, a new one begun). */
  private open(table: GatheredTable, rows: number): TableColumns {
    let columns = table === "attempts" ? this.attempts : this.events;
    if (columns !== null && columns.room >= rows) return columns;
    this.close(table);
    // an attempts chunk of about the block's lines left (most lines are one attempt), at least 64 rows
    const capacity = table === "attempts" ? Math.min(CHUNK_ROWS, Math.max(64, rows, this.attemptRows - this.ordinal)) : CHUNK_ROWS;
    columns = new TableColumns(TABLES[table], capacity);
    if (table === "attempts") this.attempts = columns;
    else this.events = columns;
    return columns;
  }

  private close(table: GatheredTable): void {
    const columns = table === "attempts" ? this.attempts : this.events;
    if (columns === null) return;
    if (table === "attempts") this.attempts = null;
    else this.events = null;
    if (columns.rows === 0) return;
    this.chunks.push({
      table,
      capacity: columns.capacity,
      rows: columns.rows,
      buffer: columns.buffer,
      long: longBytes(columns.long),
      // the attempt of the chunk's last row, and all before it
      endOrdinal: getInt64(columns.columns[0], columns.rows - 1) + 1,
    });
  }
}

/** The attempts column of run_id (a `--run-per-file` run is the worker's to write). */
const RUN_ID = TABLES.attempts.findIndex((c) => c.name === "run_id");

/**
 * The rows of a posted chunk, read in place (columns.ts TableColumns over its
 * buffer), with column 0 (the attempt's ordinal, from the worker) replaced by
 * the attempt id `ids[ordinal]` (the source id is the loader's to write). Null
 * when the chunk's attempts were not loaded (ids -1: the source gave up on its
 * format before any was; then none of its attempts ever is).
 */
export function gatheredRows(chunk: PackedChunk, ids: ArrayLike<number>): TableColumns | null {
  const columns = new TableColumns(TABLES[chunk.table], chunk.capacity, chunk.buffer);
  columns.rows = chunk.rows;
  const idColumn = columns.columns[0];
  let dropped = 0;
  for (let r = 0; r < chunk.rows; r++) {
    const id = ids[getInt64(idColumn, r)];
    if (id === -1) dropped++;
    else setInt64(idColumn, r, id);
  }
  if (dropped === chunk.rows) return null;
  if (dropped) throw new Error("a chunk of gathered rows holds attempts both loaded and not");
  return columns;
}

/** Reads a block's packed units back, in the order written: each one's Detection (reused objects), attempts and NaN / Infinity tokens. */
export class PackedUnits {
  private i = 0;
  private readonly detections = new Map<number, Detection>();

  constructor(private readonly p: Packed) {}

  /** The next unit. */
  next(): { detection: Detection; attempts: number; nonFinite: number } {
    const u = this.p.units;
    const code = u[this.i];
    let detection = this.detections.get(code);
    if (!detection) this.detections.set(code, (detection = { format: this.p.formats[code >> 1], hit: (code & 1) === 1, keys: null }));
    const r = { detection, attempts: u[this.i + 1], nonFinite: u[this.i + 2] };
    this.i += 3;
    return r;
  }
}
