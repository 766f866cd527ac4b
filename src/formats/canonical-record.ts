/**
 * The canonical attempt record (docs/inputs.md, the canonical attempt record): its fields declared as data,
 * and the normaliser that turns an adapter's output into a typed row or a reject
 * reason. Format adapters (formats/*.ts) map a harness's record onto these field
 * names; this module is the only place that checks types.
 */
import { BigLiteral, plainNumber } from "../json-text.js";
import { parseTimestamp, typeName } from "./timestamps.js";

/**
 * How a field is read: `int` is a whole number that fits 32 bits, `bigint` one up
 * to 2^53 - 1 (token counts); `error` is text saying something failed, where
 * false, 0, "", [], {} and null mean nothing failed and true or 1 read as "true".
 */
export type FieldKind = "id" | "text" | "error" | "status" | "int" | "bigint" | "number" | "boolean" | "timestamp" | "fault" | "events";

/** One canonical field: its name, the aliases read when it is absent, its type and bounds. */
export interface FieldSpec {
  field: string;
  aliases?: string[];
  kind: FieldKind;
  required?: boolean;
  /** inclusive lower bound for int/number fields */
  min?: number;
  /** lower bound is exclusive (`timeout_limit_s > 0`) */
  exclusiveMin?: boolean;
  /** units and meaning, shown in the README's field table */
  doc: string;
  /** added after kept files were written: stored as the attempts table's last columns (ingest/load/loader.ts) */
  late?: true;
}

/** Every field of the canonical attempt record, in table column order. */
export const ATTEMPT_FIELDS: readonly FieldSpec[] = [
  { field: "run_id", kind: "id", doc: "run identity; records without it belong to the one default run" },
  { field: "task_id", aliases: ["instance_id", "sample_id", "id"], kind: "id", required: true, doc: "the task; an empty or blank id is a reject" },
  { field: "trial", aliases: ["epoch", "sample"], kind: "int", min: 0, doc: "independent repeat of the task (pass@k sample), default 0" },
  { field: "attempt", kind: "int", min: 1, doc: "retry number inside one trial, default 1; `retry` n is attempt n+1" },
  { field: "status", kind: "status", required: true, doc: "terminal state as written; mapped by the status aliases below" },
  { field: "status_detail", kind: "text", doc: "sub-state, e.g. external_api_error, wrong_format, safety_refusal" },
  { field: "fault", kind: "fault", doc: "explicit attribution: agent or environment" },
  { field: "submitted_at", kind: "timestamp", doc: "handed to the harness queue (ISO 8601, or an epoch number: s, ms, µs or ns by magnitude)" },
  { field: "started_at", kind: "timestamp", doc: "execution started" },
  { field: "ended_at", kind: "timestamp", doc: "execution ended" },
  { field: "timeout_limit_s", kind: "number", min: 0, exclusiveMin: true, doc: "time budget, seconds" },
  {
    field: "waiting_s",
    kind: "number",
    min: 0,
    late: true,
    doc: "time the attempt spent waiting inside its run (rate limits, shared resources), seconds; queue evidence for a timeout",
  },
  { field: "last_event", kind: "text", doc: "last thing the attempt did, when no events are given" },
  { field: "last_event_ts", kind: "timestamp", doc: "when last_event happened" },
  { field: "repeated_tool_calls", kind: "int", min: 0, doc: "longest run of identical calls, when no events are given" },
  { field: "llm_tokens", kind: "bigint", min: 0, doc: "LLM tokens used by the attempt" },
  { field: "tool_call_count", kind: "int", min: 0, doc: "tool calls made by the attempt" },
  { field: "cost_usd", kind: "number", min: 0, doc: "spend of this attempt, USD" },
  { field: "score", kind: "number", doc: "optional grade; never decides success on its own" },
  { field: "resolved", aliases: ["is_resolved"], kind: "boolean", doc: "the verifier passed, whatever the status (a late pass when the status is timeout)" },
  { field: "constraint_ok", kind: "boolean", doc: "false = a hard constraint was violated" },
  { field: "grader_error", kind: "error", doc: 'the grader failed; the attempt was not really graded (false, 0 and "" mean it did not fail)' },
  { field: "error_message", aliases: ["error"], kind: "error", doc: 'error text (false, 0 and "" mean no error)' },
  { field: "agent", kind: "id", doc: "grouping key" },
  { field: "model", kind: "id", doc: "grouping key" },
  { field: "category", kind: "id", doc: "grouping key" },
  { field: "difficulty", kind: "id", doc: "grouping key" },
  { field: "invocation", kind: "id", late: true, doc: "grouping key: the harness call or eval set the run belongs to (Inspect eval_set_id, else run_id)" },
  { field: "events", kind: "events", doc: "trajectory: [{ts, type|kind, name, args, status}] in order" },
];

