/**
 * Turns a source's bytes into units: one JSON value with where it came from.
 * JSONL is split into physical lines and parsed line by line (lines.ts); a JSON
 * document (an array, or an object holding a record array under a container key) is
 * streamed with stream-json, one unit per element of its record array; an
 * object document that a DocumentAdapter claims (by its first entries) is
 * streamed entry by entry, one unit per entry or per element of an entry's id list.
 */
import type { LiteralAssembler } from "./json-stream.js";
import { jsonlSummary, LineSplitter, type PhysicalLine } from "../bytes/lines.js";
import { lineOutcome, parseLine } from "./parse-line.js";
import { NonFiniteFilter } from "../../json-text.js";
import { peek } from "../bytes/peek.js";
import { type Token, TokenFeed, type TokenizerKit } from "./token-feed.js";
import { DETECT_ENTRIES, type DocumentAdapter, type DocumentEntry } from "../../formats/types.js";
import type { ContainerKeys, DocumentChooser, DocumentOptions, ReadSummary, UnitSink } from "../types.js";

const SNIFF_BYTES = 1 << 20;
const SNIFF_LINES = 5;
/** A JSON document is decoded and tokenized in pieces of at most this many bytes: small blocks decode faster than 64 KiB ones (PERF-NOTES). */
const DECODE_CHUNK = 32 * 1024;
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
  const inThread = (all: AsyncIterable<Buffer>) => readJsonl(all, sink, options.maxLineBytes);
  const jsonl = (c: AsyncIterable<Buffer>) => (options.readJsonl ? options.readJsonl(c, inThread) : inThread(c));
  if (named === "jsonl") {
    // a lone `[` on the first line is no JSONL record but an indented JSON array (a harness
    // that names a JSON document `.jsonl`): read as the document it is, not as thousands of broken lines
    const head = await peek(chunks, (chunk, total) => chunk.includes(0x0a) || total >= LONE_BRACKET_BYTES);
    return isLoneBracket(head.bytes) ? readDocument(head.rest, containers, sink, options) : jsonl(head.rest);
  }
  let newlines = 0;
  // enough to tell JSONL from a document: SNIFF_LINES whole lines, or 1 MiB
  const head = await peek(chunks, (chunk, total) => (newlines += countNewlines(chunk)) > SNIFF_LINES || total >= SNIFF_BYTES);
  const choose = options.chooseDocument ?? null;
  return sniff(head.bytes, head.ended, containers, choose, options.isHeader ?? null) === "jsonl"
    ? jsonl(head.rest)
    : readDocument(head.rest, containers, sink, options);
}

/** How far a `.jsonl` source is looked into for a first line that is a lone `[`. */
const LONE_BRACKET_BYTES = 4096;

/** True when the first line of `head` (after a BOM, blank lines and spaces) is `[` alone. */
function isLoneBracket(head: Buffer): boolean {
  const m = /^\s*\[[ \t]*(\r?\n|$)/.exec(
    head
      .subarray(0, LONE_BRACKET_BYTES)
      .toString("utf8")
      .replace(/^\uFEFF/, ""),
  );
  return m !== null && m[1] !== "";
}

/**
 * JSONL or a JSON document? A document starts with `[`; or its first non-blank
 * line is a whole object holding a container array (a minified `results.json`:
 * `{"results": [...]}` on one line, whose elements are the records), or one whose
 * first entries a DocumentAdapter claims (a minified `{instance_id: bool}`); or it has
 * no line among its first five non-blank ones that is a whole JSON object by
 * itself and starts at the first column (a pretty-printed document indents its
 * inner objects). A first line that is a harness log's header holding no record
 * (`isHeader`: a log written without its records) is a document too.
 */
export function sniff(
  head: Buffer,
  complete: boolean,
  containers: ContainerKeys,
  chooseDocument: DocumentChooser | null = null,
  isHeader: ((value: Record<string, unknown>) => boolean) | null = null,
): "jsonl" | "json" {
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const firstChar = text.trimStart()[0];
  if (firstChar === undefined) return "jsonl";
  if (firstChar === "[") return "json";
  // a lone CR ends a line too (a file with old Mac line endings is JSONL all the same)
  const lines = text.split(/\r\n|\r|\n/);
  if (!complete) lines.pop(); // the last piece may be cut
  let seen = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (++seen > SNIFF_LINES) break;
    if (line[0] === " " || line[0] === "\t") continue;
    const parsed = parseLine(line);
    if (parsed.kind !== "value") continue;
    if (seen === 1 && holdsContainer(parsed.value, containers)) return "json";
    if (seen === 1 && chooseDocument && chooseDocument(firstEntries(parsed.value)) !== null) return "json";
    if (seen === 1 && isHeader?.(parsed.value)) return "json";
    return "jsonl";
  }
  return seen === 0 && complete ? "jsonl" : "json";
}

