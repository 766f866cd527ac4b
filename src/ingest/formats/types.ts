/** What every format adapter provides (STYLE convention 6). */

/** Where a raw record came from, for adapters that derive a run identity from it. */
export interface AdaptContext {
  /** display name of the source (file path, `archive!member`, or `-`) */
  source: string;
  /**
   * The keys of a JSON document read before its container array (Inspect's
   * `eval`, tau2-bench's `info`), for adapters that need run-level facts beside
   * each element; absent for JSONL lines and documents without a container.
   */
  header?: Record<string, unknown> | null;
}

/**
 * What one raw record becomes:
 * - `attempts`: records keyed by canonical field names (canonical.ts checks their types);
 * - `metadata`: a harness's run description holding no attempts (kept in the run_metadata table);
 * - `error`: why the record cannot be read (the line is rejected).
 */
export type Adapted =
  | { attempts: Record<string, unknown>[] }
  | { metadata: { run_id: string | null; agent: string | null; model: string | null; concurrency: number | null } }
  | { error: string };

export interface FormatAdapter {
  /** short name, stored with every attempt (`attempts.format`) */
  name: string;
  /** one line for the README: which harness, which file */
  describes: string;
  /** top-level keys of a JSON document whose array elements are this format's records */
  containerKeys?: readonly string[];
  /**
   * Top-level keys never assembled when a source with a matching name is read
   * as a JSON document (its bulk that this adapter does not read, e.g. a
   * SWE-agent `.traj`'s `trajectory`); see reader.ts DocumentOptions.
   */
  skipKeys?: { names: RegExp; keys: readonly string[] };
  /** true when this adapter reads the record */
  detect(record: Record<string, unknown>): boolean;
  adapt(record: Record<string, unknown>, context: AdaptContext): Adapted;
}
