/**
 * The fast path for JSONL sources (issue 20): DuckDB's C++ JSON reader parses
 * the common line, and the per-line Node path (reader.ts jsonlLineHandler, the
 * reference) reads every other line, so rejects keep their file:line and
 * reason, masking and accounting stay as they are.
 *
 * Node streams the bytes once, splits them into physical lines (lines.ts, the
 * same splitter: BOM, CRLF, a last line without newline, overlong lines), and
 * writes each line as `LINE_NO \x01 LINE` into a piece file of at most
 * PIECE_BYTES. A line goes straight to the per-line path instead when its bytes
 * are not UTF-8, hold a NUL, \x01 or \r byte, it is longer than
 * MAX_FAST_LINE_BYTES, or it matches SUSPECT or secrets.ts maySecret (the very
 * prefilter the per-line path masks behind; tested a block of lines at a time,
 * then line by line only in a block that matches). DuckDB then reads the piece
 * (queries/select/ingest/fast_rows.sql) and tells, line by line, whether it is
 * *plain*: a canonical attempt whose every value that SQL reads exactly as
 * canonical.ts does. The other lines come back (fast_other_lines.sql) and go
 * through the per-line path in line order; then the plain lines are inserted
 * into attempts and events (fast_attempts.sql, fast_events.sql) with the ids the
 * per-line path would have given them. The lines DuckDB read are counted
 * against the lines Node wrote, and a difference is an error, never a silence.
 *
 * The piece file's path is chosen by denom (a fresh scratch folder) and is
 * bound as a parameter; nothing of an input becomes SQL text.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Database, Params } from "../db/session.js";
import { queryCatalog } from "../db/queries.js";
import { DenomError } from "../errors.js";
import { makeScratch, removeScratch } from "../scratch.js";
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, type PhysicalLine } from "./lines.js";
import type { Loader } from "./loader.js";
import type { JsonlReader, ReadSummary } from "./reader.js";
import { maySecret } from "./secrets.js";

/**
 * Inputs of at least this many bytes in all (decompressed; stdin counts as
 * big) take the fast path; `DENOM_FAST_PATH=always` or `never` overrides it
 * (the tests run both ways and compare the tables). Off by default: measured
 * on 200 MB (docs/benchmarks.md, "Ingest fast path (issue 20)"), telling plain
 * lines apart with DuckDB's JSON functions costs more CPU than the per-line
 * path it would spare, so no input size takes it until that changes.
 */
export const FAST_PATH_MIN_BYTES = Infinity;

/** Whether inputs of `bytes` in all (Infinity when unknown: stdin) take the fast path (FAST_PATH_MIN_BYTES, DENOM_FAST_PATH; never while the minimum is Infinity). */
export function useFastPath(bytes: number, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.DENOM_FAST_PATH === "always") return true;
  if (env.DENOM_FAST_PATH === "never") return false;
  return Number.isFinite(FAST_PATH_MIN_BYTES) && bytes >= FAST_PATH_MIN_BYTES;
}

/**
 * Lines read by this process through the fast path, loaded in SQL (`plain`) or
 * handed to the per-line path (`perLine`): for tests and bench/phases.mjs.
 */
export const fastPathLines = { plain: 0, perLine: 0 };

/** The TEMP table the fast path's SQL works in (queries/select/ingest/fast_rows.sql fills it, one piece at a time). */
export const FAST_TABLES = ["fast_rows"] as const;

/** Bytes of one piece file: DuckDB reads a piece while Node waits, so memory stays bounded by it. */
const PIECE_BYTES = 64 * 1024 * 1024;
/** Lines tested together for SUSPECT and maySecret before being written (bytes). */
const BLOCK_BYTES = 1024 * 1024;
/** A longer line goes through the per-line path (it would make DuckDB's CSV buffers as big). */
const MAX_FAST_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Text that DuckDB's JSON reader and JSON.parse may read differently, or that
 * fast_rows.sql does not check: a trailing comma (DuckDB accepts it), a `\u`
 * escape (lone surrogates, NUL), a number `-0` (JSON.parse reads minus zero).
 * A line that matches goes through the per-line path.
 */
