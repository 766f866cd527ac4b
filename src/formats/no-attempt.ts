/**
 * Record adapters for files that lie beside run records and hold no attempt (a
 * published claim, a model description, a submitted patch): read, counted as
 * records, mapped to nothing, so a folder holding them loads whole instead of
 * failing as an unrecognised input.
 */
import type { RecordShape } from "./shape.js";
import type { FieldRead, FormatAdapter } from "./types.js";

/** A record adapter whose records hold no attempt; `shapes` declare which records are its. */
export function noAttemptFormat(name: string, describes: string, reads: readonly FieldRead[], shapes: readonly RecordShape[]): FormatAdapter {
  return { name, describes, reads, shapes, adapt: () => ({ attempts: [] }) };
}