/** One event of an attempt's trajectory, flattened for the events table. */
export interface CanonicalEvent {
  seq: number;
  ts: number | null;
  type: string | null;
  name: string | null;
  /** arguments as canonical JSON (keys sorted), so equal arguments compare equal in SQL */
  args: string | null;
  status: string | null;
}

/** A typed attempt row. Timestamps are epoch microseconds (UTC); durations seconds; cost USD. */
export interface CanonicalAttempt {
  run_id: string | null;
  task_id: string;
  trial: number;
  attempt: number;
  status: string;
  status_detail: string | null;
  fault: string | null;
  submitted_at: number | null;
  started_at: number | null;
  ended_at: number | null;
  timeout_limit_s: number | null;
  waiting_s: number | null;
  last_event: string | null;
  last_event_ts: number | null;
  repeated_tool_calls: number | null;
  llm_tokens: number | null;
  tool_call_count: number | null;
  cost_usd: number | null;
  score: number | null;
  resolved: boolean | null;
  constraint_ok: boolean | null;
  grader_error: string | null;
  error_message: string | null;
  agent: string | null;
  model: string | null;
  category: string | null;
  difficulty: string | null;
  invocation: string | null;
  events: CanonicalEvent[];
  /** timestamps in this record written without an offset (read as UTC) */
  naive_timestamps: number;
  /** fields not in ATTEMPT_FIELDS, as a JSON object text, or null */
  extra: string | null;
}

export type NormalizeResult = { attempt: CanonicalAttempt } | { error: string };

const KNOWN = new Set<string>(["retry"]);
for (const spec of ATTEMPT_FIELDS) {
  KNOWN.add(spec.field);
  for (const a of spec.aliases ?? []) KNOWN.add(a);
}

/**
 * The keys of the id fields (kind `id`) and their aliases: a line that writes one
 * of them as a number is read again for that number's text (src/json-text.ts
 * readLiterals), so `1.0`, `-0` and `1e0` stay ids of their own, as digits past
 * 2^53 do (docs/identity-and-inputs.md).
 */
export const ID_KEYS: ReadonlySet<string> = new Set(ATTEMPT_FIELDS.filter((f) => f.kind === "id").flatMap((f) => [f.field, ...(f.aliases ?? [])]));

class FieldError extends Error {}

/** Largest value of each whole-number kind: `int` is an INTEGER column, `bigint` a BIGINT one (exact in a JS number); undefined for the others. */
function maxWhole(kind: FieldKind): number | undefined {
  return kind === "int" ? 2_147_483_647 : kind === "bigint" ? Number.MAX_SAFE_INTEGER : undefined;
}

/**
 * ATTEMPT_FIELDS with every property present, so that all of them have one
 * object shape: normalizeAttempt reads `kind`, `field`, `required`... of each in
 * turn at the same places, which with eight shapes were megamorphic loads
 * (about a tenth of a line worker's time went to such loads).
 */
const FIELD_SPECS: readonly FieldSpec[] = ATTEMPT_FIELDS.map(uniformSpec);

function uniformSpec(f: FieldSpec): FieldSpec {
  return { field: f.field, aliases: f.aliases, kind: f.kind, required: f.required, min: f.min, exclusiveMin: f.exclusiveMin, doc: f.doc, late: f.late };
}

/** `retry` n is attempt n + 1. */
const RETRY_SPEC = uniformSpec({ field: "retry", kind: "int", min: 0, doc: "" });

