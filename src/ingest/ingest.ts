/**
 * Ingest: inputs -> sources -> units -> format adapters -> canonical attempts ->
 * DuckDB tables. Every physical line ends in one bucket (record, blank, reject);
 * a bad line is reported with file and line and never stops the run.
 */
import type { Readable } from "node:stream";
import type { Database } from "../db/session.js";
import { DataError, NoRecordError } from "../errors.js";
import { ARCHIVE_READER, CONTAINER_KEYS, documentOptions, FORMATS, SourceFormats, textRecordOf, type Adapter, type Detection } from "../formats/index.js";
import type { FormatAdapter, RunLog } from "../formats/types.js";
import { expandInputs, fileSha256, looksLike, namedFormat, openSources, type InputSpec, type SkippedMember, type SourceStream } from "./bytes/sources.js";
import { ZipArchive } from "./bytes/zip.js";
import { DEFAULT_MAX_LINE_BYTES } from "./bytes/lines.js";
import { ExpansionError, type ExpansionBounds, expansionBounds, setExpansionBounds } from "./bytes/bounds.js";
import type { LongBytes, TableColumns } from "./load/columns.js";
import { Loader } from "./load/loader.js";
import type { GatheredTable } from "./load/packed.js";
import { closeLineWorkers, readJsonlInWorkers, type PreparedSink } from "./load/parallel.js";
import { prepareUnit, runOfFile, type PrepareContext, type PreparedUnit } from "./load/prepare.js";
import { excerpt, loadJsonStream, readTextRecord, readUnits } from "./records/reader.js";
import { maskSecrets } from "./records/secrets.js";
import type { ArchiveSink, ReadSummary, RejectKind, Unit } from "./types.js";

/** A line that was not loaded, as shown to the user. */
export interface RejectNotice {
  source: string;
  /** physical line (JSONL) or element number (JSON document) */
  line: number;
  /** e.g. `results[16]` in a JSON document */
  location: string | null;
  reason: string;
  /**
   * `line` or `element`: that one was skipped and reading went on; `document`:
   * a JSON document broke there and the rest of it was not read.
   */
  kind: RejectKind;
}

export interface IngestOptions {
  /** read by the `-` input */
  stdin: Readable;
  /** called for every reject, in input order */
  onReject?: (r: RejectNotice) => void;
  /** called with a one-line warning (a truncated archive, ...) */
  onWarning?: (text: string) => void;
  /**
   * called as bytes are read: raw bytes read so far, the inputs' total bytes
   * (null when unknown: stdin), and records read so far
   */
  onProgress?: (read: number, total: number | null, records: number) => void;
  /**
   * Skip a source whose sha256 is already in the database (loaded before, or
   * earlier in this call) and list it in `skipped`: a plain file loaded before
   * is recognised by hashing it before it is parsed (only when its size is that
   * of a stored source; never an archive, whose members are the sources); every
   * other source once read (its digest is taken as it is read), and its rows are
   * then removed. Used by `denom ingest --db`, so nothing counts twice.
   */
  skipKnownSources?: boolean;
  /** `--input-format NAME`: read every source with this adapter instead of detecting one */
  format?: Adapter | null;
  /**
   * `--run-per-file`: every source is its own run (docs/metrics.md): an attempt's
   * `run_id` becomes the source's name, or `NAME#RUN_ID` when the record names a run,
   * so that records of two files never collapse as duplicates of one run.
   */
  runPerFile?: boolean;
  /** `--max-line-bytes N`: the longest JSONL line read (bytes/lines.ts DEFAULT_MAX_LINE_BYTES when absent); a longer one is a reject */
  maxLineBytes?: number;
  /** `--max-decoded-bytes`, `--max-members`: the expansion bounds (bytes/bounds.ts) in force while reading; absent ones keep their default */
  expansion?: Partial<ExpansionBounds>;
  /** `--score-key KEY`: the key of a dict-valued score that decides success */
  scoreKey?: string | null;
}

/** A source left out because a source with the same sha256 is already loaded. */
export interface SkippedSource {
  name: string;
  sha256: string;
  /** name of the source already in the database */
  same_as: string;
}

