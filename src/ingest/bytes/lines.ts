/**
 * Physical lines (the pure per-line parser is records/parse-line.ts).
 *
 * `LineSplitter` cuts a byte stream into physical lines: `\n` ends a line, a `\r`
 * before it is dropped, a UTF-8 byte-order mark at the very start is dropped, and
 * a last line without a newline still counts. A file whose first line ends with
 * a lone `\r` (old Mac line endings) is split on `\r` (a `\r\n` or `\n` there
 * ends a line too); line endings that differ from the file's own are counted
 * (`mixedEndings`), for a warning.
 */
import { constants, isUtf8 } from "node:buffer";
import type { ReadSummary } from "../types.js";

/** One physical line: 1-based number, and its text (null when the bytes are not valid UTF-8, or the line is too long). */
export interface PhysicalLine {
  no: number;
  text: string | null;
  /** byte length of the line without its terminator */
  bytes: number;
  /**
   * Set when the line is longer than the splitter's limit: its bytes were
   * counted and dropped as they came, never held whole; `head` is the start of
   * the line (at most OVERLONG_HEAD bytes, decoded leniently) for the reject's excerpt.
   */
  overlong?: { limit: number; head: string };
  /** a raw splitter's line (LineSplitter `raw`): its bytes, not decoded (`text` is then null); valid only during the callback */
  body?: Buffer;
}

/**
 * The longest line read by default, in bytes: 64 MiB, far under V8's longest
 * string (about 512 MiB, `buffer.constants.MAX_STRING_LENGTH`), since holding a
 * line costs several times its size (its bytes, its text, the parsed value, the
 * stored copy). `--max-line-bytes` raises it up to MAX_LINE_BYTES.
 */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The highest `--max-line-bytes`: a line must still fit in one JavaScript string. */
export const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Empty lines in a row from which `push` hands them over as one run
 * (`onBlanks`) instead of one by one: 200 MiB of newlines is 200 million lines,
 * which one by one took minutes; a shorter run costs nothing to emit singly.
 */
export const BLANK_RUN = 1024;

/** Bytes of an overlong line kept for its reject's excerpt. */
const OVERLONG_HEAD = 256;

/**
 * Splits chunks of bytes into physical lines; feed chunks of any size, then call
 * `end`. A line longer than `maxBytes` is never held whole: once its pending
 * bytes pass the limit they are dropped, the rest of it is only counted up to
 * its newline, and it is emitted with `overlong` set.
 */
export class LineSplitter {
  /**
   * The pieces of the line not ended yet, joined once its newline comes: joining
   * at every chunk would copy a line of tens of MB thousands of times over.
   */
  private parts: Buffer[] = [];
  /** bytes in `parts` */
  private pending = 0;
  /** the line being skipped because it passed the limit: its start and its bytes so far */
  private skipping: { head: Buffer; bytes: number } | null = null;
  private lineNo = 0;
  private atStart = true;
  /** the file's line ending, told by its first line's terminator; null until seen */
  private mode: "lf" | "cr" | null = null;
  /** undecided, and the bytes so far ended with a `\r`: the next byte tells `\r\n` from a lone `\r` */
  private pendingCr = false;
  /** CR mode: the last chunk ended with `\r`, so a `\n` starting the next one belongs to it */
  private skipLf = false;
  /**
   * Lines ended otherwise than the file's own ending: in an LF file, lines
   * holding a lone `\r`; in a CR file, lines ended by `\n` or `\r\n`.
   */
  mixedEndings = 0;

  /** The file's line ending: `cr` when lone carriage returns end its lines, else `lf`. */
  get endings(): "lf" | "cr" {
    return this.mode ?? "lf";
  }

  /**
   * `raw`: lines are handed over as their bytes (PhysicalLine.body), not decoded,
   * for a worker thread to decode (decodeLine) and parse (parallel.ts).
   */
  constructor(
    private readonly maxBytes: number = DEFAULT_MAX_LINE_BYTES,
    private readonly raw = false,
  ) {}

