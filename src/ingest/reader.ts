/**
 * Turns a source's bytes into units: one JSON value with where it came from.
 * JSONL is split into physical lines and parsed line by line (lines.ts); a JSON
 * document (an array, or an object such as Terminal-Bench's `results.json`) is
 * streamed with stream-json, one unit per element of its record array.
 */
import { getManyValues, isMany, none } from "stream-chain/defs.js";
import Assembler from "stream-json/assembler.js";
import { jsonParser } from "stream-json/parser.js";
import { LineSplitter, parseLine } from "./lines.js";
import { NonFiniteFilter } from "./non-finite.js";
import { peek } from "./peek.js";

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
  /** a JSON document's keys before its container array (see AdaptContext.header); absent otherwise */
  header?: Record<string, unknown> | null;
}

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
}

export interface ReadSummary {
  format: "jsonl" | "json";
  /** physical lines of the source (newlines, plus a last line without one) */
  physicalLines: number;
  /** NaN / Infinity tokens read as null in a JSON document (JSONL units count their own) */
  nonFinite: number;
}

/** Top-level keys of a JSON document whose array elements are records (declared by the adapters). */
export type ContainerKeys = ReadonlySet<string>;

/** How a JSON document is read, beyond its container keys. */
export interface DocumentOptions {
  /**
   * Top-level keys of a document read as one record whose values are skipped
   * token by token, never assembled (a SWE-agent `.traj`'s `trajectory` and
   * `history`: megabytes no adapter reads). The record is then read without them.
   */
  skipKeys?: ReadonlySet<string>;
}

const SNIFF_BYTES = 1 << 20;
const SNIFF_LINES = 5;
const EXCERPT = 80;

/** The start of a rejected text, as stored with the reject: at most 80 characters, `…` when cut. */
export function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/**
 * Reads one source, pushing every unit, blank and reject into `sink`. `named`
 * is what the source's name says (isJsonlName): `jsonl` is read line by line
 * whatever its first bytes hold, so one broken first line cannot turn the whole
 * file into one broken document; `null` (a `.json`, stdin) is sniffed.
 */
export async function readUnits(
  chunks: AsyncIterable<Buffer>,
  containers: ContainerKeys,
  sink: UnitSink,
  named: "jsonl" | null = null,
  options: DocumentOptions = {},
): Promise<ReadSummary> {
  if (named === "jsonl") return readJsonl(chunks, sink);
  let newlines = 0;
  // enough to tell JSONL from a document: SNIFF_LINES whole lines, or 1 MiB
  const head = await peek(chunks, (chunk, total) => (newlines += countNewlines(chunk)) > SNIFF_LINES || total >= SNIFF_BYTES);
  return sniff(head.bytes, head.ended, containers) === "jsonl"
    ? readJsonl(head.rest, sink)
    : readDocument(head.rest, containers, sink, options);
}

/**
 * JSONL or a JSON document? A document starts with `[`; or its first non-blank
 * line is a whole object holding a container array (a minified `results.json`:
 * `{"results": [...]}` on one line, whose elements are the records); or it has
 * no line among its first five non-blank ones that is a whole JSON object by
 * itself and starts at the first column (a pretty-printed document indents its
 * inner objects).
 */
export function sniff(head: Buffer, complete: boolean, containers: ContainerKeys): "jsonl" | "json" {
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const firstChar = text.trimStart()[0];
  if (firstChar === undefined) return "jsonl";
  if (firstChar === "[") return "json";
  const lines = text.split("\n");
  if (!complete) lines.pop(); // the last piece may be cut
  let seen = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (++seen > SNIFF_LINES) break;
    if (line[0] === " " || line[0] === "\t") continue;
    const parsed = parseLine(line);
    if (parsed.kind !== "value") continue;
    if (seen === 1 && holdsContainer(parsed.value, containers)) return "json";
    return "jsonl";
  }
  return seen === 0 && complete ? "jsonl" : "json";
}

/** True when `value` has a container key holding an array (what DocumentWalker would stream the elements of). */
function holdsContainer(value: Record<string, unknown>, containers: ContainerKeys): boolean {
  return Object.keys(value).some((k) => containers.has(k) && Array.isArray(value[k]));
}

async function readJsonl(chunks: AsyncIterable<Buffer>, sink: UnitSink): Promise<ReadSummary> {
  const splitter = new LineSplitter();
  const onLine = ({ no, text }: { no: number; text: string | null }) => {
    const r = parseLine(text);
    if (r.kind === "blank") sink.blank(no);
    else if (r.kind === "reject") sink.reject(no, null, r.reason, text ?? "(bytes that are not UTF-8)", "line");
    else sink.unit({ line: no, location: null, value: r.value, text: text as string, nonFinite: r.nonFinite });
  };
  for await (const chunk of chunks) splitter.push(chunk, onLine);
  splitter.end(onLine);
  return { format: "jsonl", physicalLines: splitter.lines, nonFinite: 0 };
}

