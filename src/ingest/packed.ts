/**
 * Prepared units in columns, for the trip from a line worker to the main
 * thread (issue 20). Posting PreparedUnit objects costs the main thread more
 * than reading the lines itself (structured clone of tens of small objects a
 * record: measured in docs/benchmarks.md); so the common unit (a record whose
 * adapter was detected, with its attempts, nothing masked, repeated or
 * rejected) is written as three flat streams: every string into one pooled
 * string with its lengths, every number into a Float64Array with a null flag,
 * every boolean into a byte. Any other unit (and any value of an unexpected
 * type) is posted as its PreparedUnit object. The main thread reads the
 * streams back into reused objects (PackReader), applied at once.
 */
import { ATTEMPT_FIELDS, type CanonicalAttempt, type CanonicalEvent } from "./canonical.js";
import type { Detection } from "./formats/index.js";
import type { PreparedUnit } from "./prepare.js";

type Slot = "s" | "n" | "b";

/** The value slots of an attempt, in order: its fields (events apart), then naive_timestamps and extra. */
const SLOTS: readonly (readonly [string, Slot])[] = [
  ...ATTEMPT_FIELDS.filter((f) => f.kind !== "events").map((f) => {
    const slot: Slot = f.kind === "boolean" ? "b" : f.kind === "int" || f.kind === "bigint" || f.kind === "number" || f.kind === "timestamp" ? "n" : "s";
    return [f.field, slot] as const;
  }),
  ["naive_timestamps", "n"],
  ["extra", "s"],
];
/** SLOTS as two plain arrays, for the loops run once a value */
const SLOT_FIELDS = SLOTS.map(([field]) => field);
const SLOT_KINDS = SLOTS.map(([, slot]) => slot);

/** The streams of one block, as posted (their buffers transferred). */
export interface Packed {
  /** every string, one after another */
  pool: string;
  /** each string's length in `pool` (UTF-16 units), -1 for null */
  lengths: Int32Array;
  numbers: Float64Array;
  /** 1 when numbers[i] is null */
  nulls: Uint8Array;
  /** 0 false, 1 true, 2 null */
  booleans: Uint8Array;
  /** the adapter names the units name, by index */
  formats: string[];
}

/** A typed array that grows. */
class Grow<T extends Int32Array | Float64Array | Uint8Array> {
  n = 0;
  constructor(
    public a: T,
    private readonly make: (n: number) => T,
  ) {}

  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }

  /** The values written (a view: the buffer, whole, is transferred). */
  done(): T {
    return this.a.subarray(0, this.n) as T;
  }
}

/** Writes units into the streams; `unit` refuses (writing nothing) a unit the streams cannot carry. */
export class PackWriter {
  private parts: string[] = [];
  private readonly lengths = new Grow(new Int32Array(1024), (n) => new Int32Array(n));
  private readonly numbers = new Grow(new Float64Array(1024), (n) => new Float64Array(n));
  private readonly nulls = new Grow(new Uint8Array(1024), (n) => new Uint8Array(n));
  private readonly booleans = new Grow(new Uint8Array(256), (n) => new Uint8Array(n));
  private readonly formats: string[] = [];
  private ok = true;

  /** Writes `p` and returns true, or returns false (nothing written) when it must travel as an object. */
  unit(p: PreparedUnit): boolean {
    const d = p.detection;
    const plan = p.plan;
    if (p.text !== null || p.duplicateKeys || p.masked || p.location !== null || !d || d.format === null || d.keys !== null || d.format !== p.adapter) return false;
    if (plan.kind !== "attempts" || plan.error !== null || plan.dictTrials !== 0 || plan.dictKeys.length || plan.lineHash === null) return false;
    const mark = [this.parts.length, this.lengths.n, this.numbers.n, this.booleans.n];
    this.ok = true;
    let f = this.formats.indexOf(d.format);
    if (f === -1) f = this.formats.push(d.format) - 1;
    this.num(f);
    this.num(d.hit ? 1 : 0);
    this.num(p.nonFinite);
    this.str(plan.lineHash);
    this.num(plan.attempts.length);
    for (const a of plan.attempts) {
      const r = a as unknown as Record<string, unknown>;
      for (let i = 0; i < SLOT_FIELDS.length; i++) this.value(SLOT_KINDS[i], r[SLOT_FIELDS[i]]);
      const events = a.events;
      if (!Array.isArray(events)) this.ok = false;
      else {
        this.num(events.length);
        for (const e of events) {
          this.value("n", e.seq);
          this.value("n", e.ts);
          this.value("s", e.type);
          this.value("s", e.name);
          this.value("s", e.args);
          this.value("s", e.status);
        }
      }
      if (!this.ok) break;
    }
    if (this.ok) return true;
    this.parts.length = mark[0];
    this.lengths.n = mark[1];
    this.numbers.n = this.nulls.n = mark[2];
    this.booleans.n = mark[3];
    return false;
  }

