/**
 * The format adapters, and exact detection. Every adapter declares the shapes
 * it reads (shape.ts). A record is read by the one harness adapter whose shape
 * it fits; the canonical record only when none fits, for records that look like
 * attempts (a task id or a status). Two adapters that fit one record, or a
 * record that fits none but is close to one adapter's shape (most of its own
 * keys, or its file name), are refused with the candidates named and the
 * `--input-format` that settles it: never read as another format. Document
 * adapters claim a whole object document by its first entries, the same way. A
 * source is read by the adapters that recognise its records; one that none
 * recognises is an error (SourceFormats).
 */
import { agentBenchFormat, agentBenchOverallFormat } from "./agentbench.js";
import { agentCompassFormat } from "./agentcompass.js";
import { canonicalFormat } from "./canonical-format.js";
import { halUploadFormat } from "./hal.js";
import { harborConfigFormat, harborJobFormat, harborTrajectoryFormat, harborTrialFormat } from "./harbor.js";
import { inspectFormat } from "./inspect.js";
import { lmEvalResultsFormat, lmEvalSampleFormat } from "./lm-eval.js";
import { miniSweAgentPassFormat, miniSweAgentPredsFormat, miniSweAgentTrajectoryFormat } from "./mini-swe-agent.js";
import { openHandsEvalLogFormat } from "./openhands-eval-log.js";
import { openHandsOutputFormat, openHandsRunMetadataFormat } from "./openhands-output.js";
import { openHandsInstancesFormat, openHandsMetadataFormat, openHandsScoresFormat } from "./openhands-index.js";
import { skillsBenchFormat } from "./skillsbench.js";
import { sweAgentFormat } from "./swe-agent.js";
import { sweBenchPredsFormat } from "./swe-bench-preds.js";
import { sweBenchProFormat } from "./swe-bench-pro.js";
import { sweBenchResultsFormat } from "./swe-bench-results.js";
import { sweBenchInstanceFormat } from "./swe-bench-instance.js";
import { sweBenchLegacyFormat } from "./swe-bench-legacy.js";
import { tau2BenchFormat, tau2ResultsFormat } from "./tau2-bench.js";
import { tauBenchFormat } from "./tau-bench.js";
import { taskSummaryFormat } from "./task-summary.js";
import { terminalBenchFormat } from "./terminal-bench.js";
import type { ArchiveReader, DocumentOptions } from "../ingest/types.js";
import { CANONICAL_NAMES } from "./canonical-format.js";
import { ANY_KEY, explainRecord, fitDocument, fitsRecord, type RecordShape } from "./shape.js";
import { isDocumentAdapter, type Adapter, type DocumentAdapter, type DocumentEntry, type FormatAdapter, type SupersededFile } from "./types.js";

export type { AdaptContext, Adapted, Adapter, DocumentAdapter, DocumentEntry, FieldRead, FormatAdapter, RunMetadata } from "./types.js";

/**
 * Record adapters, as `denom formats` lists them. Each harness's records are
 * told apart by fields no other harness writes (tau-bench's `traj`, tau2-bench's
 * `termination_reason`, Inspect's `epoch` with `input` and `target`, SWE-agent's
 * `info.model_stats`, OpenHands' `benchmark` with `score` and `metric`, a
 * prediction's `model_patch`); detection is exact (claimRecord), so the order
 * decides nothing. The canonical record comes last.
 */
export const FORMATS: readonly FormatAdapter[] = [
  terminalBenchFormat,
  harborTrialFormat,
  harborJobFormat,
  harborConfigFormat,
  harborTrajectoryFormat,
  agentBenchFormat,
  agentBenchOverallFormat,
  openHandsOutputFormat,
  openHandsRunMetadataFormat,
  openHandsEvalLogFormat,
  taskSummaryFormat,
  agentCompassFormat,
  tauBenchFormat,
  tau2BenchFormat,
  tau2ResultsFormat,
  inspectFormat,
  miniSweAgentTrajectoryFormat,
  miniSweAgentPassFormat,
  sweAgentFormat,
  openHandsScoresFormat,
  openHandsMetadataFormat,
  sweBenchPredsFormat,
  sweBenchLegacyFormat,
  sweBenchInstanceFormat,
  lmEvalSampleFormat,
  lmEvalResultsFormat,
  halUploadFormat,
  skillsBenchFormat,
  canonicalFormat,
];