/** Thrown inside readDocument when the bytes are not UTF-8 (the decoder does not say where). */
class NotUtf8 extends Error {}

async function readDocument(
  chunks: AsyncIterable<Buffer>,
  containers: ContainerKeys,
  sink: UnitSink,
  options: DocumentOptions,
): Promise<ReadSummary> {
  let physicalLines = 0;
  let lastByte = 10;
  const filter = new NonFiniteFilter();
  // fatal: bytes that are not UTF-8 end the read instead of turning into U+FFFD
  // unseen; ignoreBOM is false, so a byte-order mark at the start is dropped
  const decoder = new TextDecoder("utf-8", { fatal: true });
  // The bare tokenizer, driven by hand: every token of a chunk is walked before
  // the next chunk is parsed, so an error keeps everything before it.
  const tokenize = jsonParser({ jsonStreaming: true, packValues: true, streamValues: false });
  const walker = new DocumentWalker(containers, options.skipKeys ?? NO_KEYS, (value, location, n) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const shown = JSON.stringify(value) ?? "";
      sink.reject(n, location, `expected a JSON object, got ${Array.isArray(value) ? "an array" : shown}`, shown, "element");
      return;
    }
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch (e) {
      // an element nested 100,000 deep: that element is a reject, the document reads on
      sink.reject(n, location, `a value is nested too deeply to store (${(e as Error).message})`, "", "element");
      return;
    }
    sink.unit({ line: n, location, value: value as Record<string, unknown>, text, nonFinite: 0, header: walker.header });
  });
  const feed = (input: string | typeof none) => {
    const out = tokenize(input as string);
    if (isMany(out)) for (const tok of getManyValues(out)) walker.consume(tok as Token);
  };
  const decode = (chunk: Buffer | null): string => {
    try {
      return chunk === null ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      // keep the elements that end before the bad bytes: read the chunk up to them
      if (chunk !== null) feed(filter.push(validPrefix(chunk), true));
      throw new NotUtf8();
    }
  };
  const breakAt = (e: unknown) => {
    const n = walker.units + 1;
    const what = e instanceof NotUtf8 ? `bytes that are not UTF-8 at element ${n}` : `invalid JSON document at element ${n} (${(e as Error).message})`;
    sink.reject(n, walker.where(), `${what}: the elements before it are kept, the rest of the document was not read`, "", "document");
  };
  let broken = false;
  for await (const chunk of chunks) {
    physicalLines += countNewlines(chunk);
    if (chunk.length) lastByte = chunk[chunk.length - 1];
    if (broken) continue; // count the lines, parse no further
    try {
      feed(filter.push(decode(chunk)));
    } catch (e) {
      broken = true;
      breakAt(e);
    }
  }
  if (!broken) {
    try {
      feed(filter.push(decode(null), true));
      feed(none);
      if (!walker.atTopLevel()) throw new Error("the document ends in the middle of a value");
    } catch (e) {
      breakAt(e);
    }
  }
  if (lastByte !== 10) physicalLines++;
  return { format: "json", physicalLines, nonFinite: filter.count };
}

/**
 * The text of `chunk` before its first byte that is not UTF-8 (decoded with
 * replacement, cut at the first U+FFFD). Empty when the chunk starts with the
 * bad bytes or the bad sequence began in the chunk before.
 */
function validPrefix(chunk: Buffer): string {
  const text = new TextDecoder("utf-8").decode(chunk);
  const cut = text.indexOf("\uFFFD");
  return cut > 0 ? text.slice(0, cut) : "";
}

type Token = { name: string; value?: unknown };
const NO_KEYS: ReadonlySet<string> = new Set();
const VALUE_START = new Set(["startObject", "startArray", "stringValue", "numberValue", "nullValue", "trueValue", "falseValue"]);

/**
 * Walks the packed stream-json tokens of one or more top-level values and emits
 * units: the elements of a top-level array; the elements of a top-level object's
 * container array (its first key named in `containers`, e.g. `results`), the
 * object's other keys being ignored; or else the top-level object itself.
 */