const fieldIndex = (field: string) => ATTEMPT_FIELDS.findIndex((f) => f.field === field);
const TRIAL = fieldIndex("trial");
const ATTEMPT = fieldIndex("attempt");
const STARTED_AT = fieldIndex("started_at");
const ENDED_AT = fieldIndex("ended_at");

/**
 * The attempt whose fields are `v`, in ATTEMPT_FIELDS order, then
 * naive_timestamps and extra: written out as one object literal, so that the
 * fields are stored without a lookup by name (setting them by name in
 * a loop was a megamorphic store for each). Checked against ATTEMPT_FIELDS below.
 */
function attemptOf(v: readonly unknown[], naive: number, extra: string | null): CanonicalAttempt {
  return {
    run_id: v[0],
    task_id: v[1],
    trial: v[2],
    attempt: v[3],
    status: v[4],
    status_detail: v[5],
    fault: v[6],
    submitted_at: v[7],
    started_at: v[8],
    ended_at: v[9],
    timeout_limit_s: v[10],
    waiting_s: v[11],
    last_event: v[12],
    last_event_ts: v[13],
    repeated_tool_calls: v[14],
    llm_tokens: v[15],
    tool_call_count: v[16],
    cost_usd: v[17],
    score: v[18],
    resolved: v[19],
    constraint_ok: v[20],
    grader_error: v[21],
    error_message: v[22],
    agent: v[23],
    model: v[24],
    category: v[25],
    difficulty: v[26],
    invocation: v[27],
    events: v[28],
    naive_timestamps: naive,
    extra,
  } as CanonicalAttempt;
}

{
  // attemptOf puts each value under its own field's name, in the order of ATTEMPT_FIELDS
  const names = ATTEMPT_FIELDS.map((f) => f.field);
  const probe = attemptOf(names, 0, null) as unknown as Record<string, unknown>;
  const keys = Object.keys(probe);
  if (
    keys.length !== names.length + 2 ||
    names.some((n, i) => keys[i] !== n || probe[n] !== n) ||
    keys[names.length] !== "naive_timestamps" ||
    keys[names.length + 1] !== "extra"
  )
    throw new Error("canonical.ts: attemptOf does not follow ATTEMPT_FIELDS");
}

/** The values of the attempt being normalized, in ATTEMPT_FIELDS order (one array, reused: normalizeAttempt is never reentered). */
const values: unknown[] = ATTEMPT_FIELDS.map(() => null);

/**
 * Checks and types one record already keyed by canonical names (or their aliases).
 * Returns `{error}` naming the field for: a missing `task_id` or `status`, a value of
 * the wrong type or out of bounds, an unreadable timestamp, or `ended_at < started_at`;
 * and `{error}` for a value nested too deeply to be written back as JSON text.
 * Unknown fields are kept in `extra`, never a reject.
 */
export function normalizeAttempt(record: Record<string, unknown>): NormalizeResult {
  try {
    let naive = 0;
    for (let i = 0; i < FIELD_SPECS.length; i++) {
      const spec = FIELD_SPECS[i];
      const picked = pick(record, spec);
      // an integer beyond 2^53 keeps its text as an id; anywhere else it is its number
      const raw = spec.kind === "id" ? picked : plainNumber(picked);
      if (spec.kind === "events") {
        const events = readEvents(raw);
        values[i] = events.events;
        naive += events.naive;
        continue;
      }
      if (raw === undefined || raw === null) {
        if (spec.required) throw new FieldError(`${spec.field}: missing`);
        values[i] = null;
        continue;
      }
      if (spec.kind === "timestamp") {
        const t = parseTimestamp(raw);
        if ("error" in t) throw new FieldError(`${spec.field}: ${t.error}`);
        if (t.naive) naive++;
        values[i] = t.micros;
        continue;
      }
      values[i] = readScalar(spec, raw);
    }
    if (values[ATTEMPT] === null && record.retry !== undefined && record.retry !== null) {
      values[ATTEMPT] = (readScalar(RETRY_SPEC, record.retry) as number) + 1;
    }
    values[TRIAL] ??= 0;
    values[ATTEMPT] ??= 1;
    const start = values[STARTED_AT] as number | null;
    const end = values[ENDED_AT] as number | null;
    if (start !== null && end !== null && end < start) throw new FieldError(`ended_at is before started_at (${(start - end) / 1e6} s earlier)`);
    return { attempt: attemptOf(values, naive, extraFields(record)) };
  } catch (e) {
    if (e instanceof FieldError) return { error: e.message };
    // JSON.parse reads any depth, but turning a value of 100,000 nested arrays back into
    // text (extra, event arguments) overflows the stack: that record is a reject, not a crash
    if (e instanceof RangeError) return { error: `a value is nested too deeply to store (${e.message})` };
    throw e;
  }
}