/** True when `value` has a container key holding an array (what DocumentWalker would stream the elements of). */
function holdsContainer(value: Record<string, unknown>, containers: ContainerKeys): boolean {
  return Object.keys(value).some((k) => containers.has(k) && Array.isArray(value[k]));
}

/** The first DETECT_ENTRIES entries of an object, as a DocumentAdapter's detection sees them. */
function firstEntries(value: Record<string, unknown>): DocumentEntry[] {
  return Object.entries(value)
    .slice(0, DETECT_ENTRIES)
    .map(([key, v]) => ({ key, value: v, index: null }));
}

async function readJsonl(chunks: AsyncIterable<Buffer>, sink: UnitSink, maxLineBytes?: number): Promise<ReadSummary> {
  const splitter = new LineSplitter(maxLineBytes);
  const onLine = (line: PhysicalLine) => {
    const r = lineOutcome(line);
    if (r.kind === "blank") sink.blank(line.no);
    else if (r.kind === "reject") sink.reject(line.no, null, r.reason, r.text, "line");
    else sink.unit(r.unit);
  };
  const onBlanks = (first: number, count: number) => {
    for (let no = first; no < first + count; no++) sink.blank(no);
  };
  for await (const chunk of chunks) splitter.push(chunk, onLine, onBlanks);
  splitter.end(onLine);
  return jsonlSummary(splitter);
}

/**
 * Reads a text source that is not JSON (a harness's per-instance log) as one
 * record: `toRecord` keeps what matters of the whole text (formats/ decides
 * what). The source counts as a document of one element; its physical lines
 * are counted as for any source. Bytes that are not UTF-8 are replaced.
 */
export async function readTextRecord(chunks: AsyncIterable<Buffer>, sink: UnitSink, toRecord: (text: string) => Record<string, unknown>): Promise<ReadSummary> {
  const parts: Buffer[] = [];
  let physicalLines = 0;
  let lastByte = 10;
  for await (const chunk of chunks) {
    parts.push(chunk);
    physicalLines += countNewlines(chunk);
    if (chunk.length) lastByte = chunk[chunk.length - 1];
  }
  if (lastByte !== 10) physicalLines++;
  const value = toRecord(new TextDecoder("utf-8").decode(Buffer.concat(parts)));
  sink.unit({ line: 1, location: null, value, text: JSON.stringify(value), nonFinite: 0 });
  return { format: "json", physicalLines, nonFinite: 0 };
}

/** Thrown inside readDocument when the bytes are not UTF-8 (the decoder does not say where). */
class NotUtf8 extends Error {}

