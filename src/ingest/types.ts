/**
 * What the ingest stages hand one another: a unit (one JSON value and where it
 * came from), the sink that takes units, blanks and rejects, and the summary of
 * a source read (records/reader.ts, load/parallel.ts, the archive readers of
 * src/formats/, ingest.ts). Types only.
 */
import type { DocumentAdapter, DocumentEntry } from "../formats/types.js";
import type { ZipArchive } from "./bytes/zip.js";

/** One JSON value read from a source. */
export interface Unit {
  /** physical line (JSONL) or 1-based element number (JSON document) */
  line: number;
  /** where in a JSON document, e.g. `results[16]`; null for JSONL */
  location: string | null;
  value: Record<string, unknown>;
  /** the unit's text, for telling identical duplicates apart */
  text: string;
  /** NaN / Infinity tokens read as null */
  nonFinite: number;
  /** keys written twice in one object of the unit (paths, e.g. `status`, `events[2].name`); the last value was read */
  duplicateKeys?: string[];
  /** a JSON document's keys before its container array (see AdaptContext.header); absent otherwise */
  header?: Record<string, unknown> | null;
  /** set when the unit is an entry of a document a DocumentAdapter claimed (`value` is then `{[key]: value}`) */
  entry?: DocumentEntry;
  /** the DocumentAdapter that claimed the document, with `entry` */
  document?: DocumentAdapter;
}

/**
 * Picks the DocumentAdapter for an object document from its first whole
 * top-level entries (at most DETECT_ENTRIES), or null to read it as before.
 */
export type DocumentChooser = (first: readonly DocumentEntry[]) => DocumentAdapter | null;

/**
 * What a reject stands for: one JSONL line, one element of a JSON document (both
 * skipped, the rest read on), or the break of a JSON document (its rest not read).
 */
export type RejectKind = "line" | "element" | "document";

export interface UnitSink {
  unit(u: Unit): void;
  blank(line: number): void;
  /** `text` is the rejected text in full (the sink masks secrets in it, then cuts its excerpt) */
  reject(line: number, location: string | null, reason: string, text: string, kind: RejectKind): void;
  /**
   * A JSON document's header, told once per document when its object ends (or
   * the document breaks off): every key but its container array, before and
   * after it; `before` = the keys read before the array, which its units were
   * handed (Unit.header), or null for a header that holds no record (an object
   * that DocumentOptions.isHeader accepts).
   */
  header?(header: Record<string, unknown>, before?: Record<string, unknown> | null): void;
}

export interface ReadSummary {
  format: "jsonl" | "json";
  /** physical lines of the source (newlines, plus a last line without one) */
  physicalLines: number;
  /** NaN / Infinity tokens read as null in a JSON document (JSONL units count their own) */
  nonFinite: number;
  /** JSONL: the line ending the file uses (`cr` = lone carriage returns), and how many lines end otherwise */
  endings?: { mode: "lf" | "cr"; mixed: number };
}

/** Receives what an archive holds; `header` comes first, once (the log's header, as the harness's reader makes it). */
export interface ArchiveSink extends UnitSink {
  header(header: Record<string, unknown>): void;
  /** stream-json as the record reader loads it (on first use: a report of other inputs never loads it), for members read token by token */
  jsonStream(): Promise<JsonStream>;
  /** the longest JSON value of a member held whole, in bytes: the line limit (`--max-line-bytes`) */
  readonly maxValueBytes: number;
}

/** stream-json's parser and Assembler, as records/json-stream.ts gives them. */
export type JsonStream = typeof import("./records/json-stream.js");

/** Reads a zip archive of a harness into `sink` (the `archive` its adapter declares). */
export type ArchiveReader = (zip: ZipArchive, sink: ArchiveSink) => Promise<ReadSummary>;

/**
 * Reads a JSONL source some other way than line by line in this thread, or
 * calls `inThread` with the whole stream (the bytes it peeked included).
 */
export type JsonlReader = (chunks: AsyncIterable<Buffer>, inThread: (chunks: AsyncIterable<Buffer>) => Promise<ReadSummary>) => Promise<ReadSummary>;

/** Top-level keys of a JSON document whose array elements are records (declared by the adapters). */
export type ContainerKeys = ReadonlySet<string>;

/** How a JSON document is read, beyond its container keys. */
export interface DocumentOptions {
  /**
   * Top-level keys of a document read as one record whose values are skipped
   * token by token, never assembled (FormatAdapter.skipKeys: a trajectory's
   * steps, megabytes no adapter reads). The record is then read without them.
   */
  skipKeys?: ReadonlySet<string>;
  /**
   * Offered an object document's first entries: a DocumentAdapter
   * that claims it has its entries streamed one by one (Unit.entry); null or
   * absent reads the document as before.
   */
  chooseDocument?: DocumentChooser | null;
  /** container keys whose empty array makes the header (with the key as `[]`) one unit (FormatAdapter.emptyContainerKeys) */
  emptyContainers?: ReadonlySet<string>;
  /**
   * True for a top-level object that is a harness log's header holding none of
   * its records (a log written without its records): it is told to
   * the sink as the header (UnitSink.header, `before` null), never read as a record.
   */
  isHeader?: ((value: Record<string, unknown>) => boolean) | null;
  /** JSONL: the longest line read, in bytes (bytes/lines.ts DEFAULT_MAX_LINE_BYTES when absent); a longer one is a reject */
  maxLineBytes?: number;
  /**
   * JSONL: reads the lines another way (the orchestrator's line workers,
   * load/parallel.ts), given the stream and the in-thread reading to fall back
   * on (`inThread`, handed the whole stream again). Absent: every line is read
   * in this thread.
   */
  readJsonl?: JsonlReader | null;
}