/** What one call loaded (skipped sources not counted). */
export interface IngestResult {
  sources: number;
  records: number;
  rejected: number;
  attempts: number;
  /** sources that broke part-way (a truncated gzip or tar): what was read before the break is loaded */
  broken: number;
  skipped: SkippedSource[];
}

/**
 * Reads every input into `db` (tables created when missing). Throws DataError
 * when an input path cannot be read, or a source is in no format denom reads
 * (the message names it and the formats tried); a bad line is a reject, never an error.
 */
export async function ingest(db: Database, inputs: readonly string[], options: IngestOptions): Promise<IngestResult> {
  const specs = expandInputs(inputs, options.onWarning);
  return ingestSpecs(db, specs, options);
}

/**
 * Reads `allSpecs` (expandInputs' expansion) into `db`: every source in turn,
 * through one SourceRead each (its counts and its sink), into one IngestRun
 * (the loader, what is known already, and the totals). Throws as `ingest` does.
 */
export async function ingestSpecs(db: Database, allSpecs: readonly InputSpec[], options: IngestOptions): Promise<IngestResult> {
  const run = await IngestRun.open(db, options);
  const bounds = setExpansionBounds({ ...expansionBounds(), ...options.expansion });
  try {
    // a file loaded before is skipped on its hash alone, without parsing it again;
    // archive members, stdin and repeats within this call are caught once read (IngestRun.source)
    const specs = await run.fresh(allSpecs);
    for await (const src of openSources(specs, options.stdin, run.onBytes(specs))) {
      if ("skipped" in src) run.skippedFile(src);
      else await run.source(src);
    }
    run.finish();
  } finally {
    setExpansionBounds(bounds);
    closeLineWorkers();
    run.close();
  }
  return run.result;
}

/** What `--db` already holds (IngestOptions.skipKnownSources): digests and sizes of its sources, and its skipped files. */
interface Known {
  /** sha256 -> name of the source that has it */
  digests: Map<string, string>;
  sizes: ReadonlySet<number>;
  /** `name\treason` of every skipped file listed */
  skippedFiles: Set<string>;
}

/**
 * One call of ingestSpecs: the loader and the ids it hands out, what the
 * database held before (`known`), and the counts and findings every source
 * adds to. Each source is read by a SourceRead, then stored or left out here.
 */
class IngestRun {
  readonly result: IngestResult = { sources: 0, records: 0, rejected: 0, attempts: 0, broken: 0, skipped: [] };
  readonly containers = new ContainerTally();
  /** records read so far in all sources (progress) */
  recordsRead = 0;
  /** keys written twice in one object, in all sources (the first REPEATED_KEYS_SHOWN are named) */
  repeatedKeys = 0;
  /** sources with lines but no record: what each looks like, said when nothing at all was read */
  private readonly noRecord: string[] = [];
  /** sources with nothing but blank lines, or none: `name (empty)`, `name (3 blank lines)` */
  private readonly blankOnly: string[] = [];
  /** raw bytes read so far (progress) */
  private bytesRead = 0;

  private constructor(
    readonly loader: Loader,
    readonly options: IngestOptions,
    /** the id the next source gets (given back when a source is left out) */
    private nextId: number,
    private readonly known: Known | null,
  ) {}

  static async open(db: Database, options: IngestOptions): Promise<IngestRun> {
    const loader = await Loader.open(db);
    const nextId = await loader.nextSourceId();
    const known = options.skipKnownSources
      ? { digests: await loader.sourceDigests(), sizes: await loader.sourceSizes(), skippedFiles: await loader.skippedKeys() }
      : null;
    return new IngestRun(loader, options, nextId, known);
  }

  /** `specs` without the plain files already stored (withoutKnownFiles), when skipping known sources. */
  async fresh(specs: readonly InputSpec[]): Promise<readonly InputSpec[]> {
    return this.known ? await withoutKnownFiles(specs, this.known.digests, this.known.sizes, this.result.skipped) : specs;
  }