async function readDocument(chunks: AsyncIterable<Buffer>, containers: ContainerKeys, sink: UnitSink, options: DocumentOptions): Promise<ReadSummary> {
  let physicalLines = 0;
  let lastByte = 10;
  const filter = new NonFiniteFilter();
  // fatal: bytes that are not UTF-8 end the read instead of turning into U+FFFD
  // unseen; ignoreBOM is false, so a byte-order mark at the start is dropped
  const decoder = new TextDecoder("utf-8", { fatal: true });
  // The bare tokenizer, driven by hand: every token of a chunk is walked before
  // the next chunk is parsed, so an error keeps everything before it.
  const { jsonParser, getManyValues, isMany, none, LiteralAssembler } = await loadJsonStream();
  const walker = new DocumentWalker(
    LiteralAssembler,
    containers,
    options.skipKeys ?? NO_KEYS,
    options.chooseDocument ?? null,
    options.emptyContainers ?? NO_KEYS,
    options.isHeader ?? null,
    (value, location, n, entry, document) => emitUnit(sink, walker, value, location, n, entry, document),
    (header, before) => sink.header?.(header, before),
  );
  const kit: TokenizerKit = {
    make: () => jsonParser({ jsonStreaming: true, packValues: true, streamValues: false }) as (input: string | symbol) => unknown,
    tokensOf: (out) => (isMany(out) ? (getManyValues(out) as Token[]) : []),
    none,
  };
  const tokens = new TokenFeed(kit, (tok) => walker.consume(tok));
  const feed = (input: string, flush = false) => tokens.push(input, flush);
  const decode = (chunk: Buffer | null): string => {
    try {
      return chunk === null ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      // keep the elements that end before the bad bytes: read the chunk up to them
      feed(filter.push(chunk === null ? "" : validPrefix(chunk), true), true);
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
    for (let at = 0; at < chunk.length && !broken; at += DECODE_CHUNK) {
      try {
        feed(filter.push(decode(chunk.subarray(at, at + DECODE_CHUNK))));
      } catch (e) {
        broken = true; // count the lines, parse no further
        breakAt(e);
      }
    }
  }
  if (!broken) {
    try {
      feed(filter.push(decode(null), true));
      tokens.end();
      if (!walker.atTopLevel()) throw new Error("the document ends in the middle of a value");
    } catch (e) {
      breakAt(e);
    }
  }
  // a document cut inside or after its container still tells the header read so far
  walker.tellHeader();
  if (lastByte !== 10) physicalLines++;
  return { format: "json", physicalLines, nonFinite: filter.count };
}

/**
 * Hands one value the walker emitted to `sink`: an entry a document adapter
 * reads as it is, an object as a unit (with the document's header and its
 * repeated keys), anything else, or an object nested too deeply to store, as
 * a reject of that element alone (the document reads on).
 */
function emitUnit(
  sink: UnitSink,
  walker: DocumentWalker,
  value: unknown,
  location: string,
  n: number,
  entry?: DocumentEntry,
  document?: DocumentAdapter,
): void {
  if (entry && document) {
    const text = JSON.stringify({ [entry.key]: entry.value });
    sink.unit({ line: n, location, value: { [entry.key]: entry.value }, text, nonFinite: 0, entry, document, duplicateKeys: walker.takeDuplicates() });
    return;
  }
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
  sink.unit({
    line: n,
    location,
    value: value as Record<string, unknown>,
    text,
    nonFinite: 0,
    header: walker.header,
    duplicateKeys: walker.takeDuplicates(),
  });
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

let jsonStream: Promise<typeof import("./json-stream.js")> | null = null;

/** stream-json (json-stream.ts), imported with the first JSON document a process reads: JSONL never needs it. */
export function loadJsonStream(): Promise<typeof import("./json-stream.js")> {
  return (jsonStream ??= import("./json-stream.js"));
}

const NO_KEYS: ReadonlySet<string> = new Set();
const VALUE_START = new Set(["startObject", "startArray", "stringValue", "numberValue", "nullValue", "trueValue", "falseValue"]);

/**
 * Walks the packed stream-json tokens of one or more top-level values and emits
 * units: the elements of a top-level array; the elements of a top-level object's
 * container array (its first key named in `containers`, e.g. `results`), the
 * object's other keys being ignored; the entries of a top-level object that a
 * DocumentAdapter claims (`chooseDocument`, asked once its first DETECT_ENTRIES
 * entries are read or it ends): each entry, or each element of an entry's array,
 * as its adapter's `unitsOf` says; or else the top-level object itself, unless
 * it is a log's header holding no record (`isHeader`), which is told as the
 * header and is no unit. A container's header is every other key of the
 * object, before and after the array (a log may write its results after its
 * samples): the elements are handed the keys read before it, and the whole
 * header is told once the object ends (or the document breaks off).
 */
class DocumentWalker {
  /** units emitted so far */
  units = 0;
  private depth = 0;
  /** depth at which units live: 1 in a top-level array, 2 in a container; -1 elsewhere */
  private elementDepth = -1;
  private element: LiteralAssembler | null = null;
  /** a top-level object assembled whole, until a container array or a document adapter takes it */
  private whole: LiteralAssembler | null = null;
  /** the repeated keys of the unit about to be emitted */
  private duplicates: string[] = [];
  private topObject = false;
  private sawContainer = false;
  private pendingKey: string | null = null;
  private containerKey: string | null = null;
  private index = 0;
  /** nesting inside a skipped top-level value; -1 when not skipping */
  private skipDepth = -1;
  /** the keys of the current top-level object read before its container array */
  header: Record<string, unknown> | null = null;
  /** the keys after the container array, being assembled; null before the array ends */
  private trailer: LiteralAssembler | null = null;
  /** a container's header still to tell (onHeader) */
  private untold = false;
  /** the document adapter reading the current top-level object's entries */
  private document: DocumentAdapter | null = null;
  /** still to ask chooseDocument about the current top-level object */
  private detecting = false;
  /** the whole entries read while detecting */
  private firstEntries: DocumentEntry[] = [];
  /** key of the top-level entry being read (detecting, or in a document adapter's object) */
  private entryKey: string | null = null;
  private entryValue: LiteralAssembler | null = null;

  constructor(
    /** json-stream.ts's LiteralAssembler, loaded with the document */
    private readonly Assembler: typeof LiteralAssembler,
    private readonly containers: ContainerKeys,
    private readonly skipKeys: ReadonlySet<string>,
    private readonly chooseDocument: DocumentChooser | null,
    private readonly emptyContainers: ReadonlySet<string>,
    private readonly isHeader: ((value: Record<string, unknown>) => boolean) | null,
    private readonly emit: (value: unknown, location: string, n: number, entry?: DocumentEntry, document?: DocumentAdapter) => void,
    /** the whole header, and the keys of it the elements were handed (`before`, null for a header holding no record) */
    private readonly onHeader: (header: Record<string, unknown>, before: Record<string, unknown> | null) => void = () => {},
  ) {}

  /** Tells the current container's header (the keys before its array and those read after it), once. */
  tellHeader(): void {
    if (!this.untold) return;
    this.untold = false;
    const after = (this.trailer?.current as Record<string, unknown> | undefined) ?? {};
    this.trailer = null;
    const before = this.header ?? {};
    this.onHeader({ ...before, ...after }, before);
  }

  /** The repeated keys of the unit being emitted (read once, by the emit callback). */
  takeDuplicates(): string[] | undefined {
    const d = this.duplicates;
    this.duplicates = [];
    return d.length ? d : undefined;
  }

  /** True between top-level values (nothing half-read). */
  atTopLevel(): boolean {
    return this.depth === 0 && this.element === null;
  }

  /** Where the walk is, for an error message. */
  where(): string {
    if (this.elementDepth === 2) return `${this.containerKey}[${this.index}]`;
    if (this.elementDepth === 1) return `[${this.index}]`;
    if (this.document && this.entryKey !== null) return this.entryKey;
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
      this.element = new this.Assembler();
      this.element.consume(tok as never);
      if (this.element.done) this.finishElement();
      return;
    }
    if (this.entryValue) {
      // a top-level entry of an object being detected or read by a document adapter
      this.whole?.consume(tok as never);
      this.entryValue.consume(tok as never);
      if (this.entryValue.done) this.finishEntry();
      return;
    }
    if (this.depth === 0) {
      this.topLevelToken(tok);
      return;
    }
    if (this.depth === 1 && this.topObject && this.topObjectToken(tok)) return;
    if (tok.name === "endArray" && this.depth === this.elementDepth) {
      this.endElements();
      return;
    }
    this.whole?.consume(tok as never);
    this.trailer?.consume(tok as never);
    if (tok.name === "startObject" || tok.name === "startArray") this.depth++;
    else if (tok.name === "endObject" || tok.name === "endArray") this.depth--;
    if (this.depth === 0 && this.topObject) {
      if (this.whole && !this.sawContainer && !this.document) {
        const value = this.whole.current as Record<string, unknown>;
        if (this.isHeader?.(value)) this.onHeader(value, null);
        else {
          this.units++;
          this.duplicates = this.whole.duplicates;
          this.emit(value, `value ${this.units}`, this.units);
        }
      }
      this.tellHeader();
      this.whole = null;
      this.topObject = false;
      this.document = null;
    }
  }

  /** A token between top-level values: a top-level array or object starts, or a scalar is a unit. */
  private topLevelToken(tok: Token): void {
    if (tok.name === "startArray") {
      this.depth = 1;
      this.elementDepth = 1;
      this.index = 0;
    } else if (tok.name === "startObject") {
      this.depth = 1;
      this.topObject = true;
      this.sawContainer = false;
      this.header = null;
      this.whole = new this.Assembler();
      this.whole.consume(tok as never);
      this.document = null;
      this.detecting = this.chooseDocument !== null;
      this.firstEntries = [];
    } else if (VALUE_START.has(tok.name)) {
      this.units++;
      this.emit(scalarOf(tok), `value ${this.units}`, this.units);
    }
  }

  /**
   * A token directly inside a top-level object: a key, its container array, an
   * id list or an entry a document adapter reads. True when it was handled,
   * false when it is an ordinary value of the object (consume goes on).
   */
  private topObjectToken(tok: Token): boolean {
    if (tok.name === "keyValue") {
      const key = tok.value as string;
      this.pendingKey = !this.sawContainer && !this.document && this.containers.has(key) ? key : null;
      if (this.pendingKey === null && this.skipKeys.has(key)) {
        this.skipDepth = 0;
        return true;
      }
      this.entryKey = key;
      this.whole?.consume(tok as never);
      this.trailer?.consume(tok as never);
      return true;
    }
    if (tok.name === "startArray" && this.pendingKey !== null) {
      // the keys read so far are the document's header, given to each element's adapter
      const before = this.whole?.current as Record<string, unknown> | undefined;
      if (before) delete before[this.pendingKey];
      this.header = before ?? null;
      this.untold = true;
      this.whole = null;
      this.sawContainer = true;
      this.detecting = false;
      this.containerKey = this.pendingKey;
      this.pendingKey = null;
      this.depth = 2;
      this.elementDepth = 2;
      this.index = 0;
      return true;
    }
    this.pendingKey = null;
    if (this.document && tok.name === "startArray" && this.document.unitsOf(this.entryKey as string) === "elements") {
      // an id list: its elements are streamed one by one
      this.containerKey = this.entryKey;
      this.depth = 2;
      this.elementDepth = 2;
      this.index = 0;
      return true;
    }
    if ((this.detecting || this.document) && VALUE_START.has(tok.name)) {
      this.whole?.consume(tok as never);
      this.entryValue = new this.Assembler();
      this.entryValue.consume(tok as never);
      if (this.entryValue.done) this.finishEntry();
      return true;
    }
    if (tok.name === "endObject" && this.detecting) this.decide();
    return false;
  }

  /** The end of the array whose elements are units: an empty container that announces something is its header as a record; the keys after a container are the header's. */
  private endElements(): void {
    if (this.elementDepth === 2 && this.index === 0 && !this.document && this.emptyContainers.has(this.containerKey as string)) {
      // an empty container that announces something: the header is the record
      this.units++;
      this.emit({ ...(this.header ?? {}), [this.containerKey as string]: [] }, this.containerKey as string, this.units);
    }
    if (this.elementDepth === 2 && this.sawContainer && !this.document) {
      // the keys after the container belong to the header
      this.trailer = new this.Assembler();
      this.trailer.consume({ name: "startObject" } as never);
    }
    this.depth--;
    this.elementDepth = -1;
  }

  /** A whole top-level entry was read: kept for detection, or handed to the document adapter. */
  private finishEntry(): void {
    const entry: DocumentEntry = { key: this.entryKey as string, value: this.entryValue!.current, index: null };
    this.entryValue = null;
    if (this.document) {
      this.emitEntry(entry);
      return;
    }
    this.firstEntries.push(entry);
    if (this.firstEntries.length >= DETECT_ENTRIES) this.decide();
  }

  /** Asks chooseDocument about the entries read so far; a claimed object's entries are then emitted, not the whole. */
  private decide(): void {
    this.detecting = false;
    const adapter = this.chooseDocument?.(this.firstEntries) ?? null;
    const first = this.firstEntries;
    this.firstEntries = [];
    if (!adapter) return;
    this.document = adapter;
    this.whole = null;
    for (const entry of first) this.emitEntry(entry);
  }

  /** Emits one whole entry as its document adapter reads it: itself, each element of its array, or nothing. */
  private emitEntry(entry: DocumentEntry): void {
    const units = this.document!.unitsOf(entry.key);
    if (units === "skip") return;
    if (units === "elements" && Array.isArray(entry.value)) {
      entry.value.forEach((value, index) => {
        this.units++;
        this.emit(value, `${entry.key}[${index}]`, this.units, { key: entry.key, value, index }, this.document!);
      });
      return;
    }
    this.units++;
    this.emit(entry.value, entry.key, this.units, entry, this.document!);
  }

  private finishElement(): void {
    const value = this.element!.current;
    this.duplicates = this.element!.duplicates;
    this.element = null;
    this.units++;
    const location = this.elementDepth === 2 ? `${this.containerKey}[${this.index}]` : `[${this.index}]`;
    const index = this.index++;
    if (this.document && this.elementDepth === 2) {
      const key = this.containerKey as string;
      if (this.document.unitsOf(key) !== "skip") this.emit(value, location, this.units, { key, value, index }, this.document);
      else this.units--;
      return;
    }
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