  private value(slot: Slot, v: unknown): void {
    if (slot === "s") {
      if (v === null) this.lengths.push(-1);
      else if (typeof v === "string") this.str(v);
      else this.ok = false;
    } else if (slot === "n") {
      if (v === null) {
        this.numbers.push(0);
        this.nulls.push(1);
      } else if (typeof v === "number") this.num(v);
      else this.ok = false;
    } else if (v === null) this.booleans.push(2);
    else if (typeof v === "boolean") this.booleans.push(v ? 1 : 0);
    else this.ok = false;
  }

  private str(s: string): void {
    this.parts.push(s);
    this.lengths.push(s.length);
  }

  private num(n: number): void {
    this.numbers.push(n);
    this.nulls.push(0);
  }

  /** The streams written, and their buffers to transfer. */
  finish(): { packed: Packed; transfer: ArrayBuffer[] } {
    const packed: Packed = {
      pool: this.parts.join(""),
      lengths: this.lengths.done(),
      numbers: this.numbers.done(),
      nulls: this.nulls.done(),
      booleans: this.booleans.done(),
      formats: this.formats,
    };
    return { packed, transfer: [packed.lengths.buffer, packed.numbers.buffer, packed.nulls.buffer, packed.booleans.buffer] as ArrayBuffer[] };
  }
}

/**
 * Reads the units of one block's streams back, in the order written. The
 * PreparedUnit it returns, its attempts and their events are reused by the
 * next call: apply each before reading the next (a unit read here always has
 * its adapter detected, so it is never held back).
 */
export class PackReader {
  private pos = 0;
  private s = 0;
  private n = 0;
  private b = 0;
  private readonly detections = new Map<string, Detection>();
  private readonly attempts: CanonicalAttempt[] = [];
  private readonly events: CanonicalEvent[] = [];
  private readonly unit: PreparedUnit = {
    line: 0,
    location: null,
    nonFinite: 0,
    text: null,
    duplicateKeys: null,
    masked: null,
    detection: null,
    adapter: "",
    plan: { kind: "attempts", dictTrials: 0, dictKeys: [], error: null, attempts: [], lineHash: null },
  };

  constructor(private readonly p: Packed) {}

  /** The next unit, numbered `line`. */
  next(line: number): PreparedUnit {
    const u = this.unit;
    const format = this.p.formats[this.num() as number];
    const hit = this.num() === 1;
    const key = `${hit ? 1 : 0}${format}`;
    let d = this.detections.get(key);
    if (!d) this.detections.set(key, (d = { format, hit, keys: null }));
    u.line = line;
    u.detection = d;
    u.adapter = format;
    u.nonFinite = this.num() as number;
    const plan = u.plan as Extract<PreparedUnit["plan"], { kind: "attempts" }>;
    plan.lineHash = this.str();
    const count = this.num() as number;
    const list: CanonicalAttempt[] = [];
    let ev = 0;
    for (let i = 0; i < count; i++) {
      const a = (this.attempts[i] ??= {} as CanonicalAttempt) as unknown as Record<string, unknown>;
      for (let k = 0; k < SLOT_FIELDS.length; k++) {
        const slot = SLOT_KINDS[k];
        a[SLOT_FIELDS[k]] = slot === "s" ? this.str() : slot === "n" ? this.num() : this.bool();
      }
      const n = this.num() as number;
      const events: CanonicalEvent[] = [];
      for (let j = 0; j < n; j++) {
        const e = (this.events[ev++] ??= { seq: 0, ts: null, type: null, name: null, args: null, status: null });
        e.seq = this.num() as number;
        e.ts = this.num();
        e.type = this.str();
        e.name = this.str();
        e.args = this.str();
        e.status = this.str();
        events.push(e);
      }
      (a as unknown as CanonicalAttempt).events = events;
      list.push(a as unknown as CanonicalAttempt);
    }
    plan.attempts = list;
    return u;
  }

  private str(): string | null {
    const len = this.p.lengths[this.s++];
    if (len === -1) return null;
    const at = this.pos;
    this.pos += len;
    return this.p.pool.slice(at, this.pos);
  }

  private num(): number | null {
    const i = this.n++;
    return this.p.nulls[i] === 1 ? null : this.p.numbers[i];
  }

  private bool(): boolean | null {
    const v = this.p.booleans[this.b++];
    return v === 2 ? null : v === 1;
  }
}
