/**
 * Inspect AI `.eval` logs (a zip of JSON members; inspect_ai
 * src/inspect_ai/log/_recorders/eval.py and chunked/format.py), read member by
 * member through ZipArchive, never the whole archive:
 *
 * - `header.json`: the EvalLog without samples (`version, status, eval, plan,
 *   results, stats, error`). A log still running or crashed has none; then
 *   `_journal/start.json` (`version, eval, plan`) stands in, with status
 *   `started`, and the run is flagged incomplete.
 * - samples, one trial each, in central-directory order, in either shape (one
 *   log may mix them): a monolith `samples/{id}_epoch_{n}.json` (an
 *   EvalSample), or a chunked `samples/{id}_epoch_{n}/sample.json` (the sample
 *   without messages, events, attachments) whose events lie in
 *   `samples/{id}_epoch_{n}/events/{start}.json` (JSON arrays, read in order of
 *   `start`).
 * - sample summaries (`summaries.json`, else `_journal/summaries/{n}.json`, the
 *   later replacing the earlier): read only when the log has fewer sample
 *   members than it says it completed (or has no header), and then only a
 *   summary whose (id, epoch) has no sample member becomes a trial (the
 *   summary holds its scores, error and limit).
 * - `reductions.json` (epoch-reduced scores) is not read: denom reduces trials itself.
 *
 * A sample member of at most PARSED_WHOLE_MAX bytes (and within the line
 * limit) is parsed whole by JSON.parse, then its skipped keys dropped: the
 * value readObject would build, checked where the two could differ (parsedSample).
 * A bigger one is streamed token by token: the bulk no adapter reads
 * (`messages`, `attachments`, `events_data`, `store`, `output`, `metadata`,
 * ...) is skipped without being assembled, and `events` are assembled one at a
 * time and reduced to denom's compact events at once (inspectEvent), so a
 * sample with a long trajectory is never held whole.
 */
import type { Assembler } from "../ingest/records/json-stream.js";
import type { JsonStream } from "../ingest/types.js";
import { inspectEvent } from "./inspect-events.js";
import { idNumber, NonFiniteFilter } from "../json-text.js";
import type { ArchiveSink, ReadSummary } from "../ingest/types.js";
import type { ZipArchive } from "../ingest/bytes/zip.js";
import { DataError } from "../errors.js";

/** The keys of a sample never assembled: no adapter reads them, and they hold most of its bytes. */
const SKIPPED_SAMPLE_KEYS = new Set([
  "messages",
  "attachments",
  "events_data",
  "store",
  "output",
  "metadata",
  "choices",
  "sandbox",
  "files",
  "setup",
  "message_refs",
  "timelines",
]);

/**
 * Members up to this many bytes (decompressed, as the central directory records
 * them) are parsed whole by JSON.parse, several times faster than stream-json's
 * tokens (docs/benchmarks.md); a bigger member is streamed, never held whole.
 */
export const PARSED_WHOLE_MAX = 8 * 1024 * 1024;

const MONOLITH = /^samples\/(.+)_epoch_(\d+)\.json$/;
const CHUNKED_SHELL = /^samples\/(.+)_epoch_(\d+)\/sample\.json$/;
const HEADER = "header.json";
const START = "_journal/start.json";

/**
 * Reads one `.eval` archive into `sink`: the header, then one unit per sample
 * (value: the sample with its events reduced; line: 1-based sample number;
 * location: the member). A sample that cannot be read is a reject naming its
 * member, and reading goes on. `parsedWholeMax`: the largest member parsed
 * whole (PARSED_WHOLE_MAX; 0 streams every member, the same values: a test
 * compares the two). Throws Error when the archive holds neither
 * `header.json` nor `_journal/start.json` (no Inspect log), or when that member
 * cannot be read.
 */