  /** Lines seen so far. */
  get lines(): number {
    return this.lineNo;
  }

  /**
   * Splits `chunk`, handing each line ended in it to `onLine`; given
   * `onBlanks`, a run of at least BLANK_RUN empty lines (`\n` after `\n`) goes
   * to it at once as (number of its first line, how many).
   */
  push(chunk: Buffer, onLine: (line: PhysicalLine) => void, onBlanks?: (first: number, count: number) => void): void {
    let buf = chunk;
    if (this.atStart) {
      if (this.parts.length) {
        buf = Buffer.concat([...this.parts, chunk]);
        this.parts = [];
        this.pending = 0;
      }
      if (buf.length < 3 && buf.length > 0 && isBomPrefix(buf)) {
        this.parts = [buf];
        this.pending = buf.length;
        return;
      }
      if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      if (buf.length > 0) this.atStart = false;
      else return;
    }
    if (this.mode === null) {
      const pendingCr = this.pendingCr;
      if (!this.decide(buf)) {
        this.hold(buf);
        return;
      }
      if (pendingCr && this.mode === "cr") {
        // the bytes held back end with the lone CR that ended the first line
        if (this.skipping) this.finishPending(onLine);
        else {
          this.emit(Buffer.concat(this.parts), onLine);
          this.parts = [];
          this.pending = 0;
        }
      }
    }
    if (this.mode === "cr") {
      this.pushCr(buf, onLine);
      return;
    }
    let start = 0;
    let nl = buf.indexOf(10, start);
    if (nl === -1) {
      this.hold(buf);
      return;
    }
    if (this.parts.length || this.skipping) {
      this.hold(buf.subarray(0, nl));
      this.finishPending(onLine);
      start = nl + 1;
      nl = buf.indexOf(10, start);
    }
    while (nl !== -1) {
      if (nl === start && onBlanks && buf[start + BLANK_RUN - 1] === 10) {
        let end = start;
        while (end < buf.length && buf[end] === 10) end++;
        if (end - start >= BLANK_RUN) {
          onBlanks(this.lineNo + 1, end - start);
          this.lineNo += end - start;
          start = end;
          nl = buf.indexOf(10, start);
          continue;
        }
      }
      if (nl - start > this.maxBytes) this.emitOverlong(buf.subarray(start, Math.min(nl, start + OVERLONG_HEAD)), nl - start, onLine);
      else this.emit(buf.subarray(start, nl), onLine);
      start = nl + 1;
      nl = buf.indexOf(10, start);
    }
    // a copy: the rest must not keep the whole chunk alive
    if (start < buf.length) this.hold(Buffer.from(buf.subarray(start)));
  }

  /** Tells the file's line ending from its first terminator; false while none is seen in `buf` yet. */
  private decide(buf: Buffer): boolean {
    if (this.pendingCr) {
      this.mode = buf[0] === 10 ? "lf" : "cr";
      return true;
    }
    const cr = buf.indexOf(13);
    const lf = cr === -1 ? buf.indexOf(10) : buf.lastIndexOf(10, cr);
    if (cr === -1 && lf === -1) return false;
    if (cr === -1 || (lf !== -1 && lf < cr)) {
      this.mode = "lf";
      return true;
    }
    if (cr === buf.length - 1) {
      this.pendingCr = true;
      return false;
    }
    this.mode = buf[cr + 1] === 10 ? "lf" : "cr";
    return true;
  }

  /** CR mode: `\r`, `\r\n` and `\n` each end a line (the last two counted as mixed endings). */
  private pushCr(buf: Buffer, onLine: (line: PhysicalLine) => void): void {
    let start = 0;
    if (this.skipLf) {
      this.skipLf = false;
      if (buf[0] === 10) {
        this.mixedEndings++;
        start = 1;
      }
    }
    for (let i = start; i < buf.length; i++) {
      const b = buf[i];
      if (b !== 13 && b !== 10) continue;
      const piece = buf.subarray(start, i);
      if (this.skipping) {
        this.hold(piece);
        this.finishPending(onLine);
      } else if (this.parts.length) {
        this.parts.push(piece);
        this.emit(Buffer.concat(this.parts), onLine);
        this.parts = [];
        this.pending = 0;
      } else this.emit(piece, onLine);
      if (b === 10) this.mixedEndings++;
      else if (i + 1 === buf.length) this.skipLf = true;
      else if (buf[i + 1] === 10) {
        this.mixedEndings++;
        i++;
      }
      start = i + 1;
    }
    if (start < buf.length) this.hold(Buffer.from(buf.subarray(start)));
  }

