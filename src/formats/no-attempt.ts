/**
 * Record adapters for files that lie beside run records and hold no attempt (a
 * published claim, a model description, a submitted patch): read, counted as
 * records, mapped to nothing, so a folder holding them loads whole instead of
 * failing as an unrecognised input.
 */
import type { FieldRead, FormatAdapter } from "./types.js";

/** A record adapter whose records hold no attempt; `detect` says which records are its. */
export function noAttemptFormat(
  name: string,
  describes: string,
  reads: readonly FieldRead[],
  detect: (record: Record<string, unknown>) => boolean,
): FormatAdapter {
  return { name, describes, reads, detect, adapt: () => ({ attempts: [] }) };
}
