/**
 * Rows of a loaded table gathered column by column in the bytes DuckDB's
 * vectors hold (duckdb.h: 4-byte INTEGER, 8-byte BIGINT / TIMESTAMPTZ
 * microseconds / DOUBLE, 1-byte BOOLEAN, 16-byte `duckdb_string_t`; a validity
 * mask of one bit a row), so that a chunk of them is handed to DuckDB with one
 * copy per column (loader.ts). Pure JavaScript, no DuckDB: a line worker
 * (packed.ts) fills these columns too, and posts their one buffer to
 * the main thread, which copies it into DuckDB as it is. Also here: the order
 * of an attempts row and an events row (attemptRow, eventRow), one declaration
 * for both threads.
 */
import { TABLES, type Column, type SqlType } from "../../db/schema.js";
import { DenomError } from "../../errors.js";
import { ATTEMPT_FIELDS, type CanonicalAttempt, type CanonicalEvent, type FieldKind } from "../../formats/canonical-record.js";

/** A value of a loaded table's cell. */
export type Value = string | number | boolean | null;

/** Rows per data chunk: DuckDB's vector size. */
export const CHUNK_ROWS = 2048;

/** How a column's values are laid out in a DuckDB vector: 4-byte int, 8-byte int, double, 1-byte bool, 16-byte string_t. */
export const enum Layout {
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

/** Bytes a value of each layout takes in a vector. */
export const BYTES: Record<Layout, number> = { [Layout.Int32]: 4, [Layout.Int64]: 8, [Layout.Double]: 8, [Layout.Bool]: 1, [Layout.Str]: 16 };

/** The longest string DuckDB keeps inside its 16-byte string_t (duckdb.h `duckdb_string_t`: length, then 12 bytes inlined). */
const INLINE_MAX = 12;

const TWO_32 = 2 ** 32;

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * One column of a chunk being gathered: its values at `dataOffset` of the
 * table's buffer, its validity bits at `validOffset` (little-endian 64-bit
 * words, as DuckDB's mask).
 */
export interface ColumnBuffer {
  layout: Layout;
  dataOffset: number;
  validOffset: number;
  data: Uint8Array;
  i32: Int32Array;
  u32: Uint32Array;
  f64: Float64Array;
  valid: Uint8Array;
}

/**
 * The rows of one table (columns as `spec`) for one data chunk of at most
 * `capacity` rows, all columns in one ArrayBuffer (so a worker posts it with
 * one transfer; `buffer` given: the columns of a posted one, read in place).
 * A string of at most 12 ASCII characters is written inline; a longer one is
 * listed in `long` (its slot is written by DuckDB, which copies the string
 * into the vector's heap: loader.ts). Values are checked before they get here
 * (`row`), or as they are written (`checkedRow`); a whole number must be exact
 * in a JS number.
 */
export class TableColumns {
  readonly buffer: ArrayBuffer;
  readonly columns: ColumnBuffer[];
  rows = 0;
  /** the strings not inlined, in the order written (so rows ascending): their column, row and text */
  readonly long: LongStrings = { columns: [], rows: [], strings: [] };
  /** The JS type (`typeof`) of each column's values (null apart), for checkedRow. */
  private readonly kinds: readonly string[];

  constructor(
    readonly spec: readonly Column[],
    readonly capacity = CHUNK_ROWS,
    buffer?: ArrayBuffer,
  ) {
    let size = 0;
    const offsets = spec.map((c) => {
      const layout = LAYOUT[c.type];
      const dataOffset = size;
      size += align8(capacity * BYTES[layout]);
      const validOffset = size;
      size += align8(Math.ceil(capacity / 8));
      return { layout, dataOffset, validOffset };
    });
    this.kinds = spec.map((c) => (c.type === "VARCHAR" ? "string" : c.type === "BOOLEAN" ? "boolean" : "number"));
    if (buffer && buffer.byteLength !== size) throw new Error(`a chunk of ${capacity} rows takes ${size} bytes, not ${buffer.byteLength}`);
    this.buffer = buffer ?? new ArrayBuffer(size);
    const bytesOf = this.buffer;
    this.columns = offsets.map(({ layout, dataOffset, validOffset }) => {
      const bytes = capacity * BYTES[layout];
      const words4 = layout === Layout.Bool ? 0 : bytes / 4;
      const words8 = layout === Layout.Int64 || layout === Layout.Double || layout === Layout.Str ? bytes / 8 : 0;
      return {
        layout,
        dataOffset,
        validOffset,
        data: new Uint8Array(bytesOf, dataOffset, bytes),
        i32: new Int32Array(bytesOf, dataOffset, words4),
        u32: new Uint32Array(bytesOf, dataOffset, words4),
        f64: new Float64Array(bytesOf, dataOffset, words8),
        valid: new Uint8Array(bytesOf, validOffset, Math.ceil(capacity / 8)),
      };
    });
  }

  get full(): boolean {
    return this.rows === this.capacity;
  }

  /** Rows that can still be added. */
  get room(): number {
    return this.capacity - this.rows;
  }

  /** Adds one row (values in column order). */
  row(values: readonly Value[]): void {
    const r = this.rows++;
    const columns = this.columns;
    for (let c = 0; c < columns.length; c++) this.set(c, r, values[c]);
  }

  /**
   * Adds one row whose values are checked as they are written (a string, a
   * boolean or a number by the column's type, or null); false,
   * the row left half written, at the first that does not fit its column (truncate it).
   */
  checkedRow(values: readonly Value[]): boolean {
    const r = this.rows++;
    const kinds = this.kinds;
    for (let c = 0; c < kinds.length; c++) {
      const v = values[c];
      if (v !== null && typeof v !== kinds[c]) return false;
      this.set(c, r, v);
    }
    return true;
  }

  /** Drops the rows from `rows` on (their bytes are written over by the next rows). */
  truncate(rows: number): void {
    this.rows = rows;
    const long = this.long;
    let n = long.rows.length;
    while (n > 0 && long.rows[n - 1] >= rows) n--;
    long.columns.length = long.rows.length = long.strings.length = n;
  }

  /** Forgets every row, to gather the next chunk in the same buffer. */
  clear(): void {
    this.truncate(0);
  }

  private set(c: number, r: number, v: Value | undefined): void {
    const col = this.columns[c];
    const bit = 1 << (r & 7);
    if (v === null || v === undefined) {
      col.valid[r >> 3] &= ~bit;
      // a null string's slot holds an empty inlined string, never a stale one's pointer
      // (four stores: TypedArray fill is a builtin call, about a tenth of a worker's row writing)
      if (col.layout === Layout.Str) {
        const u32 = col.u32;
        u32[4 * r] = u32[4 * r + 1] = u32[4 * r + 2] = u32[4 * r + 3] = 0;
      }
      return;
    }
    col.valid[r >> 3] |= bit;
    switch (col.layout) {
      case Layout.Int32:
        col.i32[r] = v as number;
        return;
      case Layout.Int64:
        setInt64(col, r, v as number);
        return;
      case Layout.Double:
        col.f64[r] = v as number;
        return;
      case Layout.Bool:
        col.data[r] = v ? 1 : 0;
        return;
      default:
        if (setShortString(col, r, v as string)) return;
        this.long.columns.push(c);
        this.long.rows.push(r);
        this.long.strings.push(v as string);
    }
  }
}

/** A chunk's strings too long to inline, one entry per string, in the order written. */
export interface LongStrings {
  columns: number[];
  rows: number[];
  strings: string[];
}

/**
 * LongStrings as UTF-8 bytes, for the trip between threads (their buffers
 * transferred, no string copied): entry k is `bytes` from `ends[k - 1]` (0
 * for the first) to `ends[k]`, at column `columns[k]`, row `rows[k]`.
 */
export interface LongBytes {
  columns: Int32Array;
  rows: Int32Array;
  ends: Int32Array;
  bytes: ArrayBuffer;
}

/** `long` encoded as LongBytes (UTF-8, as DuckDB would encode the strings). */
export function longBytes(long: LongStrings): LongBytes {
  const pool = long.strings.join("");
  const size = Buffer.byteLength(pool, "utf8");
  const bytes = Buffer.allocUnsafeSlow(size); // its own ArrayBuffer, whole: transferred as it is
  bytes.write(pool, 0, "utf8");
  const ends = new Int32Array(long.strings.length);
  const ascii = size === pool.length; // then each string's bytes are its characters
  let end = 0;
  for (let k = 0; k < ends.length; k++) ends[k] = end += ascii ? long.strings[k].length : Buffer.byteLength(long.strings[k], "utf8");
  return { columns: new Int32Array(long.columns), rows: new Int32Array(long.rows), ends, bytes: bytes.buffer as ArrayBuffer };
}

/**
 * Writes the `duckdb_string_t` of every string of `long` into its slot of
 * `columns`: its length, and its bytes inlined when 12 or fewer, else its first
 * 4 bytes and the address of its bytes, `base` (the address of a copy of
 * `long.bytes` that DuckDB holds: loader.ts) plus its start. `base` is a
 * 64-bit address as its two 32-bit halves.
 */
export function setLongSlots(columns: TableColumns, long: LongBytes, baseLo: number, baseHi: number): void {
  const bytes = new Uint8Array(long.bytes);
  const { columns: cs, rows, ends } = long;
  for (let k = 0, start = 0; k < cs.length; start = ends[k++]) {
    const col = columns.columns[cs[k]];
    const r = rows[k];
    const n = ends[k] - start;
    const data = col.data;
    const at = r * 16 + 4;
    col.u32[4 * r] = n;
    if (n <= INLINE_MAX) {
      for (let i = 0; i < INLINE_MAX; i++) data[at + i] = i < n ? bytes[start + i] : 0;
      continue;
    }
    for (let i = 0; i < 4; i++) data[at + i] = bytes[start + i];
    const lo = baseLo + start;
    const carry = lo >= TWO_32 ? 1 : 0;
    col.u32[4 * r + 2] = lo - carry * TWO_32;
    col.u32[4 * r + 3] = baseHi + carry;
  }
}

/** Writes the whole number `n` (exact: at most 2^53 in magnitude) as a little-endian 64-bit integer at row `r`. */
export function setInt64(col: ColumnBuffer, r: number, n: number): void {
  const hi = Math.floor(n / TWO_32);
  col.u32[2 * r] = n - hi * TWO_32;
  col.i32[2 * r + 1] = hi;
}

/** The 64-bit integer at row `r` (written by setInt64) as a JS number. */
export function getInt64(col: ColumnBuffer, r: number): number {
  return col.i32[2 * r + 1] * TWO_32 + col.u32[2 * r];
}

/**
 * Writes a string of at most 12 ASCII characters inline (length, bytes, zeros:
 * DuckDB compares the 12 bytes whole) and returns true; false (nothing
 * written) for any other, which DuckDB writes.
 */
function setShortString(col: ColumnBuffer, r: number, s: string): boolean {
  const n = s.length;
  if (n > INLINE_MAX) return false;
  const data = col.data;
  const at = r * 16 + 4;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return false;
    data[at + i] = c;
  }
  col.u32[4 * r] = n;
  for (let i = n; i < INLINE_MAX; i++) data[at + i] = 0;
  return true;
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

/** The canonical fields stored as attempts columns (events go to their own table). */
const ATTEMPT_VALUE_SPECS = ATTEMPT_FIELDS.filter((f) => f.kind !== "events" && !f.late);
/** Fields added after files were written (FieldSpec.late): the attempts table's last columns, so a kept file gains them (db/stored.ts). */
const LATE_ATTEMPT_SPECS = ATTEMPT_FIELDS.filter((f) => f.kind !== "events" && f.late);

/**
 * The attempts columns filled from the canonical fields: after the 6 origin
 * columns, before the 4 counts; then the late ones after the counts.
 */
const ATTEMPT_VALUE_COLUMNS = TABLES.attempts.slice(6, -4 - LATE_ATTEMPT_SPECS.length);
const LATE_ATTEMPT_COLUMNS = TABLES.attempts.slice(TABLES.attempts.length - LATE_ATTEMPT_SPECS.length);
const follows = (columns: readonly Column[], specs: typeof ATTEMPT_VALUE_SPECS) =>
  columns.length === specs.length &&
  specs.every((f, i) => columns[i].name === columnName(f.field) && columns[i].type === SQL_TYPE[f.kind as Exclude<FieldKind, "events">]);
if (!follows(ATTEMPT_VALUE_COLUMNS, ATTEMPT_VALUE_SPECS) || !follows(LATE_ATTEMPT_COLUMNS, LATE_ATTEMPT_SPECS))
  throw new DenomError("src/db/schema.ts: the attempts columns do not follow the canonical fields of src/formats/canonical-record.ts");

const ATTEMPT_VALUE_FIELDS = ATTEMPT_VALUE_SPECS.map((f) => f.field as keyof CanonicalAttempt);
const LATE_ATTEMPT_FIELDS = LATE_ATTEMPT_SPECS.map((f) => f.field as keyof CanonicalAttempt);

/** Where an attempt came from. */
export interface AttemptOrigin {
  sourceId: number;
  line: number;
  location: string | null;
  format: string;
  lineHash: string;
  nonFinite: number;
}

/**
 * Writes the attempts row of `a` (id `id`, from `origin`) into `values`, in
 * TABLES.attempts order. Each field is read by its own name, written out
 * (checked against ATTEMPT_VALUE_FIELDS below): read by a name that changes
 * from one field to the next, each was a megamorphic load.
 */
export function attemptRow(values: Value[], id: number, origin: AttemptOrigin, a: CanonicalAttempt): Value[] {
  values[0] = id;
  values[1] = origin.sourceId;
  values[2] = origin.line;
  values[3] = origin.location;
  values[4] = origin.format;
  values[5] = origin.lineHash;
  values[6] = a.run_id;
  values[7] = a.task_id;
  values[8] = a.trial;
  values[9] = a.attempt;
  values[10] = a.status;
  values[11] = a.status_detail;
  values[12] = a.fault;
  values[13] = a.submitted_at;
  values[14] = a.started_at;
  values[15] = a.ended_at;
  values[16] = a.timeout_limit_s;
  values[17] = a.last_event;
  values[18] = a.last_event_ts;
  values[19] = a.repeated_tool_calls;
  values[20] = a.llm_tokens;
  values[21] = a.tool_call_count;
  values[22] = a.cost_usd;
  values[23] = a.score;
  values[24] = a.resolved;
  values[25] = a.constraint_ok;
  values[26] = a.grader_error;
  values[27] = a.error_message;
  values[28] = a.agent;
  values[29] = a.model;
  values[30] = a.category;
  values[31] = a.difficulty;
  values[32] = a.events.length;
  values[33] = a.naive_timestamps;
  values[34] = origin.nonFinite;
  values[35] = a.extra;
  values[36] = a.waiting_s;
  values[37] = a.invocation;
  return values;
}

{
  // attemptRow reads the fields in ATTEMPT_VALUE_FIELDS order, then the counts and extra, then LATE_ATTEMPT_FIELDS
  const probe = Object.fromEntries(
    [...ATTEMPT_VALUE_FIELDS, ...LATE_ATTEMPT_FIELDS, "naive_timestamps", "extra"].map((f) => [f, f]),
  ) as unknown as CanonicalAttempt;
  probe.events = [];
  const row = attemptRow(
    TABLES.attempts.map(() => null),
    0,
    { sourceId: 0, line: 0, location: null, format: "", lineHash: "", nonFinite: 0 },
    probe,
  );
  const expected = [0, 0, 0, null, "", "", ...ATTEMPT_VALUE_FIELDS, 0, "naive_timestamps", 0, "extra", ...LATE_ATTEMPT_FIELDS];
  if (row.length !== TABLES.attempts.length || row.length !== expected.length || expected.some((v, i) => row[i] !== v))
    throw new DenomError("src/ingest/load/columns.ts: attemptRow does not follow the attempts columns");
}

/** Writes the events row of `e` (of attempt `attemptId`) into `values`, in TABLES.events order. */
export function eventRow(values: Value[], attemptId: number, e: CanonicalEvent): Value[] {
  values[0] = attemptId;
  values[1] = e.seq;
  values[2] = e.ts;
  values[3] = e.type;
  values[4] = e.name;
  values[5] = e.args;
  values[6] = e.status;
  return values;
}
