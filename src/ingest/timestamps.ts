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

/**
 * Epoch units by magnitude: below 1e11 seconds (1e11 s is the year 5138), below
 * 1e14 milliseconds, below 1e17 microseconds, else nanoseconds. Each bound is
 * beyond the year 2200 in the smaller unit and 1973-03-03 (1e8 s) in the larger
 * one, so every instant from March 1973 to 2200 has exactly one reading; an
 * earlier one written in milliseconds or finer would read as a larger unit (no
 * agent run dates from then).
 */
const EPOCH_UNITS: readonly { below: number; unit: string; perSecond: number }[] = [
  { below: 1e11, unit: "seconds", perSecond: 1 },
  { below: 1e14, unit: "milliseconds", perSecond: 1e3 },
  { below: 1e17, unit: "microseconds", perSecond: 1e6 },
  { below: Infinity, unit: "nanoseconds", perSecond: 1e9 },
];

/** The accepted range, in microseconds: 1970-01-01T00:00:00Z up to (not including) 2201-01-01T00:00:00Z. */
const MIN_MICROS = 0;
const END_MICROS = Date.UTC(2201, 0, 1) * 1000;

/** The accepted range in words, for reject reasons (the README says the same). */
const TIMESTAMP_RANGE = "years 1970 to 2200 (UTC)";

/**
 * Reads one timestamp field.
 * - numbers and numeric strings: epoch seconds, milliseconds, microseconds or
 *   nanoseconds by magnitude (EPOCH_UNITS);
 * - strings: ISO 8601 `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH[:MM]]`, normalised to UTC;
 *   no offset means UTC and `naive: true`.
 * Returns `{error}` with a short reason for anything else, and for an instant outside
 * TIMESTAMP_RANGE (a unit mix-up, a placeholder date), so that no out-of-range value
 * reaches a TIMESTAMPTZ column (the caller rejects the line, naming the field).
 */
export function parseTimestamp(value: unknown): TimestampResult {
  if (typeof value === "number") return fromEpoch(value);
  if (typeof value !== "string") return { error: `expected an ISO 8601 string or epoch seconds, got ${typeName(value)}` };
  // fast path: the common `YYYY-MM-DDTHH:MM:SS[.mmm]Z`, which Date.parse reads exactly
  // (days 29 to 31 take the slow path, which refuses 2025-02-30: Date.parse rolls it over to March)
  if ((value.length === 20 || value.length === 24) && value.charCodeAt(value.length - 1) === 90 /* Z */ && value.charCodeAt(10) === 84 /* T */ && value.slice(8, 10) <= "28") {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return inRange({ micros: ms * 1000, naive: false }, value);
  }
  const text = value.trim();
  if (NUMERIC.test(text)) return fromEpoch(Number(text));
  const m = ISO.exec(text);
  if (!m) return { error: `not an ISO 8601 timestamp: ${JSON.stringify(value.slice(0, 40))}` };
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s ?? 0);
  // Date.UTC reads years 0..99 as 1900..1999; no such year is in range anyway (an offset moves a date by a day at most)
  if (year < 1969 || year > 2201) return outOfRange(value);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60)
    return { error: `timestamp out of range: ${JSON.stringify(value)}` };
  // 24:00:00 is the end of the day; 24:30 is no time
  if (hour === 24 && (minute !== 0 || second !== 0)) return { error: `timestamp out of range: ${JSON.stringify(value)}` };
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(ms)) return { error: `timestamp out of range: ${JSON.stringify(value)}` };
  // Date.UTC rolls an impossible date over (2025-02-30 -> 2025-03-02): refuse it instead
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return { error: `no such date: ${JSON.stringify(value)}` };
  let offsetMinutes = 0;
  if (offset && offset !== "Z" && offset !== "z") {
    const sign = offset[0] === "-" ? -1 : 1;
    const digits = offset.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
  }
  ms -= offsetMinutes * 60_000;
  const fracMicros = frac ? Math.round(Number(`0.${frac}`) * 1e6) : 0;
  return inRange({ micros: ms * 1000 + fracMicros, naive: offset === undefined }, value);
}

function fromEpoch(n: number): TimestampResult {
  if (!Number.isFinite(n)) return { error: "epoch timestamp is not a finite number" };
  const { unit, perSecond } = EPOCH_UNITS.find((u) => Math.abs(n) < u.below)!;
  // divide, not multiply by the inverse: 1743494401000000000 / 1000 stays a whole number of microseconds
  const micros = Math.round(perSecond >= 1e6 ? n / (perSecond / 1e6) : n * (1e6 / perSecond));
  return inRange({ micros, naive: false }, n, `epoch ${unit}`);
}

/** `t` when it lies in TIMESTAMP_RANGE, else an error quoting the value as written (and, for an epoch, how it was read). */
function inRange(t: Instant, written: unknown, readAs?: string): TimestampResult {
  if (t.micros >= MIN_MICROS && t.micros < END_MICROS) return t;
  return outOfRange(written, readAs ? `${readAs}: ${describeInstant(t.micros)}` : undefined);
}

function outOfRange(written: unknown, readAs?: string): { error: string } {
  return { error: `timestamp out of range: ${JSON.stringify(written)}${readAs ? ` (read as ${readAs})` : ""}; denom reads ${TIMESTAMP_RANGE}` };
}

/** An instant in words: ISO 8601 when Date can show it, else its year (epoch years of 365.2425 days). */
function describeInstant(micros: number): string {
  const date = new Date(micros / 1000);
  if (!Number.isNaN(date.getTime())) return date.toISOString();
  return `year ${Math.floor(1970 + micros / 1e6 / 31_556_952)}`;
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