/** Document adapters, in detection order (asked before the record adapters, for object documents only). */
export const DOCUMENT_FORMATS: readonly DocumentAdapter[] = [sweBenchResultsFormat, miniSweAgentPredsFormat, openHandsInstancesFormat, sweBenchProFormat];

/** Every adapter, as `denom formats` lists them and `--input-format` names them. */
export const ALL_FORMATS: readonly Adapter[] = [...DOCUMENT_FORMATS, ...FORMATS];

/** Top-level keys of JSON documents whose arrays hold records, from every adapter. */
export const CONTAINER_KEYS: ReadonlySet<string> = new Set(FORMATS.flatMap((f) => f.containerKeys ?? []));

/** Every record adapter but the canonical one: those whose shapes a record is judged by first. */
const HARNESS_FORMATS: readonly FormatAdapter[] = FORMATS.filter((f) => f !== canonicalFormat);

/**
 * How a record stands: read by one adapter (`one`), by none (`none`), claimed
 * by several (`ambiguous`), or close to one adapter's shape without fitting it
 * (`near`: the kind of record it resembles and what is missing or wrong).
 */
export type RecordClaim =
  | { kind: "one"; format: FormatAdapter }
  | { kind: "none" }
  | { kind: "ambiguous"; formats: FormatAdapter[] }
  | { kind: "near"; format: FormatAdapter; shape: RecordShape; problems: string[] };

/**
 * Every harness shape with what detection asks of it on every record, worked
 * out once: its format (and that format's place in HARNESS_FORMATS) and its own
 * keys: the top-level keys of its required ones that are not a canonical field
 * name, which any attempt record may carry.
 */
const SHAPES: readonly { format: FormatAdapter; at: number; shape: RecordShape; own: readonly string[] }[] = HARNESS_FORMATS.flatMap((format, at) =>
  format.shapes.map((shape) => ({
    format,
    at,
    shape,
    own: Object.keys(shape.required)
      .filter((k) => k !== ANY_KEY)
      .map((k) => k.split(".")[0])
      .filter((k) => !CANONICAL_NAMES.has(k)),
  })),
);

/** Own key -> the shapes (SHAPES indexes) that name it, once per naming: a record's keys find the shapes it may fit or nearly fit. */
const BY_OWN_KEY: ReadonlyMap<string, readonly number[]> = (() => {
  const m = new Map<string, number[]>();
  SHAPES.forEach((s, i) => {
    for (const k of s.own) m.set(k, [...(m.get(k) ?? []), i]);
  });
  return m;
})();

/** Shapes judged on every record: those with no own key, and those with a path (a file on it is a near miss whatever its keys). */
const ALWAYS: readonly number[] = SHAPES.flatMap((s, i) => (s.own.length === 0 || s.shape.path ? [i] : []));

/** The claim of each record adapter, made once (claimRecord returns one on every record). */
const ONE: ReadonlyMap<FormatAdapter, RecordClaim> = new Map(FORMATS.map((f) => [f, { kind: "one", format: f }]));

/** Scratch space of claimRecord (synchronous, never re-entered): own keys held per shape, the shapes touched, and fitting formats. */
const HELD = new Int32Array(SHAPES.length);
const TOUCHED = new Int32Array(SHAPES.length + ALWAYS.length);
const FITS = new Uint8Array(HARNESS_FORMATS.length);

/**
 * True when a record that does not fit `shape` is close enough to be that
 * format's (a near miss): none of its absent keys present, and either the
 * source lies where the shape says, or the record holds at least half of the
 * shape's own keys and at least two of them (one, when the shape has one).
 */