class DocumentWalker {
  /** units emitted so far */
  units = 0;
  private depth = 0;
  /** depth at which units live: 1 in a top-level array, 2 in a container; -1 elsewhere */
  private elementDepth = -1;
  private element: Assembler | null = null;
  /** a top-level object assembled whole, until a container array shows up in it */
  private whole: Assembler | null = null;
  private topObject = false;
  private sawContainer = false;
  private pendingKey: string | null = null;
  private containerKey: string | null = null;
  private index = 0;
  /** nesting inside a skipped top-level value; -1 when not skipping */
  private skipDepth = -1;
  /** the keys of the current top-level object read before its container array */
  header: Record<string, unknown> | null = null;

  constructor(
    private readonly containers: ContainerKeys,
    private readonly skipKeys: ReadonlySet<string>,
    private readonly emit: (value: unknown, location: string, n: number) => void,
  ) {}

  /** True between top-level values (nothing half-read). */
  atTopLevel(): boolean {
    return this.depth === 0 && this.element === null;
  }

  /** Where the walk is, for an error message. */
  where(): string {
    if (this.elementDepth === 2) return `${this.containerKey}[${this.index}]`;
    if (this.elementDepth === 1) return `[${this.index}]`;
    return `value ${this.units + 1}`;
  }

  consume(tok: Token): void {
    if (this.skipDepth >= 0) {
      // a skipped value: follow its nesting, assemble nothing
      if (tok.name === "startObject" || tok.name === "startArray") this.skipDepth++;
      else if (tok.name === "endObject" || tok.name === "endArray") this.skipDepth--;
      if (this.skipDepth === 0) this.skipDepth = -1;
      return;
    }
    if (this.element) {
      this.element.consume(tok as never);
      if (this.element.done) this.finishElement();
      return;
    }
    if (this.depth === this.elementDepth && VALUE_START.has(tok.name)) {
      this.element = new Assembler();
      this.element.consume(tok as never);
      if (this.element.done) this.finishElement();
      return;
    }
    if (this.depth === 0) {
      if (tok.name === "startArray") {
        this.depth = 1;
        this.elementDepth = 1;
        this.index = 0;
      } else if (tok.name === "startObject") {
        this.depth = 1;
        this.topObject = true;
        this.sawContainer = false;
        this.header = null;
        this.whole = new Assembler();
        this.whole.consume(tok as never);
      } else if (VALUE_START.has(tok.name)) {
        this.units++;
        this.emit(scalarOf(tok), `value ${this.units}`, this.units);
      }
      return;
    }
    if (this.depth === 1 && this.topObject) {
      if (tok.name === "keyValue") {
        const key = tok.value as string;
        this.pendingKey = !this.sawContainer && this.containers.has(key) ? key : null;
        if (this.pendingKey === null && this.skipKeys.has(key)) {
          this.skipDepth = 0;
          return;
        }
        this.whole?.consume(tok as never);
        return;
      }
      if (tok.name === "startArray" && this.pendingKey !== null) {
        // the keys read so far are the document's header, given to each element's adapter
        const before = this.whole?.current as Record<string, unknown> | undefined;
        if (before) delete before[this.pendingKey];
        this.header = before ?? null;
        this.whole = null;
        this.sawContainer = true;
        this.containerKey = this.pendingKey;
        this.pendingKey = null;
        this.depth = 2;
        this.elementDepth = 2;
        this.index = 0;
        return;
      }
      this.pendingKey = null;
    }
    if (tok.name === "endArray" && this.depth === this.elementDepth) {
      this.depth--;
      this.elementDepth = -1;
      return;
    }
    this.whole?.consume(tok as never);
    if (tok.name === "startObject" || tok.name === "startArray") this.depth++;
    else if (tok.name === "endObject" || tok.name === "endArray") this.depth--;
    if (this.depth === 0 && this.topObject) {
      if (this.whole && !this.sawContainer) {
        this.units++;
        this.emit(this.whole.current, `value ${this.units}`, this.units);
      }
      this.whole = null;
      this.topObject = false;
    }
  }

  private finishElement(): void {
    const value = this.element!.current;
    this.element = null;
    this.units++;
    const location = this.elementDepth === 2 ? `${this.containerKey}[${this.index}]` : `[${this.index}]`;
    this.index++;
    this.emit(value, location, this.units);
  }
}

/** The value of a packed scalar token: stream-json packs a number as its text (`"42"`), and true, false and null carry none. */
function scalarOf(tok: Token): unknown {
  switch (tok.name) {
    case "numberValue":
      return Number(tok.value);
    case "trueValue":
      return true;
    case "falseValue":
      return false;
    case "nullValue":
      return null;
    default:
      return tok.value;
  }
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  let i = buf.indexOf(10);
  while (i !== -1) {
    n++;
    i = buf.indexOf(10, i + 1);
  }
  return n;
}