/**
 * Checks one value against a field declaration, as normalizeAttempt checks the
 * canonical fields: for adapters whose harness names a field differently
 * (Terminal-Bench's `is_resolved`, `total_input_tokens`), so the reject names the
 * harness's field. Absent (undefined or null) is `{value: null}`, or an error
 * when required; a timestamp's value is epoch microseconds (UTC).
 */
export function readField(spec: FieldSpec, given: unknown): { value: unknown } | { error: string } {
  const raw = spec.kind === "id" ? given : plainNumber(given);
  if (raw === undefined || raw === null) return spec.required ? { error: `${spec.field}: missing` } : { value: null };
  if (spec.kind === "timestamp") {
    const t = parseTimestamp(raw);
    return "error" in t ? { error: `${spec.field}: ${t.error}` } : { value: t.micros };
  }
  try {
    return { value: readScalar(spec, raw) };
  } catch (e) {
    if (e instanceof FieldError) return { error: e.message };
    throw e;
  }
}

function pick(record: Record<string, unknown>, spec: FieldSpec): unknown {
  const direct = record[spec.field];
  if (direct !== undefined && direct !== null) return direct;
  const aliases = spec.aliases;
  if (aliases === undefined) return direct;
  for (let i = 0; i < aliases.length; i++) {
    const v = record[aliases[i]];
    if (v !== undefined && v !== null) return v;
  }
  return direct;
}

function readScalar(spec: FieldSpec, raw: unknown): unknown {
  switch (spec.kind) {
    case "id":
      if (typeof raw === "string") {
        // an empty name is no name: a task "" would be one task holding every such record
        if (spec.required && raw.trim() === "") throw new FieldError(`${spec.field}: empty (${JSON.stringify(raw)})`);
        return raw;
      }
      if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
      // written as a number too long for a double: the digits as written, never the rounded double
      if (raw instanceof BigLiteral) return raw.text;
      throw new FieldError(`${spec.field}: expected a string, got ${typeName(raw)}`);
    case "status":
      if (typeof raw === "string") return raw;
      throw new FieldError(`${spec.field}: expected a string, got ${typeName(raw)}`);
    case "text":
      return typeof raw === "string" ? raw : JSON.stringify(raw);
    case "error":
      return readError(raw);
    case "fault": {
      const v = typeof raw === "string" ? raw.trim().toLowerCase() : raw;
      if (v === "agent" || v === "environment") return v;
      throw new FieldError(`${spec.field}: expected "agent" or "environment", got ${JSON.stringify(raw)}`);
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === 0 || raw === 1) return raw === 1;
      throw new FieldError(`${spec.field}: expected true or false, got ${JSON.stringify(raw)}`);
    case "int":
    case "bigint":
    case "number": {
      const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isFinite(n)) throw new FieldError(`${spec.field}: expected a number, got ${JSON.stringify(raw)}`);
      const max = maxWhole(spec.kind);
      if (max !== undefined && !Number.isInteger(n)) throw new FieldError(`${spec.field}: expected a whole number, got ${n}`);
      if (max !== undefined && n > max) throw new FieldError(`${spec.field}: must be <= ${max}, got ${n}`);
      if (spec.min !== undefined && (spec.exclusiveMin ? n <= spec.min : n < spec.min))
        throw new FieldError(`${spec.field}: must be ${spec.exclusiveMin ? ">" : ">="} ${spec.min}, got ${n}`);
      return n;
    }
    default:
      throw new Error(`unhandled field kind ${spec.kind}`);
  }
}