function isNear(shape: RecordShape, own: readonly string[], held: number, record: Record<string, unknown>, source: string | null): boolean {
  if (shape.absent) for (const k of shape.absent) if (record[k] !== undefined) return false;
  if (shape.path && source !== null && shape.path.pattern.test(source)) return true;
  return own.length > 0 && held * 2 >= own.length && held >= Math.min(2, own.length);
}

/**
 * Which adapter reads one raw record from source `source` (its display name;
 * null when unknown): exact detection over every harness adapter's declared
 * shapes, then the canonical record (module comment). It keeps nothing
 * between calls (its scratch arrays are cleared before it returns), so it may
 * run in a line worker; it looks up only the shapes the record's own keys name
 * and allocates nothing for a record one format reads, as it runs on every record.
 */
export function claimRecord(record: Record<string, unknown>, source: string | null): RecordClaim {
  // the shapes the record's keys name, each with how many of its own keys it holds
  let touched = 0;
  for (const key in record) {
    const list = BY_OWN_KEY.get(key);
    if (list === undefined || record[key] === undefined) continue;
    for (let i = 0; i < list.length; i++) if (HELD[list[i]]++ === 0) TOUCHED[touched++] = list[i];
  }
  for (let i = 0; i < ALWAYS.length; i++) if (HELD[ALWAYS[i]] === 0) TOUCHED[touched++] = ALWAYS[i];
  let fits = 0;
  let first = -1;
  for (let t = 0; t < touched; t++) {
    const s = SHAPES[TOUCHED[t]];
    if (FITS[s.at] || HELD[TOUCHED[t]] < s.own.length || !fitsRecord(s.shape, record, source)) continue;
    FITS[s.at] = 1;
    fits++;
    if (first < 0 || s.at < first) first = s.at;
  }
  let claim: RecordClaim | null = null;
  if (fits > 1) claim = { kind: "ambiguous", formats: HARNESS_FORMATS.filter((_, at) => FITS[at]) };
  else if (fits === 1) claim = ONE.get(HARNESS_FORMATS[first])!;
  else {
    let near = -1;
    let nearShare = 0;
    for (let t = 0; t < touched; t++) {
      const i = TOUCHED[t];
      const { shape, own } = SHAPES[i];
      const held = HELD[i];
      if (!isNear(shape, own, held, record, source)) continue;
      // the closest: the most of its own keys held, then the greatest share of them, then the first declared
      const share = own.length ? held / own.length : 1;
      if (near < 0 || held > HELD[near] || (held === HELD[near] && (share > nearShare || (share === nearShare && i < near)))) [near, nearShare] = [i, share];
    }
    if (near >= 0)
      claim = { kind: "near", format: SHAPES[near].format, shape: SHAPES[near].shape, problems: explainRecord(SHAPES[near].shape, record, source) };
  }
  for (let t = 0; t < touched; t++) {
    HELD[TOUCHED[t]] = 0;
    FITS[SHAPES[TOUCHED[t]].at] = 0;
  }
  if (claim) return claim;
  for (const shape of canonicalFormat.shapes) if (fitsRecord(shape, record, source)) return ONE.get(canonicalFormat)!;
  return { kind: "none" };
}

/** The record adapter for one raw record (claimRecord), or null when none, or more than one, may read it. */
export function formatFor(record: Record<string, unknown>, source: string | null = null): FormatAdapter | null {
  const claim = claimRecord(record, source);
  return claim.kind === "one" ? claim.format : null;
}

/** Why a record is refused (a claim that is neither `one` nor `none`), as a reject or a source's error says it; null otherwise. */
export function refusalOf(claim: RecordClaim): string | null {
  if (claim.kind === "ambiguous") {
    const names = claim.formats.map((f) => f.name);
    return `${names.length} formats claim it (${names.join(", ")}): name its format with ${names.map((n) => `--input-format ${n}`).join(" or ")}`;
  }
  if (claim.kind === "near") {
    const name = claim.format.name;
    return `looks like ${name} (${claim.shape.kind}) but ${claim.problems.join("; ")}: not read as another format; if it is ${name}'s, it is malformed; else name its format with --input-format NAME (denom formats lists them)`;
  }
  return null;
}

