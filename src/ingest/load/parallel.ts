/**
 * The JSONL line path in worker threads. The main thread reads the
 * source and cuts it into physical lines with the one LineSplitter (raw: bytes
 * only, so line numbers, line endings, the byte-order mark and overlong lines
 * are told exactly as in this thread), copies the lines into blocks of about
 * BLOCK_BYTES, and hands each block to a worker (line-worker.ts), which decodes,
 * parses, masks, adapts and normalizes every line (records/parse-line.ts lineOutcome,
 * prepare.ts prepareUnit) and writes the common record's attempts and events
 * rows in the bytes of DuckDB's vectors (packed.ts). The results come back in
 * plain data and are applied in line order, block after block (the rows
 * appended as they are, the attempt ids written in), so every table, reject,
 * warning and count is the one the in-thread path gives. A source smaller than
 * `minBytes` (decompressed) is read in this thread: a worker's start costs tens
 * of milliseconds.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { DataError } from "../../errors.js";
import { LINE_WORKER } from "../../paths.js";
import { jsonlSummary, LineSplitter, overlongReason, type PhysicalLine } from "../bytes/lines.js";
import { peekBytes } from "../bytes/peek.js";
import type { LongBytes, TableColumns } from "./columns.js";
import type { Detection } from "../../formats/index.js";
import { gatheredRows, PackedUnits, type GatheredTable, type Packed } from "./packed.js";
import type { PrepareContext, PreparedUnit } from "./prepare.js";
import type { ReadSummary, UnitSink } from "../types.js";

/** A block of whole physical lines, as posted to a worker. */
export interface Block {
  id: number;
  /** the lines' bytes, one after another, terminators dropped (transferred) */
  bytes: ArrayBuffer;
  /** Uint32Array: where each line ends in `bytes` (transferred) */
  ends: ArrayBuffer;
  /** 1-based number of the block's first line */
  firstLine: number;
  /** indexes of overlong lines (zero bytes here; their reject is the main thread's) */
  overlong: number[];
  context: LineContext;
}

/** What a worker needs of the source: its name (secrets masked), `--score-key`, `--input-format` by name (prepare.ts PrepareContext), `--run-per-file`. */
export interface LineContext {
  source: string;
  scoreKey: string | null;
  forced: string | null;
  runPerFile: boolean;
}

/** What a line became in a worker. */
export const enum LineKind {
  Blank,
  /** the next of `objects` is its [reason, text] */
  Reject,
  /** the next unit of `packed` (its rows gathered in the worker) */
  Packed,
  /** the next of `objects` is its PreparedUnit */
  Unit,
  /** overlong: its reject is the main thread's (Block.overlong) */
  Overlong,
}

export interface BlockResult {
  id: number;
  /** one a line, in order (LineKind); fewer than the block's lines when an adapter threw */
  kinds: Uint8Array;
  objects: (readonly [string, string] | PreparedUnit)[];
  packed: Packed;
  /** an adapter threw at line `kinds.length` of the block: the error's class name and message */
  thrown: { name: string; message: string } | null;
}

/** What the worker path needs of ingest: the prepared units, applied in order. */
export interface PreparedSink extends UnitSink {
  prepared(p: PreparedUnit): void;
  /**
   * A unit whose attempts' rows the worker wrote (packed.ts), applied as
   * `prepared` would apply it; returns the id of its first attempt (the others
   * follow one by one), or null when it is not loaded (its source gave up).
   */
  gathered(detection: Detection, attempts: number, nonFinite: number): number | null;
  /** Appends rows the worker gathered, their attempt ids written, their long strings `long` (loader.ts appendGathered). */
  appendGathered(table: GatheredTable, rows: TableColumns, long: LongBytes): void;
}

/** How the line path uses worker threads: how many (0 = none), above what size (decompressed bytes), in blocks of how many bytes and at most how many lines. */
export interface LineWorkerSettings {
  workers: number;
  minBytes: number;
  blockBytes: number;
  blockLines: number;
}

/** Bytes of lines per block posted to a worker, by default. */
const BLOCK_BYTES = 1 << 20;
/**
 * Lines per block at most: a block of empty lines holds no bytes, so without
 * it a run of blank lines (200 MiB of newlines from a 915 KB gzip) would pile
 * up in one block, a line end each, until the process ran out of memory.
 */
const BLOCK_LINES = 64 * 1024;
/** Blocks posted and not yet applied, per worker: enough to keep a worker busy while the main thread applies. */
const IN_FLIGHT_PER_WORKER = 3;

/**
 * Two workers: the main thread's share (reading, splitting, appending the rows
 * a worker wrote) is about a third of a worker's, so with one worker the second
 * core idles a third of the time (docs/benchmarks.md).
 */
const DEFAULTS: LineWorkerSettings = { workers: 2, minBytes: 32 * 1024 * 1024, blockBytes: BLOCK_BYTES, blockLines: BLOCK_LINES };
let settings: LineWorkerSettings = { ...DEFAULTS };

