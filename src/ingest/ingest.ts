/**
 * Ingest: inputs -> sources -> units -> format adapters -> canonical attempts ->
 * DuckDB tables. Every physical line ends in one bucket (record, blank, reject);
 * a bad line is reported with file and line and never stops the run.
 */
import type { Readable } from "node:stream";
import type { Database } from "../db/session.js";
import { DataError } from "../errors.js";
import { prepareUnit, runOfFile, type PrepareContext, type PreparedUnit } from "./load/prepare.js";
import type { LongBytes, TableColumns } from "./load/columns.js";
import { CONTAINER_KEYS, documentOptions, FORMATS, SourceFormats, type Adapter, type Detection } from "../formats/index.js";
import type { FormatAdapter, RunLog } from "../formats/types.js";
import { readEvalArchive } from "../formats/inspect-eval.js";
import { Loader } from "./load/loader.js";
import type { GatheredTable } from "./load/packed.js";
import { closeLineWorkers } from "./load/parallel.js";
import { EVAL_LOG_FILE, evalLogRecord } from "../formats/openhands-eval-log.js";
import { excerpt, readTextRecord, readUnits, type ReadSummary, type RejectKind, type Unit } from "./records/reader.js";
import { maskSecrets } from "./records/secrets.js";
import { expandInputs, fileSha256, looksLike, namedFormat, openSources, type InputSpec, type SourceStream } from "./bytes/sources.js";
import { ZipArchive } from "./bytes/zip.js";

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
   * `--run-per-file`: every source is its own run (DESIGN section 4): an attempt's
   * `run_id` becomes the source's name, or `NAME#RUN_ID` when the record names a run,
   * so that records of two files never collapse as duplicates of one run.
   */
  runPerFile?: boolean;
  /** `--max-line-bytes N`: the longest JSONL line read (lines.ts DEFAULT_MAX_LINE_BYTES when absent); a longer one is a reject */
  maxLineBytes?: number;
  /** `--score-key KEY`: the key of a dict-valued score that decides success (Inspect) */
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