  /** What openSources tells of every raw byte read: progress (IngestOptions.onProgress), or nothing. */
  onBytes(specs: readonly InputSpec[]): ((n: number) => void) | undefined {
    const total = specs.every((s) => s.kind !== "stdin") ? specs.reduce((n, s) => n + (s.kind === "file" ? s.size : 0), 0) : null;
    return this.options.onProgress ? (n: number) => this.options.onProgress!((this.bytesRead += n), total, this.recordsRead) : undefined;
  }

  /** A file or member left out by its name (openSources): told to its container, listed once in meta.skipped_files. */
  skippedFile(src: SkippedMember): void {
    const skipped = maskSecrets(src.skipped).text;
    // a reason may name a path from the input (a link's target)
    const reason = maskSecrets(src.reason).text;
    if (src.container !== undefined) this.containers.found(src.container, `${skipped} (${reason})`);
    this.listSkipped(skipped, reason, null);
  }

  /**
   * Reads one source and stores it, or leaves it out: a side file of a folder
   * or archive that no adapter reads, a copy of a source already stored.
   * Throws DataError when a source named directly is in no format denom reads.
   */
  async source(src: SourceStream): Promise<void> {
    const read = new SourceRead(this, src, this.nextId++);
    const summary = await read.read();
    read.storeRunLogs();
    const refused = read.formats.refused();
    if (refused) throw new DataError(refused);
    const unreadable = read.formats.unreadable();
    if (unreadable) return this.sideFile(read, unreadable);
    const { counts } = read;
    if (src.container !== undefined) {
      this.containers.read(src.container, counts.records);
      if (counts.records === 0)
        this.containers.found(
          src.container,
          `${read.name} (${counts.rejected ? `${counts.rejected} rejected, no record` : summary.physicalLines ? "only blank lines" : "empty"})`,
        );
    }
    const { sha256, bytes } = src.digest();
    const sameAs = this.known?.digests.get(sha256);
    if (sameAs !== undefined) {
      if (src.container !== undefined) this.containers.read(src.container, 1);
      await this.loader.discardSource(read.id);
      this.nextId = read.id;
      this.result.skipped.push({ name: read.name, sha256, same_as: sameAs });
      return;
    }
    this.known?.digests.set(sha256, read.name);
    this.store(read, summary, sha256, bytes);
  }

  /** A side file of a folder or an archive (a config, notes, another tool's JSON): named once and listed, never fatal; named directly, an error. */
  private async sideFile(read: SourceRead, unreadable: string): Promise<void> {
    const container = read.src.container;
    if (container === undefined) throw new DataError(unreadable);
    await this.loader.discardSource(read.id);
    this.nextId = read.id;
    const keys = read.formats.firstKeys();
    const reason = `${SIDE_FILE_REASON}${keys === null ? "" : keys.length ? `; top keys ${keys.join(", ")}` : "; an empty object"}`;
    this.containers.found(container, `${read.name} (${reason})`);
    this.options.onWarning?.(`${read.name}: skipped: ${reason}`);
    this.listSkipped(read.name, SIDE_FILE_REASON, keys);
  }

  /** Lists a skipped file in meta.skipped_files, once per name and reason (also across `--db` calls). */
  private listSkipped(name: string, reason: string, keys: string[] | null): void {
    const key = `${name}\t${reason}`;
    if (this.known?.skippedFiles.has(key)) return;
    this.known?.skippedFiles.add(key);
    this.loader.skipped(name, reason, keys);
  }