/**
 * Sets the line workers from the environment, for benchmarks and tests:
 * DENOM_LINE_WORKERS (count; 0 reads every source in this thread),
 * DENOM_LINE_WORKER_MIN_BYTES (the size from which a source goes to the
 * workers), DENOM_LINE_BLOCK_BYTES (bytes of lines per block),
 * DENOM_LINE_BLOCK_LINES (lines per block at most). Unset or
 * unreadable values are the defaults.
 */
export function configureLineWorkers(env: Readonly<Record<string, string | undefined>>): LineWorkerSettings {
  const n = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : null);
  settings = {
    workers: n(env.DENOM_LINE_WORKERS) ?? DEFAULTS.workers,
    minBytes: n(env.DENOM_LINE_WORKER_MIN_BYTES) ?? DEFAULTS.minBytes,
    blockBytes: Math.max(1, n(env.DENOM_LINE_BLOCK_BYTES) ?? DEFAULTS.blockBytes),
    blockLines: Math.max(1, n(env.DENOM_LINE_BLOCK_LINES) ?? DEFAULTS.blockLines),
  };
  return { ...settings };
}

/** The worker's compiled file sits beside this one in dist/; under vitest (TypeScript sources) it does not, and lines are read here. */
const HAVE_LINE_WORKER = existsSync(fileURLToPath(LINE_WORKER));

/**
 * Reads a JSONL source through the workers when it is at least `minBytes` long
 * and workers are available; otherwise `inThread` reads it in this thread, given
 * the whole stream again (the head peeked included).
 */
export async function readJsonlInWorkers(
  chunks: AsyncIterable<Buffer>,
  sink: UnitSink & Partial<PreparedSink>,
  context: PrepareContext | null,
  maxLineBytes: number | undefined,
  inThread: (chunks: AsyncIterable<Buffer>) => Promise<ReadSummary>,
): Promise<ReadSummary> {
  if (!context || !sink.prepared || !sink.gathered || settings.workers === 0 || !HAVE_LINE_WORKER) return inThread(chunks);
  const head = await peekBytes(chunks, settings.minBytes);
  if (head.ended && head.bytes.length < settings.minBytes) return inThread(head.rest);
  // what crosses to a worker: plain data, the forced adapter by its name
  const lineContext: LineContext = {
    source: context.source,
    scoreKey: context.scoreKey,
    forced: context.forced?.name ?? null,
    runPerFile: context.runPerFile ?? false,
  };
  return readBlocks(head.rest, sink as PreparedSink, lineContext, maxLineBytes, LinePool.shared(settings.workers));
}

/** A block being filled with lines. */
class BlockBuilder {
  bytes: Buffer;
  length = 0;
  ends: number[] = [];
  /** overlong lines: index in the block -> their reject */
  overlong = new Map<number, { reason: string; head: string }>();

  constructor(
    readonly firstLine: number,
    capacity = settings.blockBytes,
  ) {
    this.bytes = Buffer.allocUnsafeSlow(capacity);
  }

  get lines(): number {
    return this.ends.length;
  }
}

interface Pending {
  result: Promise<BlockResult>;
  firstLine: number;
  overlong: Map<number, { reason: string; head: string }>;
}

/** A run of empty lines (LineSplitter onBlanks), counted in the main thread in its turn: no worker needs to see it. */
interface BlankRun {
  blanks: number;
  firstLine: number;
}

async function readBlocks(
  chunks: AsyncIterable<Buffer>,
  sink: PreparedSink,
  context: LineContext,
  maxLineBytes: number | undefined,
  pool: LinePool,
): Promise<ReadSummary> {
  const splitter = new LineSplitter(maxLineBytes, true);
  const queue: (Pending | BlankRun)[] = [];
  let block = new BlockBuilder(1);
  const post = () => {
    const b = block;
    block = new BlockBuilder(b.firstLine + b.lines);
    if (b.lines === 0) return;
    const ends = new Uint32Array(b.ends);
    const bytes = b.bytes.buffer as ArrayBuffer; // its own, whole (allocUnsafeSlow): transferred, not copied
    const result = pool.run({ id: 0, bytes, ends: ends.buffer, firstLine: b.firstLine, overlong: [...b.overlong.keys()], context }, [bytes, ends.buffer]);
    result.catch(() => {}); // awaited in turn below; never an unhandled rejection meanwhile
    queue.push({ result, firstLine: b.firstLine, overlong: b.overlong });
  };
  const onLine = (line: PhysicalLine) => {
    if (line.overlong) {
      block.overlong.set(block.lines, { reason: overlongReason(line), head: line.overlong.head });
      block.ends.push(block.length);
      return;
    }
    const body = line.body as Buffer;
    if (block.length + body.length > block.bytes.length) {
      post();
      if (body.length > block.bytes.length) block = new BlockBuilder(block.firstLine, body.length);
    }
    block.bytes.set(body, block.length);
    block.length += body.length;
    block.ends.push(block.length);
    if (block.lines >= settings.blockLines) post();
  };
  const onBlanks = (first: number, count: number) => {
    post();
    queue.push({ blanks: count, firstLine: first });
    block = new BlockBuilder(first + count);
  };
  const apply = async () => {
    const p = queue.shift()!;
    if ("blanks" in p) for (let no = p.firstLine; no < p.firstLine + p.blanks; no++) sink.blank(no);
    else await applyBlock(p, sink);
  };
  const limit = pool.size * IN_FLIGHT_PER_WORKER;
  const it = chunks[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await it.next();
    } catch (e) {
      // the source broke: the whole lines read before the break are applied, as in this thread
      post();
      while (queue.length) await apply();
      throw e;
    }
    if (next.done) break;
    splitter.push(next.value, onLine, onBlanks);
    try {
      while (queue.length > limit) await apply();
    } catch (e) {
      await it.return?.(); // an adapter threw: the source is read no further
      throw e;
    }
  }
  splitter.end(onLine);
  post();
  while (queue.length) await apply();
  return jsonlSummary(splitter);
}