export async function ingestSpecs(db: Database, allSpecs: readonly InputSpec[], options: IngestOptions): Promise<IngestResult> {
  const result: IngestResult = { sources: 0, records: 0, rejected: 0, attempts: 0, broken: 0, skipped: [] };
  const containers = new ContainerTally();
  const loader = await Loader.open(db);
  let sourceId = await loader.nextSourceId();
  const known = options.skipKnownSources
    ? { digests: await loader.sourceDigests(), sizes: await loader.sourceSizes(), skippedFiles: await loader.skippedKeys() }
    : null;
  try {
    // a file loaded before is skipped on its hash alone, without parsing it again;
    // archive members, stdin and repeats within this call are caught once read, below
    const specs = known ? await withoutKnownFiles(allSpecs, known.digests, known.sizes, result.skipped) : allSpecs;
    const total = specs.every((s) => s.kind !== "stdin") ? specs.reduce((n, s) => n + (s.kind === "file" ? s.size : 0), 0) : null;
    let read = 0;
    let recordsRead = 0;
    let repeatedKeys = 0;
    // sources with lines but no record: what each looks like, said when nothing at all was read
    const noRecord: string[] = [];
    const onBytes = options.onProgress ? (n: number) => options.onProgress!((read += n), total, recordsRead) : undefined;
    for await (const src of openSources(specs, options.stdin, onBytes)) {
      if ("skipped" in src) {
        const skipped = maskSecrets(src.skipped).text;
        if (src.container !== undefined) containers.found(src.container, `${skipped} (${src.reason})`);
        const key = `${skipped}\t${src.reason}`;
        if (known?.skippedFiles.has(key)) continue;
        known?.skippedFiles.add(key);
        loader.skipped(skipped, src.reason, null);
        continue;
      }
      const id = sourceId++;
      const counts = { records: 0, blank: 0, rejected: 0, attempts: 0, nonFinite: 0 };
      // secrets are masked here, before anything is stored or shown (secrets.ts)
      const name = maskSecrets(src.name);
      if (name.masked) loader.masked(id, null, "source name", name.counts);
      const reject = (line: number, location: string | null, why: string, text: string, kind: RejectKind) => {
        counts.rejected++;
        const shown = maskSecrets(text);
        if (shown.masked) loader.masked(id, line, location, shown.counts);
        const reason = shortReason(maskSecrets(why).text);
        loader.reject(id, line, location, reason, excerpt(shown.text));
        options.onReject?.({ source: name.text, line, location, reason, kind });
      };
      const formats = new SourceFormats<PreparedUnit>(name.text, options.format ?? null);
      // what the source's run headers say (Inspect), stored once the source is read
      const logs: RunLog[] = [];
      const dict = { trials: 0, keys: new Set<string>() };
      const onHeader = (header: Record<string, unknown>) => {
        const adapter = headerAdapter(header, options.format ?? null);
        if (adapter) logs.push(adapter.header!.adapt(header, { source: name.text, header, scoreKey: options.scoreKey ?? null }));
      };
      // a PreparedUnit (prepare.ts: made here, or in a worker thread) applied in input order
      const load = (p: PreparedUnit, adapter: string) => {
        const plan = p.plan;
        const kind: RejectKind = p.location === null ? "line" : "element";
        if (plan.kind === "error") return reject(p.line, p.location, plan.error, p.text as string, kind);
        formats.count(adapter);
        if (plan.kind === "metadata") {
          counts.records++;
          loader.runMetadata(id, plan.metadata);
          if (plan.metadata.warning) options.onWarning?.(maskSecrets(plan.metadata.warning).text);
          return;
        }
        dict.trials += plan.dictTrials;
        for (const k of plan.dictKeys) dict.keys.add(k);
        if (plan.error !== null) return reject(p.line, p.location, plan.error, p.text as string, kind);
        for (const a of plan.attempts) {
          if (options.runPerFile) a.run_id = runOfFile(name.text, a.run_id);
          loader.attempt(a, { sourceId: id, line: p.line, location: p.location, format: adapter, lineHash: plan.lineHash as string, nonFinite: p.nonFinite });
        }
        countRecord(plan.attempts.length, p.nonFinite);
      };
      // a record loaded: by load, or as rows a line worker wrote (gathered)
      const countRecord = (attempts: number, nonFinite: number) => {
        counts.records++;
        recordsRead++;
        counts.attempts += attempts;
        counts.nonFinite += nonFinite;
      };
      const apply = (p: PreparedUnit) => {
        if (p.duplicateKeys) {
          for (const key of p.duplicateKeys) {
            const shown = maskSecrets(key).text;
            loader.duplicateKey(id, p.line, p.location, shown);
            if (++repeatedKeys <= REPEATED_KEYS_SHOWN) {
              const where = p.location ? `${name.text} (${p.location})` : `${name.text}:${p.line}`;
              options.onWarning?.(`${where}: key ${JSON.stringify(shown)} is written twice in one object; the last value is read, as JSON.parse does`);
            }
          }
        }
        if (p.masked) loader.masked(id, p.line, p.location, p.masked);
        if (p.detection === null) return load(p, p.adapter);
        const chosen = formats.take(p.detection, p);
        if (!chosen) return; // held back until the source shows its format
        for (const held of chosen.release) load(held, "canonical");
        load(p, chosen.format.name);
      };
      const context: PrepareContext = { source: name.text, scoreKey: options.scoreKey ?? null, forced: options.format ?? null, runPerFile: options.runPerFile };
      const onUnit = (raw: Unit) => apply(prepareUnit(raw, context));
      // a unit whose attempts' rows a line worker wrote (packed.ts): applied as `apply` applies it
      // (the adapter detected, nothing masked or repeated), its attempts given the next ids; the
      // first of them, or null when the source holds its records back no more (it gave up)
      const gathered = (detection: Detection, attempts: number, nonFinite: number): number | null => {
        const chosen = formats.take(detection, null);
        if (!chosen) return null;
        for (const held of chosen.release) load(held, "canonical");
        formats.count(chosen.format.name);
        const first = loader.takeAttemptIds(attempts);
        countRecord(attempts, nonFinite);
        return first;
      };
      const appendGathered = (table: GatheredTable, rows: TableColumns, long: LongBytes) => loader.appendGathered(id, table, rows, long);
      const sink = { unit: onUnit, prepared: apply, gathered, appendGathered, blank: () => void counts.blank++, reject, header: onHeader };
      let zipProblem: string | null = null;
      const summary = src.zip
        ? await readZip(src, name.text, sink, (text) => (zipProblem = text))
        : EVAL_LOG_FILE.test(src.name)
          ? await readTextRecord(src.chunks, sink, (text) => evalLogRecord(text, src.name))
          : await readUnits(src.chunks, CONTAINER_KEYS, sink, namedFormat(src.name), { ...documentOptions(src.name), chooseDocument: formats.chooseDocument, maxLineBytes: options.maxLineBytes, prepareContext: context });
      for (const log of logs) loader.runLog(id, log, { trials: dict.trials, keys: [...dict.keys] });
      if (dict.trials > 0)
        options.onWarning?.(
          `${name.text}: ${dict.trials} trial${dict.trials === 1 ? " has" : "s have"} a dict-valued score (keys ${[...dict.keys].join(", ")}) and ${dict.trials === 1 ? "is" : "are"} unscored: name the key that decides success with --score-key KEY`,
        );
      const unreadable = formats.unreadable();
      if (unreadable) {
        if (src.container === undefined) throw new DataError(unreadable);
        // a side file of a folder or an archive (a config, notes, another tool's JSON): named once and listed, never fatal
        await loader.discardSource(id);
        sourceId = id;
        const keys = formats.firstKeys();
        const reason = `${SIDE_FILE_REASON}${keys === null ? "" : keys.length ? `; top keys ${keys.join(", ")}` : "; an empty object"}`;
        containers.found(src.container, `${name.text} (${reason})`);
        options.onWarning?.(`${name.text}: skipped: ${reason}`);
        const key = `${name.text}\t${SIDE_FILE_REASON}`;
        if (!known?.skippedFiles.has(key)) {
          known?.skippedFiles.add(key);
          loader.skipped(name.text, SIDE_FILE_REASON, keys);
        }
        continue;
      }
      if (src.container !== undefined) {
        containers.read(src.container, counts.records);
        if (counts.records === 0)
          containers.found(src.container, `${name.text} (${counts.rejected ? `${counts.rejected} rejected, no record` : summary.physicalLines ? "only blank lines" : "empty"})`);
      }
      const { sha256, bytes } = src.digest();
      const sameAs = known?.digests.get(sha256);
      if (sameAs !== undefined) {
        if (src.container !== undefined) containers.read(src.container, 1);
        await loader.discardSource(id);
        sourceId = id;
        result.skipped.push({ name: name.text, sha256, same_as: sameAs });
        continue;
      }
      known?.digests.set(sha256, name.text);
      const problem = zipProblem ?? src.problem();
      if (problem) options.onWarning?.(`${name.text}: ${problem}`);
      const endings = summary.endings;
      if (endings && endings.mixed > 0)
        options.onWarning?.(
          endings.mode === "cr"
            ? `${name.text}: mixed line endings: its lines end with a lone CR, but ${endings.mixed} end with LF or CRLF (each ends a line all the same)`
            : `${name.text}: mixed line endings: ${endings.mixed} line${endings.mixed === 1 ? " holds" : "s hold"} a lone CR (not a line end in a file of LF lines; such a line is read whole)`,
        );
      // JSONL: the splitter's count, so lines = records + blank + rejected is a
      // real check (the accounting view says what does not add up); a document
      // counts its elements, which are records or rejects by construction
      const lines = summary.format === "jsonl" ? summary.physicalLines : counts.records + counts.blank + counts.rejected;
      loader.source({
        source_id: id,
        name: name.text,
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
        adapter: formats.adapters(),
      });
      if (counts.records === 0 && lines > counts.blank && src.head) {
        const n = summary.physicalLines;
        const what = `${name.text}: ${n} line${n === 1 ? "" : "s"} but no record (${counts.rejected} rejected): it looks like ${looksLike(src.head())}`;
        noRecord.push(what);
      }
      result.sources++;
      result.records += counts.records;
      result.rejected += counts.rejected;
      result.attempts += counts.attempts;
      if (problem) result.broken++;
    }
    const empty = containers.empty();
    if (empty) throw new DataError(empty);
    // an input with lines but no record is no log: an error naming what it looks like (issue 15);
    // beside inputs that gave records, a warning
    if (noRecord.length && result.records === 0) throw new DataError(noRecord.join("\n"));
    for (const what of noRecord) options.onWarning?.(what);
    if (repeatedKeys > REPEATED_KEYS_SHOWN)
      options.onWarning?.(`${repeatedKeys} keys in all are written twice in one object (the first ${REPEATED_KEYS_SHOWN} named above; accounting.duplicate_keys counts them, table duplicate_keys lists them)`);
  } finally {
    closeLineWorkers();
    loader.close();
  }
  return result;
}