  /** Stores a source read (table sources) with its warnings, and adds it to the totals. */
  private store(read: SourceRead, summary: ReadSummary, sha256: string, bytes: number): void {
    const { name, counts, src } = read;
    const warn = (text: string) => this.options.onWarning?.(text);
    const problem = read.zipProblem ?? src.problem();
    if (problem) warn(`${name}: ${problem}`);
    const endings = summary.endings;
    if (endings && endings.mixed > 0)
      warn(
        endings.mode === "cr"
          ? `${name}: mixed line endings: its lines end with a lone CR, but ${endings.mixed} end with LF or CRLF (each ends a line all the same)`
          : `${name}: mixed line endings: ${endings.mixed} line${endings.mixed === 1 ? " holds" : "s hold"} a lone CR (not a line end in a file of LF lines; such a line is read whole)`,
      );
    // JSONL: the splitter's count, so lines = records + blank + rejected is a
    // real check (the accounting view says what does not add up); a document
    // counts its elements, which are records or rejects by construction
    const lines = summary.format === "jsonl" ? summary.physicalLines : counts.records + counts.blank + counts.rejected;
    this.loader.source({
      source_id: read.id,
      name,
      sha256,
      bytes,
      format: summary.format,
      physical_lines: summary.physicalLines,
      lines,
      records: counts.records,
      blank: counts.blank,
      rejected: counts.rejected,
      attempts: counts.attempts,
      non_finite: counts.nonFinite + summary.nonFinite,
      problem,
      loaded_at: Date.now() * 1000,
      adapter: read.formats.adapters(),
    });
    // a run header alone (a log written without its records) is a log: its owed trials are the figure
    const owes = read.runLogs > 0;
    if (counts.records === 0 && !owes && lines > counts.blank && src.head) {
      const n = summary.physicalLines;
      this.noRecord.push(`${name}: ${n} line${n === 1 ? "" : "s"} but no record (${counts.rejected} rejected): it looks like ${looksLike(src.head())}`);
    }
    if (counts.records === 0 && !owes && lines === counts.blank)
      this.blankOnly.push(`${name} (${problem ? "broken, warned above" : lines === 0 ? "empty" : `${lines} blank line${lines === 1 ? "" : "s"}`})`);
    this.result.sources++;
    this.result.records += counts.records;
    this.result.rejected += counts.rejected;
    this.result.attempts += counts.attempts;
    if (problem) this.result.broken++;
  }

  /**
   * Once every source is read: throws NoRecordError when a folder or archive
   * gave no record, or no input gave one (sources that were all stored before
   * aside); warns of the rest.
   */
  finish(): void {
    const empty = this.containers.empty();
    if (empty) throw new NoRecordError(empty);
    // an input with lines but no record is no log: an error naming what it looks like;
    // beside inputs that gave records, a warning
    if (this.noRecord.length && this.result.records === 0) throw new NoRecordError(this.noRecord.join("\n"));
    // an empty file or stdin, or only blank lines: nothing to report is never a success
    if (this.result.records === 0 && this.result.skipped.length === 0 && this.blankOnly.length)
      throw new NoRecordError(`no record in ${this.blankOnly.join(", ")}: nothing to report`);
    for (const what of this.noRecord) this.options.onWarning?.(what);
    if (this.repeatedKeys > REPEATED_KEYS_SHOWN)
      this.options.onWarning?.(
        `${this.repeatedKeys} keys in all are written twice in one object (the first ${REPEATED_KEYS_SHOWN} named above; accounting.duplicate_keys counts them, table duplicate_keys lists them)`,
      );
  }

  close(): void {
    this.loader.close();
  }
}

/**
 * One source being read: its id and name (secrets masked), its counts, the
 * adapters that read it (SourceFormats) and what its run headers say. It is the
 * sink its units, blanks and rejects go to, from this thread's reader or from
 * the line workers (PreparedSink), and applies each in input order.
 */
class SourceRead implements PreparedSink, ArchiveSink {
  readonly counts = { records: 0, blank: 0, rejected: 0, attempts: 0, nonFinite: 0 };
  /** the source's name as shown and stored, secrets masked (secrets.ts), before anything is stored or shown */
  readonly name: string;
  readonly formats: SourceFormats<PreparedUnit>;
  /** set when a zip's central directory cannot be read: the source is broken, and holds nothing */
  zipProblem: string | null = null;
  /** what the source's run headers say (FormatAdapter.header), stored once the source is read */
  private readonly logs: RunLog[] = [];
  /** how many run logs its headers gave: a log of its header only owes trials, so it is no empty input */
  get runLogs(): number {
    return this.logs.length;
  }
  /** trials with a dict-valued score, and its keys, for the warning that names --score-key */
  private readonly dict = { trials: 0, keys: new Set<string>() };
  private readonly context: PrepareContext;
  private readonly loader: Loader;
  private readonly options: IngestOptions;