/** The document adapters whose declared shape an object document's first entries fit. */
export function claimDocument(first: readonly DocumentEntry[], source: string | null): DocumentAdapter[] {
  return DOCUMENT_FORMATS.filter((f) => fitDocument(f.shape, first, source));
}

/** The record adapters by name (a Detection names its adapter). */
const RECORD_FORMATS: ReadonlyMap<string, FormatAdapter> = new Map(FORMATS.map((f) => [f.name, f]));

/** The record adapter a Detection names (`Detection.format`), or null for none. */
export function recordFormatNamed(name: string | null): FormatAdapter | null {
  return name === null ? null : (RECORD_FORMATS.get(name) ?? null);
}

/** The adapter named `name` (what `--input-format` takes), or undefined. */
export function formatNamed(name: string): Adapter | undefined {
  return ALL_FORMATS.find((f) => f.name === name);
}

/** How many leading records of a source may go unrecognised before the source is declared unreadable. */
export const UNRECOGNISED_LIMIT = 20;

/**
 * Which adapter reads each record of one source (docs/formats.md, detection): the
 * forced one (`--input-format`), else by detection. Until some record of the
 * source is recognised, unrecognised ones are held back (at most
 * UNRECOGNISED_LIMIT); once one is, they and any later stray record go to the
 * canonical adapter, whose checks reject them naming the field (so a bad line
 * of a log stays a reject). A source whose first UNRECOGNISED_LIMIT records (or
 * all of them) are recognised by none is unreadable: its later records are not
 * adapted (nothing of it is loaded) and `unreadable()` says why.
 */
export class SourceFormats<U> {
  /** adapter name -> records it read in this source, in order of first use */
  readonly used = new Map<string, number>();
  private recognised = false;
  /** more than UNRECOGNISED_LIMIT leading records recognised by none: the source is not a run record */
  private gaveUp = false;
  private held: U[] = [];
  private unrecognised = 0;
  private unknownKeys: string[] | null = null;
  /** a forced record adapter: how many of the first UNRECOGNISED_LIMIT records were seen, and how many it recognises */
  private forcedSeen = 0;
  private forcedHits = 0;
  /** why the source is refused: its first record, or its document, claimed by two formats or close to one (exact detection) */
  private refusal: string | null = null;

  constructor(
    private readonly source: string,
    private readonly forced: Adapter | null,
  ) {}

  /** The document chooser for the reader: the forced document adapter, detection, or none when a record adapter is forced. */
  readonly chooseDocument = (first: readonly DocumentEntry[]): DocumentAdapter | null => {
    if (this.forced) return isDocumentAdapter(this.forced) ? this.forced : null;
    const claims = claimDocument(first, this.source);
    if (claims.length > 1) {
      const names = claims.map((f) => f.name);
      this.refusal ??= `${this.source}: ${names.length} formats claim it (${names.join(", ")}): name its format with ${names.map((n) => `--input-format ${n}`).join(" or ")}`;
      return null;
    }
    return claims[0] ?? null;
  };

  /**
   * The record adapter for `record` (unit `u`), and the held-back units to
   * adapt first (with the canonical adapter); or null when the unit is held
   * back (or dropped once the source is known to be unreadable).
   */
  forRecord(record: Record<string, unknown>, u: U): { format: FormatAdapter; release: U[] } | null {
    return this.take(detectRecord(record, this.forced, this.source), u);
  }