/**
 * An `error` field: the text of what failed, or null when nothing did. Harnesses
 * write a flag as often as a message (`grader_error: false`), and the text
 * "false" would read as a failure: false, 0, "" (or blanks), [] and {} are
 * null; true and 1 are "true"; other values are kept as JSON text.
 */
function readError(raw: unknown): string | null {
  if (raw === false || raw === 0) return null;
  if (raw === true || raw === 1) return "true";
  if (typeof raw === "string") return raw.trim() === "" ? null : raw;
  if (Array.isArray(raw) && raw.length === 0) return null;
  if (typeof raw === "object" && raw !== null && Object.keys(raw).length === 0) return null;
  return JSON.stringify(raw);
}

function readEvents(raw: unknown): { events: CanonicalEvent[]; naive: number } {
  if (raw === undefined || raw === null) return { events: [], naive: 0 };
  if (!Array.isArray(raw)) throw new FieldError(`events: expected an array, got ${typeName(raw)}`);
  let naive = 0;
  const events = raw.map((e, seq): CanonicalEvent => {
    if (e === null || typeof e !== "object" || Array.isArray(e)) throw new FieldError(`events[${seq}]: expected an object, got ${typeName(e)}`);
    const ev = e as Record<string, unknown>;
    let ts: number | null = null;
    const rawTs = plainNumber(ev.ts ?? ev.timestamp);
    if (rawTs !== undefined && rawTs !== null) {
      const t = parseTimestamp(rawTs);
      if ("error" in t) throw new FieldError(`events[${seq}].ts: ${t.error}`);
      if (t.naive) naive++;
      ts = t.micros;
    }
    return {
      seq,
      ts,
      type: optText(ev.type ?? ev.kind),
      name: optText(ev.name),
      args: ev.args === undefined || ev.args === null ? null : canonicalJson(ev.args),
      status: optText(ev.status),
    };
  });
  return { events, naive };
}

function optText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** JSON text with object keys sorted at every level, so that equal values have equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      const v: unknown = value[i];
      out += v === undefined ? "null" : canonicalJson(v);
    }
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  // a plain object whose keys are already in order and whose values are plain (no object:
  // a BigLiteral is one, and JSON.stringify would write its number where this writes its
  // keys): JSON.stringify writes the same text, natively
  if (Object.getPrototypeOf(obj) === Object.prototype && sortedPrimitives(obj, keys)) return JSON.stringify(obj);
  sortKeys(keys);
  // built by concatenation, not parts.join: this runs for every event of every attempt
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const v = obj[key];
    if (v === undefined) continue;
    if (out.length > 1) out += ",";
    // a finite number's JSON text is its ToString (JSON.stringify writes non-finite ones as null)
    out += `${quotedKey(key)}:${typeof v === "string" ? JSON.stringify(v) : typeof v === "number" ? (Number.isFinite(v) ? String(v) : "null") : canonicalJson(v)}`;
  }
  return `${out}}`;
}

/** JSON.stringify(key), remembered for the first QUOTED_KEYS keys of at most 64 characters seen (event arguments repeat a few keys millions of times). */
function quotedKey(key: string): string {
  let q = quoted.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    if (quoted.size < QUOTED_KEYS && key.length <= 64) quoted.set(key, q);
  }
  return q;
}

const QUOTED_KEYS = 10_000;
const quoted = new Map<string, string>();

/** True when `keys` (of `obj`) are in sorted order and every value is a string, number, boolean or null. */
function sortedPrimitives(obj: Record<string, unknown>, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1] < keys[i])) return false;
    const v = obj[keys[i]];
    if (v === undefined || (typeof v === "object" && v !== null)) return false;
  }
  return true;
}

/**
 * Sorts keys in place as `Array.prototype.sort` does by default (UTF-16 code
 * units; keys are distinct), by insertion: objects here hold a few keys, for
 * which this is several times quicker.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
}

function extraFields(record: Record<string, unknown>): string | null {
  let extra: Record<string, unknown> | null = null;
  for (const key of Object.keys(record)) {
    if (KNOWN.has(key)) continue;
    (extra ??= {})[key] = record[key];
  }
  return extra === null ? null : JSON.stringify(extra);
}