  constructor(
    private readonly run: IngestRun,
    readonly src: SourceStream,
    readonly id: number,
  ) {
    ({ loader: this.loader, options: this.options } = run);
    const name = maskSecrets(src.name);
    if (name.masked) this.loader.masked(id, null, "source name", name.counts);
    this.name = name.text;
    this.formats = new SourceFormats<PreparedUnit>(this.name, this.options.format ?? null);
    this.context = { source: this.name, scoreKey: this.options.scoreKey ?? null, forced: this.options.format ?? null, runPerFile: this.options.runPerFile };
  }

  /**
   * Reads the source's bytes into this sink: a zip by the adapters' archive
   * reader, a text record by its adapter, anything else as JSONL or a JSON
   * document (records/reader.ts), JSONL lines of a big source in the line
   * workers (load/parallel.ts).
   */
  async read(): Promise<ReadSummary> {
    const { src, options } = this;
    if (src.zip) return await readZip(src, this.name, this, (text) => (this.zipProblem = text));
    const toRecord = textRecordOf(src.name);
    if (toRecord) return await readTextRecord(src.chunks, this, toRecord);
    return await readUnits(src.chunks, CONTAINER_KEYS, this, namedFormat(src.name), {
      ...documentOptions(src.name),
      chooseDocument: this.formats.chooseDocument,
      maxLineBytes: options.maxLineBytes,
      readJsonl: (chunks, inThread) => readJsonlInWorkers(chunks, this, this.context, options.maxLineBytes, inThread),
    });
  }

  /** Stores the run logs its headers gave, and warns of trials left unscored by a dict-valued score. */
  storeRunLogs(): void {
    const { dict } = this;
    for (const log of this.logs) this.loader.runLog(this.id, log, { trials: dict.trials, keys: [...dict.keys] });
    if (dict.trials > 0)
      this.options.onWarning?.(
        `${this.name}: ${dict.trials} trial${dict.trials === 1 ? " has" : "s have"} a dict-valued score (keys ${[...dict.keys].join(", ")}) and ${dict.trials === 1 ? "is" : "are"} unscored: name the key that decides success with --score-key KEY`,
      );
  }

  readonly reject = (line: number, location: string | null, why: string, text: string, kind: RejectKind): void => {
    this.counts.rejected++;
    const shown = maskSecrets(text);
    if (shown.masked) this.loader.masked(this.id, line, location, shown.counts);
    const reason = shortReason(maskSecrets(why).text);
    this.loader.reject(this.id, line, location, reason, excerpt(shown.text));
    this.options.onReject?.({ source: this.name, line, location, reason, kind });
  };

  readonly blank = (): void => void this.counts.blank++;

