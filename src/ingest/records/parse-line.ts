/**
 * The pure per-line parser (STYLE convention 5): `parseLine` turns one line's
 * text into a record, a blank, or a reject reason; it never sees the stream
 * (bytes/lines.ts cuts the stream into lines).
 */
import { overlongReason, type PhysicalLine } from "../bytes/lines.js";
import type { Unit } from "../types.js";
import { NonFiniteFilter, needsLiteralRead, readLiterals } from "../../json-text.js";
import { ID_KEYS } from "../../formats/canonical-record.js";

/** What one physical line becomes: a blank, a reject (reason, and the text stored with it), or a unit. */
export type LineOutcome = { kind: "blank" } | { kind: "reject"; reason: string; text: string } | { kind: "unit"; unit: Unit };

/** The outcome of one physical line of a JSONL source (reader.ts in this thread, line-worker.ts in a worker). */
export function lineOutcome(line: PhysicalLine): LineOutcome {
  const { no, text } = line;
  if (line.overlong) return { kind: "reject", reason: overlongReason(line), text: line.overlong.head };
  const r = parseLine(text);
  if (r.kind === "blank") return BLANK;
  if (r.kind === "reject") return { kind: "reject", reason: r.reason, text: text ?? "(bytes that are not UTF-8)" };
  return { kind: "unit", unit: { line: no, location: null, value: r.value, text: text as string, nonFinite: r.nonFinite, duplicateKeys: r.duplicateKeys } };
}

const BLANK: LineOutcome = { kind: "blank" };

/** What one physical line holds. */
export type LineResult =
  | { kind: "blank" }
  | { kind: "value"; value: Record<string, unknown>; nonFinite: number; duplicateKeys?: string[] }
  | { kind: "reject"; reason: string };

/**
 * Parses one JSONL line. Pure: the same text always gives the same result.
 * - whitespace only -> blank;
 * - a JSON object -> value; bare `NaN`, `Infinity`, `-Infinity` tokens (Python's json
 *   module writes them) are read as null and counted in `nonFinite`;
 * - anything else -> reject with a reason (invalid JSON and where, or not an object).
 * An integer beyond 2^53, and a top-level id (ID_KEYS) written as a number in
 * another form than its shortest (`1.0`, `-0`), is kept with its text (a BigLiteral), and a key repeated in
 * one object is listed in `duplicateKeys` (the last value wins, as in JSON.parse).
 */
export function parseLine(text: string | null): LineResult {
  if (text === null) return { kind: "reject", reason: "invalid UTF-8" };
  if (text.trim() === "") return { kind: "blank" };
  let value: unknown;
  let nonFinite = 0;
  let parsed = text;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const replaced = replaceNonFinite(text);
    if (replaced.count === 0) return { kind: "reject", reason: `invalid JSON (${jsonErrorText(e)})` };
    try {
      value = JSON.parse(replaced.text);
      nonFinite = replaced.count;
      parsed = replaced.text;
    } catch (e2) {
      return { kind: "reject", reason: `invalid JSON (${jsonErrorText(e2)})` };
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { kind: "reject", reason: `expected a JSON object, got ${Array.isArray(value) ? "an array" : JSON.stringify(value)?.slice(0, 20)}` };
  if (needsLiteralRead(value, parsed, ID_KEYS)) {
    const exact = readLiterals(parsed, ID_KEYS);
    if (exact) return { kind: "value", value: exact.value as Record<string, unknown>, nonFinite, duplicateKeys: exact.duplicateKeys };
  }
  return { kind: "value", value: value as Record<string, unknown>, nonFinite };
}

function jsonErrorText(e: unknown): string {
  const msg = (e as Error).message ?? String(e);
  // V8: `Unexpected end of JSON input`, `Expected ',' or '}' after property value in JSON at position 71 (line 1 column 72)`,
  // `Unexpected token 'B', "{"a": Bearer sk-"... is not valid JSON`: that quoted piece of the line is
  // dropped (the excerpt shows the line, secrets masked; a piece cut mid-key could not be masked)
  return msg
    .replace(/ \(line \d+ column \d+\)$/, "")
    .replace(/ in JSON at position (\d+)/, (_m, pos: string) => ` at column ${Number(pos) + 1}`)
    .replace(/, ".*"(\.\.\.)? is not valid JSON$/s, "");
}

/** Replaces bare NaN / Infinity / -Infinity tokens outside strings with `null`; returns the text and the count. */
export function replaceNonFinite(text: string): { text: string; count: number } {
  const filter = new NonFiniteFilter();
  const out = filter.push(text, true);
  return { text: out, count: filter.count };
}
