/**
 * Timestamp parsing (DESIGN section 6). Pure functions, no Date parsing of
 * free text: only ISO 8601 date-times and numeric epochs are accepted.
 */

/** A parsed instant: microseconds since the Unix epoch (UTC), and whether the text had no offset. */
export interface Instant {
  micros: number;
  /** true when an ISO string carried no offset and was read as UTC */
  naive: boolean;
}

export type TimestampResult = Instant | { error: string };

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Epoch values above this are milliseconds, not seconds (1e11 s is the year 5138). */
const MILLIS_THRESHOLD = 1e11;

/**
 * Reads one timestamp field.
 * - numbers and numeric strings: epoch seconds, or milliseconds when > 1e11;
 * - strings: ISO 8601 `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH[:MM]]`, normalised to UTC;
 *   no offset means UTC and `naive: true`.
 * Returns `{error}` with a short reason for anything else (the caller rejects the line).
 */
export function parseTimestamp(value: unknown): TimestampResult {
  if (typeof value === "number") return fromEpoch(value);
  if (typeof value !== "string") return { error: `expected an ISO 8601 string or epoch seconds, got ${typeName(value)}` };
  // fast path: the common `YYYY-MM-DDTHH:MM:SS[.mmm]Z`, which Date.parse reads exactly
  if ((value.length === 20 || value.length === 24) && value.charCodeAt(value.length - 1) === 90 /* Z */ && value.charCodeAt(10) === 84 /* T */) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return { micros: ms * 1000, naive: false };
  }
  const text = value.trim();
  if (NUMERIC.test(text)) return fromEpoch(Number(text));
  const m = ISO.exec(text);
  if (!m) return { error: `not an ISO 8601 timestamp: ${JSON.stringify(value.slice(0, 40))}` };
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  const month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60)
    return { error: `timestamp out of range: ${JSON.stringify(value)}` };
  let ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  if (Number.isNaN(ms)) return { error: `timestamp out of range: ${JSON.stringify(value)}` };
  let offsetMinutes = 0;
  if (offset && offset !== "Z" && offset !== "z") {
    const sign = offset[0] === "-" ? -1 : 1;
    const digits = offset.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
  }
  ms -= offsetMinutes * 60_000;
  const fracMicros = frac ? Math.round(Number(`0.${frac}`) * 1e6) : 0;
  return { micros: ms * 1000 + fracMicros, naive: offset === undefined };
}

function fromEpoch(n: number): TimestampResult {
  if (!Number.isFinite(n)) return { error: "epoch timestamp is not a finite number" };
  const seconds = Math.abs(n) > MILLIS_THRESHOLD ? n / 1000 : n;
  return { micros: Math.round(seconds * 1e6), naive: false };
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