  /** the longest JSON value of an archive member held whole: the line limit */
  get maxValueBytes(): number {
    return this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** stream-json for an archive's members (ArchiveSink.jsonStream), loaded as the record reader loads it */
  readonly jsonStream = loadJsonStream;

  readonly header = (header: Record<string, unknown>, before?: Record<string, unknown> | null): void => {
    const forced = this.options.format ?? null;
    const adapter = headerAdapter(header, forced);
    if (!adapter) return;
    this.formats.sawHeader(adapter.name);
    const log = adapter.header!.adapt(header, { source: this.name, header, scoreKey: this.options.scoreKey ?? null });
    if (before && log.owed.length && headerAdapter(before, forced) !== adapter) {
      // the records were read before the keys that name their run: they cannot be matched to the trials the header owes
      this.options.onWarning?.(
        `${this.name}: its run header (${adapter.name}) comes after its records, which were read without it (run named after the file); the ${log.owed.length} trials it owes are not counted as missing`,
      );
      log.owed = [];
    }
    this.logs.push(log);
  };

  readonly unit = (raw: Unit): void => this.prepared(prepareUnit(raw, this.context));

  /** A PreparedUnit (load/prepare.ts: made here, or in a worker thread), applied in input order. */
  readonly prepared = (p: PreparedUnit): void => {
    if (p.duplicateKeys) {
      for (const key of p.duplicateKeys) {
        const shown = maskSecrets(key).text;
        this.loader.duplicateKey(this.id, p.line, p.location, shown);
        if (++this.run.repeatedKeys <= REPEATED_KEYS_SHOWN) {
          const where = p.location ? `${this.name} (${p.location})` : `${this.name}:${p.line}`;
          this.options.onWarning?.(`${where}: key ${JSON.stringify(shown)} is written twice in one object; the last value is read, as JSON.parse does`);
        }
      }
    }
    if (p.masked) this.loader.masked(this.id, p.line, p.location, p.masked);
    if (p.detection === null) {
      this.load(p, p.adapter);
      return;
    }
    const chosen = this.formats.take(p.detection, p);
    if (!chosen) return; // held back until the source shows its format
    for (const held of chosen.release) this.load(held, "canonical");
    this.load(p, chosen.format.name);
  };

  /**
   * A unit whose attempts' rows a line worker wrote (load/packed.ts): applied as
   * `prepared` applies it (the adapter detected, nothing masked or repeated),
   * its attempts given the next ids; the first of them, or null when the source
   * holds its records back no more (it gave up).
   */
  readonly gathered = (detection: Detection, attempts: number, nonFinite: number): number | null => {
    const chosen = this.formats.take(detection, null);
    if (!chosen) return null;
    for (const held of chosen.release) this.load(held, "canonical");
    this.formats.count(chosen.format.name);
    const first = this.loader.takeAttemptIds(attempts);
    this.countRecord(attempts, nonFinite);
    return first;
  };

  readonly appendGathered = (table: GatheredTable, rows: TableColumns, long: LongBytes): void => this.loader.appendGathered(this.id, table, rows, long);

  /** Loads a prepared unit as read by `adapter`: a reject, run metadata, or a record's attempts. */
  private load(p: PreparedUnit, adapter: string): void {
    const plan = p.plan;
    const kind: RejectKind = p.location === null ? "line" : "element";
    if (plan.kind === "error") {
      this.reject(p.line, p.location, plan.error, p.text as string, kind);
      return;
    }
    this.formats.count(adapter);
    if (plan.kind === "metadata") {
      this.counts.records++;
      this.loader.runMetadata(this.id, plan.metadata);
      if (plan.metadata.warning) this.options.onWarning?.(maskSecrets(plan.metadata.warning).text);
      return;
    }
    this.dict.trials += plan.dictTrials;
    for (const k of plan.dictKeys) this.dict.keys.add(k);
    if (plan.error !== null) {
      this.reject(p.line, p.location, plan.error, p.text as string, kind);
      return;
    }
    for (const [i, a] of plan.attempts.entries()) {
      if (this.options.runPerFile) a.run_id = runOfFile(this.name, a.run_id);
      const lineHash = plan.attemptHashes?.[i] ?? (plan.lineHash as string);
      this.loader.attempt(a, { sourceId: this.id, line: p.line, location: p.location, format: adapter, lineHash, nonFinite: p.nonFinite });
    }
    this.countRecord(plan.attempts.length, p.nonFinite);
  }

  /** A record loaded: by `load`, or as rows a line worker wrote (`gathered`). */
  private countRecord(attempts: number, nonFinite: number): void {
    this.counts.records++;
    this.run.recordsRead++;
    this.counts.attempts += attempts;
    this.counts.nonFinite += nonFinite;
  }
}

/** Why a side file of a folder or archive was skipped (meta.skipped_files `reason`). */
export const SIDE_FILE_REASON = "no input format recognises it";

/**
 * What each folder or archive given as an input held: the records and rejects
 * read from it, and the files skipped in it, so one that yields no record at
 * all is an error naming what it found.
 */
class ContainerTally {
  private readonly tally = new Map<string, { units: number; found: string[] }>();

  private of(container: string) {
    let t = this.tally.get(container);
    if (!t) this.tally.set(container, (t = { units: 0, found: [] }));
    return t;
  }

