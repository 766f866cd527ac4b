/**
 * The per-unit work of ingest that touches neither the database nor a source's
 * state: masking a unit's secrets, telling its record adapter, adapting it,
 * normalizing its attempts and hashing its text. `prepareUnit` is pure (given
 * the same unit and context it gives the same PreparedUnit), so it runs in the
 * main thread (ingest.ts) or in a worker thread (line-worker.ts) with
 * one code path; ingest.ts then applies the PreparedUnit in input order.
 */
import { hash } from "node:crypto";
import { normalizeAttempt, type CanonicalAttempt } from "../../formats/canonical-record.js";
import { canonicalFormat } from "../../formats/canonical-format.js";
import { detectRecord, recordFormatNamed, type Detection } from "../../formats/index.js";
import type { Adapted, Adapter, FormatAdapter, RunMetadata } from "../../formats/types.js";
import type { Unit } from "../types.js";
import { maskUnit, type SecretCounts } from "../records/secrets.js";

/** What prepareUnit needs of the source being read. */
export interface PrepareContext {
  /** display name of the source, secrets masked */
  source: string;
  /** `--score-key KEY`, or null */
  scoreKey: string | null;
  /** `--input-format NAME`, or null */
  forced: Adapter | null;
  /** `--run-per-file`: read by a line worker, which writes the attempts' rows itself (packed.ts); prepareUnit leaves run ids as they are */
  runPerFile?: boolean;
}

/**
 * What becomes of a unit once adapted: an adapter's error (a reject); a run's
 * metadata; or its attempts, with the dict-valued scores met (counted even when
 * a later record fails) and the first record's normalization error, if any (a
 * reject; then `attempts` is empty). `lineHash` is the sha1 of the unit's text
 * (base64), for attempts only.
 */
export type Plan =
  | { kind: "error"; error: string }
  | { kind: "metadata"; metadata: RunMetadata }
  | {
      kind: "attempts";
      dictTrials: number;
      dictKeys: string[];
      error: string | null;
      attempts: CanonicalAttempt[];
      lineHash: string | null;
      /** a record of several attempts: each attempt's own hash (sha1 of the adapter's record), so that a copy of one attempt is judged on that attempt, not on the whole record; else absent */
      attemptHashes?: string[];
    };

/** One unit, prepared: everything ingest.ts stores or says of it, in plain data (it crosses threads). */
export interface PreparedUnit {
  line: number;
  location: string | null;
  /** NaN / Infinity tokens read as null */
  nonFinite: number;
  /** the unit's text (secrets masked), kept only when the plan rejects it; else null */
  text: string | null;
  /** keys written twice in one object of the unit (not masked yet), or null */
  duplicateKeys: string[] | null;
  /** secrets masked in the unit (header included), or null */
  masked: SecretCounts | null;
  /** a record's Detection (SourceFormats.take); null for an entry of a claimed document */
  detection: Detection | null;
  /** the adapter the plan was made with: the detected one (canonical when none), or the entry's document adapter */
  adapter: string;
  plan: Plan;
}

/**
 * Prepares one unit read from a source (reader.ts). A record none recognises
 * is planned with the canonical adapter: that is how it is read once the
 * source is recognised, or when it is released from being held back.
 * `lineBytes`, when given, are the UTF-8 bytes `raw.text` was decoded from (a
 * line worker's), hashed instead of encoding the text again when nothing was masked.
 * Throws only what an adapter throws.
 */
export function prepareUnit(raw: Unit, ctx: PrepareContext, lineBytes?: Uint8Array): PreparedUnit {
  const { unit: u, masked } = maskUnit(raw);
  const context = { source: ctx.source, header: u.header ?? null, scoreKey: ctx.scoreKey };
  let detection: Detection | null = null;
  let adapter: FormatAdapter | { name: string };
  let adapted: Adapted;
  if (u.entry && u.document) {
    // the entry as masked: maskUnit masks the unit's value, {[key]: value}, keys included
    const [key, value] = Object.entries(u.value)[0] ?? [u.entry.key, u.entry.value];
    adapter = u.document;
    adapted = u.document.adaptEntry({ key, value, index: u.entry.index }, context);
  } else {
    detection = detectRecord(u.value, ctx.forced, ctx.source);
    const format = recordFormatNamed(detection.format) ?? canonicalFormat;
    adapter = format;
    // a record exact detection refuses is never read as another format: a reject (or the source's refusal)
    adapted = detection.problem ? { error: detection.problem } : format.adapt(u.value, context);
  }
  const plan = planOf(adapted, lineBytes !== undefined && u.text === raw.text ? lineBytes : u.text);
  return {
    line: u.line,
    location: u.location,
    nonFinite: u.nonFinite,
    text: plan.kind === "error" || (plan.kind === "attempts" && plan.error !== null) ? u.text : null,
    duplicateKeys: raw.duplicateKeys?.length ? raw.duplicateKeys : null,
    masked,
    detection,
    adapter: adapter.name,
    plan,
  };
}

/** The run of an attempt under `--run-per-file` (docs/metrics.md): the source's name, or `NAME#RUN_ID` when the record names a run. */
export function runOfFile(source: string, runId: string | null): string {
  return runId === null ? source : `${source}#${runId}`;
}

/** The Plan of an adapted unit whose text is `text` (or its UTF-8 bytes). */
function planOf(adapted: Adapted, text: string | Uint8Array): Plan {
  if ("error" in adapted) return { kind: "error", error: adapted.error };
  if ("metadata" in adapted) return { kind: "metadata", metadata: adapted.metadata };
  let dictTrials = 0;
  const dictKeys: string[] = [];
  for (const record of adapted.attempts) {
    if (Array.isArray(record.score_keys) && record.status === "unscored") {
      dictTrials++;
      for (const k of record.score_keys) dictKeys.push(String(k));
    }
  }
  const attempts: CanonicalAttempt[] = [];
  for (const [i, record] of adapted.attempts.entries()) {
    const n = normalizeAttempt(record);
    if ("error" in n) {
      const where = adapted.attempts.length > 1 ? `record ${i + 1} of ${adapted.attempts.length}: ` : "";
      return { kind: "attempts", dictTrials, dictKeys, error: where + n.error, attempts: [], lineHash: null };
    }
    attempts.push(n.attempt);
  }
  const lineHash = hash("sha1", text, "base64"); // one-shot: no Hash object per record
  if (adapted.attempts.length < 2) return { kind: "attempts", dictTrials, dictKeys, error: null, attempts, lineHash };
  // one record, many attempts (an id-list report): two reports that agree on an instance hold identical copies of it
  const attemptHashes = adapted.attempts.map((r) => hash("sha1", JSON.stringify(r), "base64"));
  return { kind: "attempts", dictTrials, dictKeys, error: null, attempts, lineHash, attemptHashes };
}