const SUSPECT = /,[\t ]*[\]}]|\\u|[:,[][\t ]*-0(?![.0-9eE])/;

/** The timestamps fast_rows.sql reads (as a JSON string leaf): `YYYY-MM-DDTHH:MM:SS[.mmm]Z`, years 1970 to 2199, days up to 28, which timestamps.ts reads by Date.parse exactly. */
const FAST_TIMESTAMP = String.raw`"(19[7-9][0-9]|2[01][0-9][0-9])-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{3})?Z"`;

/** What the fast path needs of the source being read (ingest.ts gives it). */
export interface FastSource {
  db: Database;
  loader: Loader;
  sourceId: number;
  /** the source's name as stored (masked), for --run-per-file */
  name: string;
  runPerFile: boolean;
  maxLineBytes?: number;
  /**
   * Told once, in line order, where the source's first plain line comes (after
   * the per-line path has read the lines before it); false when the source's
   * records are not read (ingest.ts SourceFormats gave up on it), so its plain lines are not loaded.
   */
  firstPlain(): boolean;
  /** `n` plain lines were loaded as records (one attempt each) */
  loaded(n: number): void;
}

/** The JSONL reader of one source through the fast path (reader.ts readUnits `jsonl`). */
export function fastJsonlReader(source: FastSource): JsonlReader {
  return (chunks, perLine) => new FastJsonl(source, perLine).read(chunks);
}

/** The lines of one piece: what went to the file, what goes straight to the per-line path. */
interface Piece {
  path: string;
  fd: number;
  /** lines written to the file, and their bytes with prefixes */
  lines: number;
  bytes: number;
  longest: number;
  /** the lines kept for the per-line path, in line order */
  aside: PhysicalLine[];
  asideBytes: number;
}

class FastJsonl {
  private readonly scratch = makeScratch();
  private piece: Piece | null = null;
  private pieces = 0;
  /** the block being gathered: prefixed lines, and where each line's bytes start and end in it */
  private block = Buffer.allocUnsafe(BLOCK_BYTES + 64 * 1024);
  private blockUsed = 0;
  private blockLines: { no: number; start: number; end: number; bytes: number }[] = [];
  private firstPlainTold = false;
  private plainAccepted = true;

  constructor(
    private readonly source: FastSource,
    private readonly perLine: (line: PhysicalLine) => void,
  ) {}

  async read(chunks: AsyncIterable<Buffer>): Promise<ReadSummary> {
    const splitter = new LineSplitter(this.source.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, false);
    const onLine = (line: PhysicalLine) => this.line(line);
    try {
      for await (const chunk of chunks) {
        splitter.push(chunk, onLine);
        if (this.piece && (this.piece.bytes >= PIECE_BYTES || this.piece.asideBytes >= PIECE_BYTES)) await this.finishPiece();
      }
      splitter.end(onLine);
      await this.finishPiece();
    } finally {
      if (this.piece) closeSync(this.piece.fd);
      removeScratch(this.scratch);
      await this.source.db.run("DROP TABLE IF EXISTS fast_rows");
    }
    return { format: "jsonl", physicalLines: splitter.lines, nonFinite: 0, endings: { mode: splitter.endings, mixed: splitter.mixedEndings } };
  }

  private open(): Piece {
    if (!this.piece) {
      const path = join(this.scratch, `piece-${++this.pieces}.txt`);
      this.piece = { path, fd: openSync(path, "w"), lines: 0, bytes: 0, longest: 0, aside: [], asideBytes: 0 };
    }
    return this.piece;
  }

  /** One physical line from the splitter: into the block, or aside for the per-line path. */
  private line(line: PhysicalLine): void {
    const piece = this.open();
    const raw = line.raw;
    if (!raw || !line.utf8 || raw.length > MAX_FAST_LINE_BYTES || raw.indexOf(1) !== -1 || raw.indexOf(0) !== -1 || raw.indexOf(13) !== -1) {
      this.aside(piece, raw ? { no: line.no, text: line.utf8 ? raw.toString("utf8") : null, bytes: line.bytes } : line);
      return;
    }
    const prefix = `${line.no}\x01`;
    const need = prefix.length + raw.length + 1;
    if (this.blockUsed + need > this.block.length) {
      this.flushBlock();
      if (need > this.block.length) this.block = Buffer.allocUnsafe(need + BLOCK_BYTES);
    }
    this.blockUsed += this.block.write(prefix, this.blockUsed, "latin1");
    const start = this.blockUsed;
    this.blockUsed += raw.copy(this.block, start);
    this.block[this.blockUsed++] = 10;
    this.blockLines.push({ no: line.no, start, end: start + raw.length, bytes: raw.length });
    if (this.blockUsed >= BLOCK_BYTES) this.flushBlock();
  }

  private aside(piece: Piece, line: PhysicalLine): void {
    piece.aside.push(line);
    piece.asideBytes += line.bytes;
  }

  /**
   * Writes the block to the piece file, after taking out the lines that match
   * SUSPECT or maySecret (the block is tested whole first: a line matches only
   * if the block does, as no pattern spans a newline).
   */
  private flushBlock(): void {
    if (this.blockLines.length === 0) return;
    const piece = this.open();
    let block = this.block.subarray(0, this.blockUsed);
    const text = block.toString("utf8");
    if (SUSPECT.test(text) || maySecret(text)) {
      const kept: Buffer[] = [];
      for (const l of this.blockLines) {
        const lineText = this.block.toString("utf8", l.start, l.end);
        if (SUSPECT.test(lineText) || maySecret(lineText)) {
          piece.aside.push({ no: l.no, text: lineText, bytes: l.bytes });
          piece.asideBytes += l.bytes;
        } else {
          const prefix = `${l.no}\x01`.length;
          kept.push(this.block.subarray(l.start - prefix, l.end + 1));
        }
      }
      block = Buffer.concat(kept);
      for (const l of this.blockLines) if (l.bytes > piece.longest) piece.longest = l.bytes;
      piece.lines += kept.length;
    } else {
      for (const l of this.blockLines) if (l.bytes > piece.longest) piece.longest = l.bytes;
      piece.lines += this.blockLines.length;
    }
    writeSync(piece.fd, block);
    piece.bytes += block.length;
    this.blockUsed = 0;
    this.blockLines = [];
  }

  /**
   * DuckDB reads the piece; the lines it does not find plain, and those kept
   * aside, go through the per-line path in line order; then the plain lines are
   * inserted with the attempt ids the per-line path leaves them.
   */
  private async finishPiece(): Promise<void> {
    this.flushBlock();
    const piece = this.piece;
    if (!piece) return;
    this.piece = null;
    closeSync(piece.fd);
    piece.fd = -1;
    const { db, loader } = this.source;
    const firstId = loader.nextId;
    let rows: PhysicalLine[] = [];
    let stats = { lines: 0, plain: 0, first_plain: null as number | null, first_line: null as number | null, last_line: null as number | null };
    if (piece.lines > 0) {
      const maxLine = Math.max(2 * 1024 * 1024, piece.longest + 64);
      await db.run(`CREATE OR REPLACE TEMP TABLE fast_rows AS ${sql("fast_rows")}`, {
        path: piece.path,
        max_line_bytes: maxLine,
        buffer_bytes: Math.max(16 * 1024 * 1024, 2 * maxLine),
        iso: FAST_TIMESTAMP,
      });
      const row = await db.one(sql("fast_piece"));
      stats = {
        lines: Number(row?.lines ?? 0),
        plain: Number(row?.plain ?? 0),
        first_plain: row?.first_plain == null ? null : Number(row.first_plain),
        first_line: row?.first_line == null ? null : Number(row.first_line),
        last_line: row?.last_line == null ? null : Number(row.last_line),
      };
      // every line written is read back once: a difference would lose or double lines unseen
      if (stats.lines !== piece.lines)
        throw new DenomError(`fast path: DuckDB read ${stats.lines} lines of a piece where denom wrote ${piece.lines} (${piece.path}); rerun with DENOM_FAST_PATH=never`);
      if (stats.lines - stats.plain > 0)
        rows = (await db.all(sql("fast_other_lines"))).map((r) => {
          const text = String(r.line ?? "");
          return { no: Number(r.line_no), text, bytes: Buffer.byteLength(text) };
        });
    }
    // the per-line path in line order: the lines DuckDB did not find plain merged with those kept
    // aside (a block's matching lines are set aside when the block is written, after later ones)
    piece.aside.sort((a, b) => a.no - b.no);
    const firstLine = Math.min(stats.first_line ?? Infinity, piece.aside[0]?.no ?? Infinity);
    const lastLine = Math.max(stats.last_line ?? -Infinity, piece.aside[piece.aside.length - 1]?.no ?? -Infinity);
    let replayed = 0;
    let plainSkipped = 0;
    let i = 0;
    let j = 0;
    while (i < rows.length || j < piece.aside.length) {
      const line = j >= piece.aside.length || (i < rows.length && rows[i].no < piece.aside[j].no) ? rows[i++] : piece.aside[j++];
      if (stats.first_plain !== null && stats.first_plain < line.no) this.tellFirstPlain();
      // the plain lines before this one get their ids in SQL: leave them out here
      const plainBefore = line.no - firstLine - replayed;
      if (this.plainAccepted) loader.skipAttemptIds(plainBefore - plainSkipped);
      plainSkipped = plainBefore;
      this.perLine(line);
      replayed++;
    }
    fastPathLines.perLine += replayed;
    fastPathLines.plain += stats.plain;
    if (stats.plain === 0) return;
    this.tellFirstPlain();
    if (!this.plainAccepted) return;
    loader.skipAttemptIds(stats.plain - plainSkipped);
    loader.flush(["attempts"]);
    const params: Params = {
      first_id: firstId,
      source_id: this.source.sourceId,
      first_line: firstLine,
      last_line: lastLine,
      run_per_file: this.source.runPerFile,
      source_name: this.source.name,
    };
    await db.run(`INSERT INTO attempts BY NAME ${sql("fast_attempts")}`, params);
    await db.run(`INSERT INTO events BY NAME ${sql("fast_events")}`, { source_id: this.source.sourceId });
    this.source.loaded(stats.plain);
  }

  private tellFirstPlain(): void {
    if (this.firstPlainTold) return;
    this.firstPlainTold = true;
    this.plainAccepted = this.source.firstPlain();
  }
}

/** The SQL of queries/select/ingest/NAME.sql. */
function sql(name: string): string {
  const query = queryCatalog().selects.get(`ingest/${name}`);
  if (!query) throw new DenomError(`queries/select/ingest/${name}.sql: no such file`);
  return query.sql;
}