  /**
   * forRecord with the record's Detection already made (detectRecord: pure, so it
   * may run in a worker thread): the source's state moves on as forRecord's.
   * `u` null: a unit whose format was detected (a line worker's packed unit), never held back.
   */
  take(d: Detection, u: U | null): { format: FormatAdapter; release: U[] } | null {
    if (this.gaveUp) return null;
    if (d.problem) {
      // a source whose format is known rejects the record (its plan is the refusal); else the source is refused
      if (this.recognised) return { format: canonicalFormat, release: [] };
      this.refusal ??= `${this.source}: ${d.problem}`;
      this.gaveUp = true;
      this.held = [];
      return null;
    }
    const format = recordFormatNamed(d.format);
    if (format && this.forced && this.forcedSeen < UNRECOGNISED_LIMIT) {
      // forced: judged by the adapter's own detection, so a file of another harness is not read as this one
      this.forcedSeen++;
      if (d.hit) this.forcedHits++;
      else this.unknownKeys ??= d.keys;
    }
    if (format) {
      if (this.recognised) return { format, release: [] };
      this.recognised = true;
      const release = this.held;
      this.held = [];
      return { format, release };
    }
    if (this.recognised) return { format: canonicalFormat, release: [] };
    this.unrecognised++;
    this.unknownKeys ??= d.keys;
    if (u === null) throw new Error("a unit of no detected format cannot be taken without itself");
    if (this.held.length < UNRECOGNISED_LIMIT) this.held.push(u);
    else this.gaveUp = true;
    return null;
  }

  /** Notes that `name` read the source's run header (a log of its header only is still that format's). */
  sawHeader(name: string): void {
    this.used.set(name, this.used.get(name) ?? 0);
  }

  /** Counts a record read by `name`. */
  count(name: string): void {
    this.used.set(name, (this.used.get(name) ?? 0) + 1);
  }

  /** The adapters that read this source, e.g. `terminal-bench`, or null when none read a record. */
  adapters(): string | null {
    return this.used.size ? [...this.used.keys()].join(", ") : null;
  }

  /**
   * Why the source is refused, or null: its first record (or its document) is
   * claimed by two formats, or is close to one format's shape without fitting
   * it (claimRecord). An input error wherever the source lies.
   */
  refused(): string | null {
    return this.refusal;
  }

  /** The keys of the first record no format recognised (at most 8), or null when there was none. */
  firstKeys(): string[] | null {
    return this.unknownKeys;
  }

  /**
   * Why the source cannot be read, or null when it can: no record recognised;
   * or, with a forced record adapter, none of the first UNRECOGNISED_LIMIT
   * records (all, when fewer) is one that adapter recognises as its own.
   */
  unreadable(): string | null {
    if (this.forced && this.forcedSeen > 0 && this.forcedHits === 0) {
      const keys = this.unknownKeys?.length ? `its first record has keys ${this.unknownKeys.join(", ")}` : "its first record is an empty object";
      return `${this.source}: --input-format ${this.forced.name} maps none of its first ${this.forcedSeen} record${this.forcedSeen === 1 ? "" : "s"} (none is a record ${this.forced.name} reads; ${keys}); leave --input-format out to detect the format, or pick another (denom formats lists what each reads)`;
    }
    if (!this.gaveUp && (this.recognised || this.unrecognised === 0)) return null;
    const keys = this.unknownKeys?.length ? `its first record has keys ${this.unknownKeys.join(", ")}` : "its first record is an empty object";
    if (this.forced) return `${this.source}: not read as ${this.forced.name} (--input-format): ${keys}; denom formats lists what each format reads`;
    return `${this.source}: no input format recognises it (tried ${ALL_FORMATS.map((f) => f.name).join(", ")}); ${keys}; name its format with --input-format NAME (denom formats lists them)`;
  }
}

/**
 * How one record's adapter is told, without a source's state: the record
 * adapter's name (the forced one, or the one claimRecord finds; null when none
 * does, or a document adapter is forced), whether a forced adapter's declared
 * shapes fit it, its first 8 keys (null when no message can need them), and,
 * when exact detection refuses it (two formats, or a near miss), why.
 */
export interface Detection {
  format: string | null;
  hit: boolean;
  keys: string[] | null;
  problem?: string | null;
}