export async function readEvalArchive(zip: ZipArchive, sink: ArchiveSink, parsedWholeMax = PARSED_WHOLE_MAX): Promise<ReadSummary> {
  const headerName = zip.member(HEADER) ? HEADER : zip.member(START) ? START : null;
  if (headerName === null) {
    const shown = zip.names.slice(0, 5).join(", ") || "no members";
    throw new Error(
      `a zip archive without header.json or _journal/start.json, so no Inspect .eval log (it holds ${shown}${zip.names.length > 5 ? ", ..." : ""})`,
    );
  }
  const parsed = await zip.json(headerName);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${headerName} is not a JSON object`);
  const header = parsed as Record<string, unknown>;
  const incomplete = headerName === START;
  if (incomplete) header.status = "started";
  sink.header(header);
  const json = await sink.jsonStream();

  let n = 0;
  let nonFinite = 0;
  const seen = new Set<string>();
  let parts: Map<string, string[]> | null = null;
  const samples = sampleMembers(zip);
  const whole = Math.min(parsedWholeMax, sink.maxValueBytes);
  const ahead = readAhead(zip, samples, whole);
  for (const { name, chunked, id, epoch } of samples) {
    const member = (await ahead.next()).value as MemberBytes;
    n++;
    seen.add(`${id}\u0000${epoch}`);
    try {
      const events: Record<string, unknown>[] = [];
      const filter = new NonFiniteFilter();
      const read = { json, filter, maxValue: sink.maxValueBytes, pos: { bytes: 0 } };
      const sample = await readObject(member, read, (e) => pushEvent(events, e));
      if (chunked) {
        parts ??= eventPartsByShell(zip);
        for (const part of parts.get(name.slice(0, -"sample.json".length)) ?? [])
          await readArray(await memberBytes(zip, part, whole), { ...read, pos: { bytes: 0 } }, (e) => pushEvent(events, e));
      }
      sample.events = events;
      nonFinite += filter.count;
      sink.unit({ line: n, location: name, value: sample, text: JSON.stringify(sample), nonFinite: filter.count, header });
    } catch (e) {
      if (e instanceof DataError) throw e; // a bound of the whole input: nothing more of it is read
      sink.reject(n, name, `sample member could not be read (${(e as Error).message})`, "", "element");
    }
  }
  for (const summary of await unsampledSummaries(zip, header, n, seen, incomplete)) {
    n++;
    sink.unit({ line: n, location: summary.member, value: summary.value, text: JSON.stringify(summary.value), nonFinite: 0, header });
  }
  return { format: "json", physicalLines: n, nonFinite };
}

/** A sample member: a monolith `samples/{id}_epoch_{n}.json` or a chunked sample's `samples/{id}_epoch_{n}/sample.json`. */
interface SampleMember {
  name: string;
  chunked: boolean;
  id: string;
  epoch: string;
}

/** The sample members in central-directory order. */
function sampleMembers(zip: ZipArchive): SampleMember[] {
  const samples: SampleMember[] = [];
  for (const name of zip.names) {
    const monolith = MONOLITH.exec(name);
    const match = monolith ?? CHUNKED_SHELL.exec(name);
    if (match && !match[1].includes("/")) samples.push({ name, chunked: !monolith, id: match[1], epoch: match[2] });
  }
  return samples;
}

/**
 * Sample members read ahead of the one being parsed: their reads (on libuv's
 * pool) overlap the parse instead of each member waiting for its own. At most
 * READ_AHEAD members of at most the whole-parse size are held at once.
 */
const READ_AHEAD = 4;

/** The bytes of `samples`' members in their order (memberBytes: never rejects), READ_AHEAD of them read ahead. */
async function* readAhead(zip: ZipArchive, samples: readonly SampleMember[], wholeMax: number): AsyncGenerator<MemberBytes> {
  const pending: Promise<MemberBytes>[] = [];
  let next = 0;
  while (next < samples.length || pending.length > 0) {
    while (pending.length < READ_AHEAD && next < samples.length) pending.push(memberBytes(zip, samples[next++].name, wholeMax));
    yield await pending.shift()!;
  }
}

function pushEvent(events: Record<string, unknown>[], raw: unknown): void {
  const e = inspectEvent(raw);
  if (e) events.push(e);
}

/**
 * The event chunks of every chunked sample (`.../events/{start}.json`), in
 * order of start, by the sample's folder (`samples/{id}_epoch_{n}/`): one pass
 * over the names, not one a sample (a log of 10^5 samples would take 10^10 steps).
 */
function eventPartsByShell(zip: ZipArchive): Map<string, string[]> {
  const bySample = new Map<string, string[]>();
  for (const name of zip.names) {
    const m = /^(samples\/.+\/)events\/(\d+)\.json$/.exec(name);
    if (!m || m[1].slice(0, -1).includes("/", "samples/".length)) continue;
    const parts = bySample.get(m[1]);
    if (parts) parts.push(name);
    else bySample.set(m[1], [name]);
  }
  const start = (n: string) => Number(n.slice(n.lastIndexOf("/") + 1, -5));
  for (const parts of bySample.values()) parts.sort((a, b) => start(a) - start(b));
  return bySample;
}

/**
 * The summaries that stand for trials with no sample member: only looked for
 * when the log has no header.json or says it completed more samples than it
 * holds members for.
 */
async function unsampledSummaries(
  zip: ZipArchive,
  header: Record<string, unknown>,
  members: number,
  seen: ReadonlySet<string>,
  incomplete: boolean,
): Promise<{ member: string; value: Record<string, unknown> }[]> {
  const results = header.results as Record<string, unknown> | null | undefined;
  const completed = typeof results?.completed_samples === "number" ? results.completed_samples : null;
  if (!incomplete && (completed === null || completed <= members)) return [];
  const parts = zip.member("summaries.json")
    ? ["summaries.json"]
    : zip.names.filter((n) => /^_journal\/summaries\/\d+\.json$/.test(n)).sort((a, b) => Number(a.slice(19, -5)) - Number(b.slice(19, -5)));
  const byKey = new Map<string, { member: string; value: Record<string, unknown> }>();
  for (const member of parts) {
    let list: unknown;
    try {
      list = await zip.json(member);
    } catch {
      continue; // a journal part cut by a crash: the samples are what counts
    }
    if (!Array.isArray(list)) continue;
    for (const s of list) {
      if (s === null || typeof s !== "object" || Array.isArray(s)) continue;
      const key = `${String((s as Record<string, unknown>).id)}\u0000${String((s as Record<string, unknown>).epoch)}`;
      if (!seen.has(key)) {
        byKey.delete(key);
        byKey.set(key, { member, value: s as Record<string, unknown> });
      }
    }
  }
  return [...byKey.values()];
}

/**
 * A member's bytes: `whole` when it was gathered (at most the size asked for),
 * and `chunks` to stream, which replay the gathered bytes (and the error that
 * stopped the gathering, where one did, at the point the stream would have met it).
 */
interface MemberBytes {
  whole: Buffer | null;
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** Member `name`'s bytes, gathered whole when the central directory records at most `wholeMax` bytes, else streamed. */
async function memberBytes(zip: ZipArchive, name: string, wholeMax: number): Promise<MemberBytes> {
  const size = zip.member(name)?.size ?? Number.POSITIVE_INFINITY;
  if (size > wholeMax) return { whole: null, chunks: zip.chunks(name) };
  const parts: Buffer[] = [];
  try {
    for await (const chunk of zip.chunks(name)) parts.push(chunk);
  } catch (error) {
    return { whole: null, chunks: replay(parts, error) };
  }
  return { whole: parts.length === 1 ? parts[0] : Buffer.concat(parts), chunks: parts };
}

function* replay(parts: Buffer[], error: unknown): Generator<Buffer> {
  yield* parts;
  throw error;
}

/** Decodes a whole member, throwing on bytes that are not UTF-8 (a byte-order mark is dropped, as the streamed path drops it). */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Where `quoted` (a key with its quotes, e.g. `"events"`) is written as a key
 * in `text`, a JSON text that parses: the index after each such key's colon. A
 * key's opening quote never follows a backslash; a string's text that looks
 * like a key may be counted too, which only makes the caller more careful.
 */
function keyEnds(text: string, quoted: string): number[] {
  const ends: number[] = [];
  for (let at = text.indexOf(quoted); at >= 0; at = text.indexOf(quoted, at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 92) continue; // a backslash
    const colon = skipSpace(text, at + quoted.length);
    if (text.charCodeAt(colon) === 58) ends.push(colon + 1);
  }
  return ends;
}

/** The index of the first character at or after `at` that is no JSON whitespace (space, tab, LF, CR). */
function skipSpace(text: string, at: number): number {
  let i = at;
  for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  return i;
}

/** True when every number written under an `"id"` key, at any depth, is in its shortest form (`1`, not `1.0`). */
function numberIdsShortest(text: string): boolean {
  for (const end of keyEnds(text, '"id"')) {
    const start = skipSpace(text, end);
    let stop = start;
    while (stop < text.length && "0123456789.eE+-".includes(text[stop])) stop++;
    const written = text.slice(start, stop);
    if (written !== "" && String(Number(written)) !== written) return false;
  }
  return true;
}

/**
 * `text`, a whole sample member, as readObject reads it, or null where the two
 * could differ, and readObject then reads it: not UTF-8, not JSON (NaN and
 * Infinity included), not an object, a `__proto__` key, an `events` key written
 * more than once (readObject takes every copy's elements), or a number id
 * written in another form than its shortest (`1.0`: readObject keeps its text).
 * Otherwise the skipped keys are dropped, the `events` array's elements go to
 * `onEvent` (and the key, as readObject leaves it, is absent), and every other
 * value is what the Assembler builds: JSON.parse's.
 */
export function parsedSample(bytes: Buffer, onEvent: (e: unknown) => void): Record<string, unknown> | null {
  const parsed = parsedJson(bytes);
  if (!parsed) return null;
  const { text, value } = parsed;
  if (value === null || typeof value !== "object" || Array.isArray(value) || Object.hasOwn(value, "__proto__")) return null;
  const sample = value as Record<string, unknown>;
  if (keyEnds(text, '"events"').length > 1) return null;
  if (typeof sample.id === "number" && !numberIdsShortest(text)) return null;
  for (const key of SKIPPED_SAMPLE_KEYS) delete sample[key];
  if (Array.isArray(sample.events)) {
    const events = sample.events;
    delete sample.events;
    for (const e of events) onEvent(e);
  }
  return sample;
}

/** `bytes`, a whole events member, parsed as readArray reads it, or null where readArray must say why it cannot. */
function parsedArray(bytes: Buffer): unknown[] | null {
  const value = parsedJson(bytes)?.value;
  return Array.isArray(value) ? value : null;
}

/** A whole member's text and JSON.parse's value of it, or null when it is not UTF-8 or not JSON (the streamed path then says why). */
function parsedJson(bytes: Buffer): { text: string; value: unknown } | null {
  try {
    const text = UTF8.decode(bytes);
    return { text, value: JSON.parse(text) };
  } catch {
    return null;
  }
}

type Token = { name: string; value?: unknown };
const VALUE_START = new Set(["startObject", "startArray", "stringValue", "numberValue", "nullValue", "trueValue", "falseValue"]);

/**
 * How a member is tokenized: stream-json, the NonFiniteFilter (NaN and
 * Infinity read as null and counted), the longest JSON value held whole in
 * bytes (the line limit), and `pos.bytes`, the member's bytes fed so far.
 */
interface MemberRead {
  json: JsonStream;
  filter: NonFiniteFilter;
  maxValue: number;
  pos: { bytes: number };
}

/** Bytes of a member tokenized at a time: the grain at which a value's length is measured. */
const VALUE_PIECE = 64 * 1024;

/** The error of a value held whole past the line limit. */
function tooLong(read: MemberRead): Error {
  const mib = read.maxValue / 1024 / 1024;
  return new Error(
    `a JSON value longer than ${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB, the line limit (--max-line-bytes raises it); not read into memory`,
  );
}

/**
 * Tokens of one JSON text streamed from `chunks` (UTF-8 checked, NaN and
 * Infinity read as null and counted), each handed to `consume`. Throws Error on
 * bytes that are not UTF-8, JSON that does not parse, or more than
 * `read.maxValue` bytes without a token (one string or number that long).
 */
async function tokens(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, read: MemberRead, consume: (t: Token) => void): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const { jsonParser, getManyValues, isMany, none } = read.json;
  const { filter, pos } = read;
  const tokenize = jsonParser({ packValues: true, streamValues: false });
  let quiet = 0;
  const feed = (input: string | typeof none, bytes: number) => {
    const out = tokenize(input as string);
    if (isMany(out) && getManyValues(out).length) {
      quiet = 0;
      for (const t of getManyValues(out)) consume(t as Token);
    } else if ((quiet += bytes) > read.maxValue) throw tooLong(read);
  };
  for await (const chunk of chunks) {
    // in pieces: a small member comes whole, and a value is measured piece by piece
    for (let at = 0; at < chunk.length; at += VALUE_PIECE) {
      const piece = chunk.subarray(at, at + VALUE_PIECE);
      pos.bytes += piece.length;
      feed(filter.push(decoder.decode(piece, { stream: true })), piece.length);
    }
  }
  feed(filter.push(decoder.decode(), true), 0);
  feed(none, 0);
}

/**
 * A JSON value being assembled token by token (none between values), by
 * stream-json's Assembler as loaded (json-stream.ts); `start` is the member's
 * bytes fed when it began.
 */
type Building = { asm: Assembler | null; start: number; readonly Assembler: typeof Assembler; readonly read: MemberRead };

/**
 * Feeds token `t` to the value being built (a new one when none is); hands the
 * value to `done` once whole. Throws Error once the value spans more than the
 * line limit: it is never held whole.
 */
function build(b: Building, t: Token, done: (value: unknown) => void): void {
  if (b.asm === null) {
    b.asm = new b.Assembler();
    b.start = b.read.pos.bytes;
  } else if (b.read.pos.bytes - b.start > b.read.maxValue) throw tooLong(b.read);
  b.asm.consume(t as never);
  if (b.asm.done) {
    const value = b.asm.current;
    b.asm = null;
    done(value);
  }
}

/**
 * Reads a JSON object whose `events` array is handed to `onEvent` one element
 * at a time (never kept), and whose SKIPPED_SAMPLE_KEYS are skipped; every
 * other key is assembled. Throws Error when the text is not one JSON object.
 */
async function readObject(member: MemberBytes, read: MemberRead, onEvent: (e: unknown) => void): Promise<Record<string, unknown>> {
  const parsed = member.whole && parsedSample(member.whole, onEvent);
  if (parsed) return parsed;
  const out: Record<string, unknown> = {};
  let depth = 0;
  let started = false;
  let key: string | null = null;
  let skip = -1;
  let inEvents = false;
  const { Assembler } = read.json;
  const value: Building = { asm: null, start: 0, Assembler, read };
  const element: Building = { asm: null, start: 0, Assembler, read };
  const keep = (v: unknown) => void (out[key as string] = v);
  await tokens(member.chunks, read, (t) => {
    if (skip >= 0) {
      if (t.name === "startObject" || t.name === "startArray") skip++;
      else if (t.name === "endObject" || t.name === "endArray") skip--;
      if (skip === 0) skip = -1;
      return;
    }
    if (element.asm) return build(element, t, onEvent);
    if (inEvents) {
      if (t.name === "endArray") inEvents = false;
      else if (VALUE_START.has(t.name)) build(element, t, onEvent);
      return;
    }
    if (value.asm) return build(value, t, keep);
    if (!started) {
      if (t.name !== "startObject") throw new Error("expected a JSON object");
      started = true;
      depth = 1;
      return;
    }
    if (depth === 0) throw new Error("more than one JSON value");
    if (t.name === "keyValue") {
      key = t.value as string;
      return;
    }
    if (t.name === "endObject") {
      depth = 0;
      return;
    }
    if (key === "events" && t.name === "startArray") {
      inEvents = true;
      return;
    }
    if (key !== null && SKIPPED_SAMPLE_KEYS.has(key)) {
      if (t.name === "startObject" || t.name === "startArray") skip = 1;
      return;
    }
    // a sample id written as a number keeps its text: `1.0` is another sample than `1`
    if (key === "id" && t.name === "numberValue") return keep(idNumber(t.value as string));
    build(value, t, keep);
  });
  if (!started || depth !== 0) throw new Error(started ? "the member ends in the middle of the object" : "empty member");
  return out;
}

/** Reads a JSON array, handing each element to `onElement` as it is assembled. Throws Error when the text is not one array. */
async function readArray(member: MemberBytes, read: MemberRead, onElement: (e: unknown) => void): Promise<void> {
  const parsed = member.whole && parsedArray(member.whole);
  if (parsed) {
    for (const e of parsed) onElement(e);
    return;
  }
  let state: "before" | "in" | "after" = "before";
  const { Assembler } = read.json;
  const element: Building = { asm: null, start: 0, Assembler, read };
  await tokens(member.chunks, read, (t) => {
    if (element.asm) return build(element, t, onElement);
    if (state === "before") {
      if (t.name !== "startArray") throw new Error("expected a JSON array of events");
      state = "in";
      return;
    }
    if (state === "after") throw new Error("more than one JSON value");
    if (t.name === "endArray") state = "after";
    else build(element, t, onElement);
  });
  if ((state as string) !== "after") throw new Error("the events member ends in the middle of its array");
}