/**
 * Applies one block's results in line order, once its worker is done: blanks,
 * rejects and prepared units to `sink`, the rows the worker gathered for packed
 * attempts appended in order (a chunk ends before each object unit), an
 * overlong line as a reject. Throws the worker's error (DataError kept) after
 * the lines before it are applied.
 */
async function applyBlock(p: Pending, sink: PreparedSink): Promise<void> {
  const r = await p.result;
  const kinds = r.kinds;
  const objects = r.objects;
  const units = new PackedUnits(r.packed);
  const chunks = r.packed.chunks;
  // the attempt id of each packed attempt, by its ordinal in the block (-1: not loaded)
  const ids: number[] = [];
  let appended = 0;
  // the gathered rows of every packed attempt applied so far, in order (a chunk ends before each object unit)
  const appendReady = () => {
    for (; appended < chunks.length && chunks[appended].endOrdinal <= ids.length; appended++) {
      const chunk = chunks[appended];
      const rows = gatheredRows(chunk, ids);
      if (rows) sink.appendGathered(chunk.table, rows, chunk.long);
    }
  };
  let o = 0;
  for (let i = 0; i < kinds.length; i++) {
    const no = p.firstLine + i;
    switch (kinds[i]) {
      case LineKind.Blank:
        sink.blank(no);
        break;
      case LineKind.Packed: {
        const u = units.next();
        const first = sink.gathered(u.detection, u.attempts, u.nonFinite);
        for (let k = 0; k < u.attempts; k++) ids.push(first === null ? -1 : first + k);
        break;
      }
      case LineKind.Reject: {
        const [reason, text] = objects[o++] as readonly [string, string];
        sink.reject(no, null, reason, text, "line");
        break;
      }
      case LineKind.Unit:
        appendReady();
        sink.prepared(objects[o++] as PreparedUnit);
        break;
      default: {
        const { reason, head } = p.overlong.get(i)!;
        sink.reject(no, null, reason, head, "line");
      }
    }
  }
  appendReady();
  if (r.thrown) throw r.thrown.name === "DataError" ? new DataError(r.thrown.message) : new Error(r.thrown.message);
}

/** Stops the line workers (ingest.ts, once every input is read: their heaps are not held through the computation). */
export function closeLineWorkers(): void {
  LinePool.closeShared();
}

/**
 * The line workers of this process, started on first use and kept for the
 * next source of the same ingest; referenced (keeping the process alive) only
 * while a block is out.
 */
class LinePool {
  private static pool: LinePool | null = null;
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: BlockResult) => void; reject: (e: unknown) => void }>();
  private nextId = 1;
  private turn = 0;

  static shared(n: number): LinePool {
    if (LinePool.pool?.size !== n) {
      LinePool.pool?.close();
      LinePool.pool = new LinePool(n);
    }
    return LinePool.pool;
  }

  static closeShared(): void {
    LinePool.pool?.close();
    LinePool.pool = null;
  }

  private constructor(n: number) {
    for (let i = 0; i < n; i++) {
      const w = new Worker(LINE_WORKER);
      w.on("message", (r: BlockResult) => this.settle(r.id, (p) => p.resolve(r)));
      w.on("error", (e) => this.fail(e));
      w.on("exit", (code) => this.fail(new Error(`a line worker stopped (exit code ${code})`)));
      w.unref();
      this.workers.push(w);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Posts a block to the next worker in turn; resolves with its result. */
  run(block: Block, transfer: ArrayBuffer[]): Promise<BlockResult> {
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length];
    return new Promise<BlockResult>((resolve, reject) => {
      if (this.waiting.size === 0) for (const w of this.workers) w.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...block, id }, transfer);
    });
  }

  private settle(id: number, how: (p: { resolve: (r: BlockResult) => void; reject: (e: unknown) => void }) => void): void {
    const p = this.waiting.get(id);
    if (!p) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) for (const w of this.workers) w.unref();
    how(p);
  }

  /** A worker died: every block out fails, and the next source starts new workers. */
  private fail(e: unknown): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, (p) => p.reject(e));
    if (LinePool.pool === this) LinePool.pool = null;
    this.close();
  }

  private close(): void {
    for (const w of this.workers) {
      w.removeAllListeners("exit");
      void w.terminate();
    }
  }
}