/** The Detection of `record` from `source` under `forced` (`--input-format`, or null): what SourceFormats.take needs of it. */
export function detectRecord(record: Record<string, unknown>, forced: Adapter | null, source: string | null = null): Detection {
  if (!forced) {
    const claim = claimRecord(record, source);
    const format = claim.kind === "one" ? claim.format : null;
    return { format: format?.name ?? null, hit: false, keys: format === null ? Object.keys(record).slice(0, 8) : null, problem: refusalOf(claim) };
  }
  const format = isDocumentAdapter(forced) ? null : forced;
  const hit = format !== null && format.shapes.some((shape) => fitsRecord(shape, record, source));
  const keys = format === null || !hit ? Object.keys(record).slice(0, 8) : null;
  return { format: format?.name ?? null, hit, keys };
}

/** How a source is read when it is a JSON document: the keys its adapter skips, by the source's name (e.g. a `.traj`). */
export function documentOptions(sourceName: string): DocumentOptions {
  const keys = FORMATS.flatMap((f) => (f.skipKeys && f.skipKeys.names.test(sourceName) ? f.skipKeys.keys : []));
  return { ...(keys.length ? { skipKeys: new Set(keys) } : {}), emptyContainers: EMPTY_CONTAINER_KEYS, isHeader: isHeaderOnly };
}

/** True for a run header that holds none of its adapter's container keys (an Inspect `.json` log written without samples): a log, not a record. */
function isHeaderOnly(value: Record<string, unknown>): boolean {
  return FORMATS.some((f) => f.header !== undefined && f.header.detect(value) && !(f.containerKeys ?? []).some((k) => k in value));
}

/** Container keys whose empty array yields the document's header as a record (FormatAdapter.emptyContainerKeys). */
const EMPTY_CONTAINER_KEYS: ReadonlySet<string> = new Set(FORMATS.flatMap((f) => f.emptyContainerKeys ?? []));

/**
 * The file rules the adapters declare, for the byte stage (ingest/bytes/sources.ts):
 * the endings of their JSON documents and zip archives beyond .json and .jsonl
 * (FormatAdapter.documentEndings, archiveEndings), files another file beside them replaces (FormatAdapter.supersededFiles), side
 * files that hold no trial (sideFiles), and the paths of text files a folder
 * walk keeps as records (textRecords.walked).
 */
export const FILE_RULES: {
  documentEndings: readonly string[];
  archiveEndings: readonly string[];
  superseded: readonly SupersededFile[];
  sideFiles: readonly { names: RegExp; reason: string }[];
  textRecordPaths: readonly RegExp[];
} = {
  documentEndings: FORMATS.flatMap((f) => f.documentEndings ?? []),
  archiveEndings: FORMATS.flatMap((f) => f.archiveEndings ?? []),
  superseded: FORMATS.flatMap((f) => f.supersededFiles ?? []),
  sideFiles: FORMATS.flatMap((f) => (f.sideFiles ? [f.sideFiles] : [])),
  textRecordPaths: FORMATS.flatMap((f) => (f.textRecords ? [f.textRecords.walked] : [])),
};

/** How a text source is made one record (FormatAdapter.textRecords), by the source's name; null when no adapter reads it as text. */
export function textRecordOf(source: string): ((text: string) => Record<string, unknown>) | null {
  const rule = FORMATS.find((f) => f.textRecords?.named.test(source))?.textRecords;
  return rule ? (text) => rule.record(text, source) : null;
}

/** The sub-benchmark fields the formats declare (FormatTraits.subBenchmark), with their words: each a pooling dimension. */
export const SUB_BENCHMARKS: readonly { field: string; one: string; many: string }[] = ALL_FORMATS.flatMap((f) =>
  "traits" in f && f.traits?.subBenchmark ? [f.traits.subBenchmark] : [],
);

/** The reader of zip archives: the `archive` of the adapter that declares one (Inspect's `.eval`). */
export const ARCHIVE_READER: ArchiveReader = inspectFormat.archive;
