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
 * Each sample is streamed token by token: the bulk no adapter reads
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

const MONOLITH = /^samples\/(.+)_epoch_(\d+)\.json$/;
const CHUNKED_SHELL = /^samples\/(.+)_epoch_(\d+)\/sample\.json$/;
const HEADER = "header.json";
const START = "_journal/start.json";

/**
 * Reads one `.eval` archive into `sink`: the header, then one unit per sample
 * (value: the sample with its events reduced; line: 1-based sample number;
 * location: the member). A sample that cannot be read is a reject naming its
 * member, and reading goes on. Throws Error when the archive holds neither
 * `header.json` nor `_journal/start.json` (no Inspect log), or when that member
 * cannot be read.
 */
export async function readEvalArchive(zip: ZipArchive, sink: ArchiveSink): Promise<ReadSummary> {
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
  for (const name of zip.names) {
    const monolith = MONOLITH.exec(name);
    const chunked = monolith ? null : CHUNKED_SHELL.exec(name);
    const match = monolith ?? chunked;
    if (!match || match[1].includes("/")) continue;
    n++;
    seen.add(`${match[1]}\u0000${match[2]}`);
    try {
      const events: Record<string, unknown>[] = [];
      const filter = new NonFiniteFilter();
      const read = { json, filter, maxValue: sink.maxValueBytes, pos: { bytes: 0 } };
      const sample = await readObject(zip.chunks(name), read, (e) => pushEvent(events, e));
      if (chunked) {
        parts ??= eventPartsByShell(zip);
        for (const part of parts.get(name.slice(0, -"sample.json".length)) ?? [])
          await readArray(zip.chunks(part), { ...read, pos: { bytes: 0 } }, (e) => pushEvent(events, e));
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
async function tokens(chunks: AsyncIterable<Buffer>, read: MemberRead, consume: (t: Token) => void): Promise<void> {
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
async function readObject(chunks: AsyncIterable<Buffer>, read: MemberRead, onEvent: (e: unknown) => void): Promise<Record<string, unknown>> {
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
  await tokens(chunks, read, (t) => {
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
async function readArray(chunks: AsyncIterable<Buffer>, read: MemberRead, onElement: (e: unknown) => void): Promise<void> {
  let state: "before" | "in" | "after" = "before";
  const { Assembler } = read.json;
  const element: Building = { asm: null, start: 0, Assembler, read };
  await tokens(chunks, read, (t) => {
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