/** Why a side file of a folder or archive was skipped (meta.skipped_files `reason`). */
export const SIDE_FILE_REASON = "no input format recognises it";

/**
 * What each folder or archive given as an input held: the records and rejects
 * read from it, and the files skipped in it, so one that yields no record at
 * all is an error naming what it found (issue 14).
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
/** The adapter that reads a run header (Inspect's eval header): the forced one when it reads headers, else the first that detects it. */
function headerAdapter(header: Record<string, unknown>, forced: Adapter | null): FormatAdapter | null {
  if (forced) return "header" in forced && forced.header?.detect(header) ? (forced as FormatAdapter) : null;
  return FORMATS.find((f) => f.header?.detect(header)) ?? null;
}

/**
 * Reads a zip source (an Inspect `.eval`) member by member, then drains its
 * bytes for the digest and removes any temporary copy. A zip whose central
 * directory cannot be read (a cut or damaged file) is a broken source
 * (`onBroken`: warned about, counted, fatal under --strict) holding nothing.
 * Throws DataError when it is a zip but no Inspect log.
 */
async function readZip(src: SourceStream, name: string, sink: Parameters<typeof readEvalArchive>[1], onBroken: (problem: string) => void): Promise<ReadSummary> {
  const { path, cleanup } = src.zip!;
  try {
    let zip: ZipArchive;
    try {
      zip = await ZipArchive.open(path);
    } catch (e) {
      onBroken(`zip archive cannot be read (${(e as Error).message}); nothing of it was read`);
      return { format: "json", physicalLines: 0, nonFinite: 0 };
    }
    try {
      return await readEvalArchive(zip, sink);
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
async function withoutKnownFiles(
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