  /** Emits the last line when the input did not end with a newline. */
  end(onLine: (line: PhysicalLine) => void): void {
    if (this.skipping) {
      this.finishPending(onLine);
      return;
    }
    if (this.parts.length === 0) return;
    const rest = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.pending = 0;
    if (rest.length === 0) return;
    if (this.atStart && isBomPrefix(rest) && rest.length < 3) return;
    this.emit(rest, onLine);
  }

  /** Keeps `piece` of the line not ended yet, or only counts it once the line is past the limit. */
  private hold(piece: Buffer): void {
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      return;
    }
    this.parts.push(piece);
    this.pending += piece.length;
    if (this.pending > this.maxBytes) {
      const first: Buffer[] = [];
      for (let n = 0, i = 0; n < OVERLONG_HEAD && i < this.parts.length; n += this.parts[i++].length) first.push(this.parts[i]);
      this.skipping = { head: Buffer.from(Buffer.concat(first).subarray(0, OVERLONG_HEAD)), bytes: this.pending };
      this.parts = [];
      this.pending = 0;
    }
  }

  /** The line held or skipped so far has ended. */
  private finishPending(onLine: (line: PhysicalLine) => void): void {
    if (this.skipping) {
      const { head, bytes } = this.skipping;
      this.skipping = null;
      this.emitOverlong(head, bytes, onLine);
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.pending = 0;
    this.emit(line, onLine);
  }

  private emitOverlong(head: Buffer, bytes: number, onLine: (line: PhysicalLine) => void): void {
    this.lineNo++;
    // lenient decoding: the head may end inside a character
    onLine({ no: this.lineNo, text: null, bytes, overlong: { limit: this.maxBytes, head: head.toString("utf8").replace(/\uFFFD+$/, "") } });
  }

  private emit(bytes: Buffer, onLine: (line: PhysicalLine) => void): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 13) end--;
    const body = end === bytes.length ? bytes : bytes.subarray(0, end);
    if (this.mode === "lf" && body.indexOf(13) !== -1) this.mixedEndings++;
    this.lineNo++;
    if (this.raw) onLine({ no: this.lineNo, text: null, bytes: end, body });
    else onLine({ no: this.lineNo, text: decodeLine(body), bytes: end });
  }
}

/** A line's text from its bytes (without terminator), or null when they are not UTF-8. */
export function decodeLine(body: Buffer): string | null {
  // Node's decoder silently replaces invalid bytes with U+FFFD; check first
  // (the native isUtf8 alone is faster than an ASCII scan in front of it)
  return isUtf8(body) ? body.toString("utf8") : null;
}

/** The reject reason of an overlong line. */
export function overlongReason(line: PhysicalLine): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  return `line of ${line.bytes} bytes, longer than the ${mib(line.overlong!.limit)} limit; skipped without reading it into memory (--max-line-bytes raises the limit)`;
}

function isBomPrefix(buf: Buffer): boolean {
  const bom = [0xef, 0xbb, 0xbf];
  for (let i = 0; i < buf.length && i < 3; i++) if (buf[i] !== bom[i]) return false;
  return true;
}

/** The ReadSummary of a JSONL source its splitter has read to the end. */
export function jsonlSummary(splitter: LineSplitter): ReadSummary {
  return { format: "jsonl", physicalLines: splitter.lines, nonFinite: 0, endings: { mode: splitter.endings, mixed: splitter.mixedEndings } };
}