  /** `units` records read (or a source skipped as already stored) in `container`. */
  read(container: string, units: number): void {
    this.of(container).units += units;
  }

  /** A file of `container` that gave no record, as `name (why)`. */
  found(container: string, what: string): void {
    this.of(container).found.push(what);
  }

  /** The error for the first folder or archive that yielded nothing, or null. */
  empty(): string | null {
    for (const [container, t] of this.tally) {
      if (t.units > 0) continue;
      const shown = t.found.slice(0, 5).join("; ");
      const more = t.found.length > 5 ? `; and ${t.found.length - 5} more` : "";
      return `${container}: no record read from it; it holds ${t.found.length} file(s) that gave none: ${shown}${more}; name a file's format with --input-format NAME (denom formats lists them)`;
    }
    return null;
  }
}

/** Repeated keys named one by one on stderr before the rest are counted. */
const REPEATED_KEYS_SHOWN = 5;
/** The adapter that reads a run header (FormatAdapter.header): the forced one when it reads headers, else the first that detects it. */
function headerAdapter(header: Record<string, unknown>, forced: Adapter | null): FormatAdapter | null {
  if (forced) return "header" in forced && forced.header?.detect(header) ? (forced as FormatAdapter) : null;
  return FORMATS.find((f) => f.header?.detect(header)) ?? null;
}

/**
 * Reads a zip source member by member (the adapters'
 * archive reader, formats/index.ts ARCHIVE_READER), then drains its
 * bytes for the digest and removes any temporary copy. A zip whose central
 * directory cannot be read (a cut or damaged file) is a broken source
 * (`onBroken`: warned about, counted, fatal under --strict) holding nothing.
 * Throws DataError when it is a zip but not the archive the reader knows, or
 * passes a bound (bytes/bounds.ts) that holds for the whole input.
 */
async function readZip(src: SourceStream, name: string, sink: ArchiveSink, onBroken: (problem: string) => void): Promise<ReadSummary> {
  const { path, cleanup, budget } = src.zip!;
  try {
    let zip: ZipArchive;
    try {
      zip = await ZipArchive.open(path, name, budget);
    } catch (e) {
      if (e instanceof ExpansionError) throw e;
      onBroken(`zip archive cannot be read (${(e as Error).message}); nothing of it was read`);
      return { format: "json", physicalLines: 0, nonFinite: 0 };
    }
    try {
      return await ARCHIVE_READER(zip, sink);
    } catch (e) {
      throw e instanceof DataError ? e : new DataError(`${name}: ${(e as Error).message}`);
    } finally {
      zip.close();
    }
  } finally {
    for await (const _ of src.chunks); // the digest of the file as stored
    cleanup();
  }
}

/**
 * The specs left once plain files whose sha256 is among `digests` are moved to
 * `skipped`. Only a file whose size is among `sizes` (the bytes of a stored
 * source) can be one loaded before, so no other file is read twice; an archive
 * never is one (its members are), so it is not hashed either.
 */
export async function withoutKnownFiles(
  specs: readonly InputSpec[],
  digests: Map<string, string>,
  sizes: ReadonlySet<number>,
  skipped: SkippedSource[],
): Promise<InputSpec[]> {
  const fresh: InputSpec[] = [];
  for (const spec of specs) {
    if (spec.kind === "file" && sizes.has(spec.size) && !ARCHIVE_NAME.test(spec.path)) {
      const sha256 = await fileSha256(spec.path);
      const sameAs = digests.get(sha256);
      if (sameAs !== undefined) {
        skipped.push({ name: spec.path, sha256, same_as: sameAs });
        continue;
      }
    }
    fresh.push(spec);
  }
  return fresh;
}

/** A reject reason of at most 300 characters (a reason quoting a value of a huge line stays readable). */
function shortReason(reason: string): string {
  return reason.length > 300 ? `${reason.slice(0, 300)}…` : reason;
}

/** Archive names: their members are the sources, so the archive's own digest is never stored. */
const ARCHIVE_NAME = /\.(tar|tgz|tar\.gz)$/i;
