/**
 * Input sources (docs/architecture.md, first stage): paths, folders (recursive),
 * `.gz`, `.tar`/`.tar.gz`/`.tgz` (every member streamed, nothing extracted to
 * disk) and `-` for stdin. Each source yields its decompressed bytes and, once
 * read, its sha256 and byte count. Compression and archives are recognised by
 * their magic bytes, so a piped archive works too.
 */
import { createHash, type Hash } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  createReadStream,
  createWriteStream,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  type Stats,
} from "node:fs";
import { basename, join } from "node:path";
import { pipeline as pipelineAsync } from "node:stream/promises";
import { Readable, pipeline } from "node:stream";
import { DataError } from "../../errors.js";
import { makeScratch, removeScratch } from "../../scratch.js";
import { FILE_RULES } from "../../formats/index.js";
import { checkMembers, checkNesting, ExpansionError, InputBudget } from "./bounds.js";
import { gunzipMembers, isGzip } from "./gunzip.js";
import { peekBytes } from "./peek.js";
import { isZip } from "./zip.js";

/**
 * One command-line input after expansion: a file; a named pipe (a FIFO named
 * directly), read like stdin: once, as it comes, its size unknown; or stdin.
 */
export type InputSpec =
  | { kind: "file"; path: string; size: number; within?: string }
  | { kind: "pipe"; path: string }
  | { kind: "stdin" }
  /** a file of a walked folder left out by an adapter's supersededFiles rule: listed in meta.skipped_files, not read */
  | { kind: "superseded"; path: string; reason: string; within: string };

/** Endings that say "one JSON value a line": such a source is read line by line, never sniffed. */
const JSONL_EXTENSIONS = ["jsonl", "ndjson"];

/**
 * The endings of the files read in a folder and in an archive: JSONL, JSON, the
 * adapters' own JSON documents and zip archives (FILE_RULES: documentEndings,
 * archiveEndings), and gzip and tar (a `.gz` may hold JSONL, JSON or a tar): the
 * one list for walking folders, taking archive members, and the messages that name them.
 */
const RECORD_EXTENSIONS = [...JSONL_EXTENSIONS, "json", ...FILE_RULES.documentEndings, ...FILE_RULES.archiveEndings, "gz", "tgz", "tar"];

/** Files a folder or an archive contributes: names with one of RECORD_EXTENSIONS. */
export const RECORD_FILE = new RegExp(`\\.(${RECORD_EXTENSIONS.join("|")})$`, "i");

/** The endings RECORD_FILE accepts, as the messages list them. */
export const RECORD_ENDINGS = RECORD_EXTENSIONS.map((e) => `.${e}`).join(", ");

const JSONL_NAME = new RegExp(`\\.(${JSONL_EXTENSIONS.join("|")})(\\.gz)?$`, "i");

/**
 * What a source's display name says of its contents: `jsonl` for a name ending
 * `.jsonl` or `.ndjson`, also compressed (`x.jsonl.gz`) and as an archive member
 * (`logs.tar.gz!run/x.jsonl`: the member's own name counts); null otherwise
 * (`.json`, stdin `-`, any other name), and the reader sniffs the contents.
 */
export function namedFormat(name: string): "jsonl" | null {
  const own = name.slice(name.lastIndexOf("!") + 1);
  return JSONL_NAME.test(own) ? "jsonl" : null;
}

/** The adapter's side-file rule (FormatAdapter.sideFiles) that a file or member name (without its folder) matches, or undefined. */
function sideFile(base: string): { names: RegExp; reason: string } | undefined {
  return FILE_RULES.sideFiles.find((r) => r.names.test(base));
}

/**
 * Read size for files: each read of a stream costs tens of microseconds
 * whatever its size (1 GB took 2.2 s of CPU in 32 KiB reads, 0.5 s in
 * 1 MiB ones). A JSON document is decoded in smaller pieces (reader.ts DECODE_CHUNK).
 */
const READ_CHUNK = 1024 * 1024;

/**
 * Expands command-line inputs: `-` is stdin, a folder is walked recursively
 * (sorted, hidden entries skipped, only RECORD_FILE names), a file is taken as
 * is, a FIFO named directly is read like stdin. Inside a folder, an entry that
 * cannot be looked at (a broken symbolic link, no permission), one that is not a
 * regular file (a FIFO, a socket, a device), a symbolic link that leads back
 * into a folder being walked (a loop) and a file or folder already reached by
 * another path are skipped, and `onWarning` names each: every real file is read
 * once and the walk always ends. Throws DataError naming the path when an input
 * does not exist (or is a broken link), cannot be read, or is a folder without
 * record files.
 */
export function expandInputs(inputs: readonly string[], onWarning: (text: string) => void = () => {}): InputSpec[] {
  const out: InputSpec[] = [];
  // real files and folders (device and inode) already taken, and the path that took them
  const seen = new Map<string, string>();
  for (const input of inputs) {
    if (input === "-") {
      out.push({ kind: "stdin" });
      continue;
    }
    let st: Stats;
    try {
      st = statSync(input);
    } catch (e) {
      throw new DataError(`cannot read ${input}: ${describeStatError(input, e)}`);
    }
    if (st.isDirectory()) {
      const found: InputSpec[] = [];
      walk(input, st, found, onWarning, seen, [], input);
      if (found.length === 0)
        throw new DataError(
          `${input}: folder holds no record files (names ending ${RECORD_ENDINGS}); rename them to one of these endings, or name a file directly (any name is read)`,
        );
      out.push(...found);
    } else if (st.isFIFO()) {
      out.push({ kind: "pipe", path: input });
    } else {
      // named directly: taken as given, even twice; a folder walked later does not read it again
      seen.set(identity(st), input);
      out.push({ kind: "file", path: input, size: st.size });
    }
  }
  return out;
}

/** How much of a replacing file is searched for the text a supersededFiles rule names. */
const HOLDING_HEAD_BYTES = 64 * 1024;

/** True when the first 64 KiB of file `path` hold `text`; false when they do not or it cannot be read (then nothing is left out). */
function headHolds(path: string, text: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(HOLDING_HEAD_BYTES);
    const n = readSync(fd, head, 0, HOLDING_HEAD_BYTES, 0);
    return head.subarray(0, n).includes(text);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** A real file or folder, whatever path reaches it. */
function identity(st: Stats): string {
  return `${st.dev}:${st.ino}`;
}

/** What a non-regular entry is, for the warning that skips it. */
function entryKind(st: Stats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * Walks folder `dir` (already stat'ed as `dirSt`) into `out`. `ancestors` are
 * the identities of the folders being walked above it (a link to one of them is
 * a loop); `seen` holds every file and folder taken so far; every file found is
 * marked `within` the folder given as an input (its side files may be skipped).
 */
function walk(
  dir: string,
  dirSt: Stats,
  out: InputSpec[],
  onWarning: (text: string) => void,
  seen: Map<string, string>,
  ancestors: string[],
  within: string,
): void {
  seen.set(identity(dirSt), dir);
  const here = [...ancestors, identity(dirSt)];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    throw new DataError(`cannot read folder ${dir}: ${describeFsError(e)}`);
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const superseded = FILE_RULES.superseded.find(
      (r) => r.file.test(name) && names.some((other) => r.by.test(other) && (r.holding === undefined || headHolds(join(dir, other), r.holding))),
    );
    if (superseded) {
      out.push({ kind: "superseded", path, reason: superseded.reason, within });
      continue;
    }
    let st: Stats;
    try {
      st = statSync(path);
    } catch (e) {
      // one bad entry must not stop a folder of runs; it is named, never dropped silently
      onWarning(`${path}: ${describeStatError(path, e)}; skipped`);
      continue;
    }
    const id = identity(st);
    if (st.isDirectory()) {
      if (here.includes(id)) {
        onWarning(`${path}: symbolic link loop (leads back to ${seen.get(id) ?? "a folder above it"}); skipped`);
        continue;
      }
      const first = seen.get(id);
      if (first !== undefined) {
        onWarning(`${path}: the same folder as ${first} (a symbolic link); read once, skipped here`);
        continue;
      }
      walk(path, st, out, onWarning, seen, here, within);
    } else if (!st.isFile()) {
      onWarning(`${path}: ${entryKind(st)}, not a regular file; skipped (name it directly to read it as a stream)`);
    } else if (RECORD_FILE.test(name) || FILE_RULES.textRecordPaths.some((re) => re.test(path))) {
      const first = seen.get(id);
      if (first !== undefined) {
        onWarning(`${path}: the same file as ${first} (a link); read once, skipped here`);
        continue;
      }
      try {
        accessSync(path, fsConstants.R_OK);
      } catch (e) {
        // no read permission: named and skipped, as a broken link is (root reads anything)
        onWarning(`${path}: ${describeFsError(e)}; skipped`);
        continue;
      }
      seen.set(id, path);
      out.push({ kind: "file", path, size: st.size, within });
    }
  }
}

/** Why `statSync(path)` failed, telling a broken symbolic link from a missing path. */
function describeStatError(path: string, e: unknown): string {
  if ((e as NodeJS.ErrnoException).code === "ENOENT") {
    try {
      if (lstatSync(path).isSymbolicLink()) return "broken symbolic link (its target does not exist)";
    } catch {
      // not there at all: the plain message below
    }
  }
  return describeFsError(e);
}

/**
 * sha256 (hex) of a file as stored: the digest its source gets, unless it is a
 * tar archive (whose members are the sources). Throws DataError when it cannot be read.
 */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (e) {
    throw new DataError(`cannot read ${path}: ${describeFsError(e)}`);
  }
  return hash.digest("hex");
}

export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file or folder";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a folder";
  return (e as Error).message;
}

/** Bytes of one source, decompressed, with its digest once fully read. */
export interface SourceStream {
  /** display name; archive members as `archive.tar.gz!member` */
  name: string;
  chunks: AsyncIterable<Buffer>;
  /** sha256 (hex) and byte count of the source as stored (the `.gz` file, the tar member); valid after `chunks` is drained */
  digest(): { sha256: string; bytes: number };
  /** set when the stream broke (truncated gzip or tar, trailing garbage); what was read before the break is kept */
  problem(): string | null;
  /** the first bytes of the source, decompressed (up to 512), to say what it looks like when it yields no record */
  head?(): Buffer;
  /**
   * The folder or archive given as an input that this source was found in
   * (a file of a walked folder, an archive member); absent for a file or stdin
   * named directly. A side file no format reads is skipped there, not fatal.
   */
  container?: string;
  /**
   * Set for a zip archive (FormatAdapter.archive): read it member by member from
   * `path` (the file itself, or a temporary copy of a zip that came from stdin,
   * a gzip or a tar member), then drain `chunks` for the digest and call `cleanup`.
   */
  zip?: { path: string; cleanup(): void; budget: InputBudget };
}

/** An archive member that holds no records by its name, listed in the meta block. */
export interface SkippedMember {
  skipped: string;
  reason: string;
  /** the folder or archive given as an input that held it (see SourceStream.container) */
  container?: string;
  /** the top-level keys of a JSON file no format recognises (its first record's); absent otherwise */
  topKeys?: string[];
}

/**
 * Opens every input in turn. Each SourceStream must be drained before the next
 * is requested. `onBytes` is told of every raw byte read (for progress).
 */
export async function* openSources(
  specs: readonly InputSpec[],
  stdin: Readable,
  onBytes: (n: number) => void = () => {},
): AsyncGenerator<SourceStream | SkippedMember> {
  for (const spec of specs) {
    if (spec.kind === "superseded") {
      yield { skipped: spec.path, reason: spec.reason, container: spec.within };
      continue;
    }
    const name = spec.kind === "stdin" ? "-" : spec.path;
    const side = spec.kind === "file" ? sideFile(basename(spec.path)) : undefined;
    if (side && spec.kind === "file") {
      yield { skipped: spec.path, reason: side.reason };
      continue;
    }
    // a named pipe is read as it comes, like stdin; opening it waits for its writer
    const raw: AsyncIterable<Buffer> = spec.kind === "stdin" ? stdin : createReadStream(spec.path, { highWaterMark: READ_CHUNK });
    const layers: Layers = { budget: new InputBudget(name === "-" ? "stdin" : name), depth: 0 };
    for await (const src of classify(name, counted(name, raw, onBytes), layers, spec.kind === "file" ? spec.path : null)) {
      const member = ("skipped" in src ? src.skipped : src.name) !== name;
      const container = spec.kind === "file" ? (spec.within ?? (member ? name : undefined)) : member ? name : undefined;
      yield container === undefined ? src : { ...src, container };
    }
  }
}

async function* counted(name: string, src: AsyncIterable<Buffer | string>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of src) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      onBytes(buf.length);
      yield buf;
    }
  } catch (e) {
    throw new DataError(`cannot read ${name === "-" ? "stdin" : name}: ${describeFsError(e)}`);
  }
}

/** Where a source lies: the decoded bytes of its input so far (InputBudget), and the layers of compression and archive around it. */
interface Layers {
  budget: InputBudget;
  depth: number;
}

/** Passes decoded chunks through, counting them against the input's decoded-bytes bound. */
async function* budgeted(src: AsyncIterable<Buffer>, budget: InputBudget): AsyncGenerator<Buffer> {
  for await (const chunk of src) {
    budget.add(chunk.length);
    yield chunk;
  }
}

/**
 * Decides by magic bytes whether `raw` is gzip (a gzip inside a gzip is
 * unwrapped too), a tar, a zip or plain text, and yields the sources within.
 * `path` is the file `raw` reads, when it is one (a zip is then read in place;
 * any other zip is first copied to a temporary file). Throws DataError naming
 * what the input is when it is no log at all (notALog), ExpansionError when it
 * lies deeper than the nesting bound or decodes past the input's bound (bounds.ts).
 */
async function* classify(name: string, raw: AsyncIterable<Buffer>, at: Layers, path: string | null = null): AsyncGenerator<SourceStream | SkippedMember> {
  const digest = new Digest();
  const hashed = digest.tap(raw);
  let head = await peekBytes(hashed, 512);
  let depth = at.depth;
  const deeper = () => checkNesting(name === "-" ? "stdin" : name, ++depth);
  if (isZip(head.bytes)) {
    deeper();
    yield path !== null ? zipSource(name, path, head.rest, digest, () => {}, at.budget) : await spooledZip(name, head.rest, digest, at.budget);
    return;
  }
  const problem = { text: null as string | null };
  let gzipped = false;
  while (isGzip(head.bytes)) {
    gzipped = true;
    deeper();
    head = await peekBytes(budgeted(gunzipMembers(head.rest, problem), at.budget), 512);
  }
  if (gzipped && isZip(head.bytes)) {
    deeper();
    const spooled = await spooledZip(name, head.rest, digest, at.budget);
    yield { ...spooled, problem: () => problem.text };
    return;
  }
  if (isTar(head.bytes)) {
    deeper();
    yield* tarMembers(name, head.rest, problem, digest, { budget: at.budget, depth });
    return;
  }
  const kind = notALog(head.bytes);
  if (kind !== null) throw new DataError(`${name === "-" ? "stdin" : name}: ${kind}`);
  const bytes = head.bytes;
  yield { name, chunks: head.rest, digest: () => digest.result(), problem: () => problem.text, head: () => bytes };
}

/** Bytes that are neither text nor whitespace (C0 controls other than tab, newline, form feed, CR and ESC; DEL). */
function isControl(b: number): boolean {
  return (b < 32 && b !== 9 && b !== 10 && b !== 12 && b !== 13 && b !== 27) || b === 127;
}

/**
 * What the first bytes of an input say it is when it is no log denom can read
 *: a zip that no adapter's archive reader took (classify hands zips to the
 * archive reader first), bzip2, xz or zstd data,
 * UTF-16 or UTF-32 text (with the iconv command that turns it into UTF-8), or
 * binary data (more than 8 control bytes and 10% of the first bytes: a log
 * with a few damaged bytes is still read, line by line). Null for anything
 * else, which is read.
 */
export function notALog(head: Buffer): string | null {
  const starts = (...bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06) || starts(0x50, 0x4b, 0x07, 0x08))
    return "a zip archive, not a log: unzip it and name the files inside";
  if (starts(0x42, 0x5a, 0x68) && head[3] >= 0x31 && head[3] <= 0x39)
    return "bzip2-compressed data, which denom does not decompress: bunzip2 -c FILE | denom report -";
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return "xz-compressed data, which denom does not decompress: xz -dc FILE | denom report -";
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return "zstd-compressed data, which denom does not decompress: zstd -dc FILE | denom report -";
  const encoding = wideEncoding(head);
  if (encoding !== null) return `${encoding} text; denom reads UTF-8: iconv -f ${encoding} -t UTF-8 FILE > FILE.utf8.jsonl, then read that file`;
  // an indexed loop: the head is the first chunk read (up to the whole of a small file), and a
  // Buffer's iterator took 28 ms over a 656 KB JSON document of 400 trials
  let control = 0;
  for (let i = 0; i < head.length; i++) if (isControl(head[i]!)) control++;
  if (control > 8 && control > head.length / 10) return `binary data (${control} of its first ${head.length} bytes are control bytes), not a text log`;
  return null;
}

/**
 * What a text input that yielded no record looks like, from its first bytes
 * (decompressed): `CSV (first line: task,status)`, `TSV (...)`, `HTML or XML`,
 * `JSON that holds no record denom reads`, or `plain text (first line: ...)`.
 */
export function looksLike(head: Buffer): string {
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== "");
  const first = lines[0]?.trim() ?? "";
  const shown = JSON.stringify(first.length > 60 ? `${first.slice(0, 60)}…` : first);
  if (first.startsWith("{") || first.startsWith("[")) return `JSON that holds no record denom reads (first line: ${shown})`;
  if (first.startsWith("<")) return `HTML or XML, not a log (first line: ${shown})`;
  for (const [sep, kind] of [
    ["\t", "TSV (tab-separated values)"],
    [",", "CSV (comma-separated values)"],
  ] as const) {
    const fields = first.split(sep).length;
    const second = lines[1]?.split(sep).length;
    if (fields >= 2 && !/[{}[\]]/.test(first) && (second === undefined || second === fields))
      return `${kind}, not a log: denom reads JSONL, JSON and the harness formats \`denom formats\` lists (first line: ${shown})`;
  }
  return `plain text, not a log (first line: ${shown})`;
}

/** UTF-32LE/BE or UTF-16LE/BE, by byte-order mark or by the zero bytes beside ASCII characters; null otherwise. */
function wideEncoding(head: Buffer): string | null {
  const starts = (...bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
  if (starts(0xff, 0xfe, 0x00, 0x00)) return "UTF-32LE";
  if (starts(0x00, 0x00, 0xfe, 0xff)) return "UTF-32BE";
  if (starts(0xff, 0xfe)) return "UTF-16LE";
  if (starts(0xfe, 0xff)) return "UTF-16BE";
  // no mark: ASCII text (JSON is) written wide has zero bytes at fixed places
  const n = head.length - (head.length % 4);
  if (n < 8) return null;
  const zerosAt = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) if (head[i] === 0) zerosAt[i % 4]++;
  const quarter = n / 4;
  const all = (i: number) => zerosAt[i] === quarter;
  if (all(1) && all(2) && all(3) && zerosAt[0] === 0) return "UTF-32LE";
  if (all(0) && all(1) && all(2) && zerosAt[3] === 0) return "UTF-32BE";
  if (all(1) && all(3) && zerosAt[0] + zerosAt[2] === 0) return "UTF-16LE";
  if (all(0) && all(2) && zerosAt[1] + zerosAt[3] === 0) return "UTF-16BE";
  return null;
}

/**
 * The members of a tar archive, each its own source. When the archive breaks
 * where no member can tell it (a corrupt or cut header, a gzip stream that ends
 * between members), one more source named after the archive itself is yielded:
 * no lines, and the break as its problem, so it is warned about, counted in
 * `broken_sources` and fails `--strict`, never lost.
 */
async function* tarMembers(
  archive: string,
  chunks: AsyncIterable<Buffer>,
  problem: { text: string | null },
  digest: Digest,
  at: Layers,
): AsyncGenerator<SourceStream | SkippedMember> {
  // imported with the first archive: a report of plain files never loads it
  const { default: tar } = await import("tar-stream");
  const extract = tar.extract();
  let reported = false;
  let streamError: Error | null = null;
  pipeline(Readable.from(chunks), extract, (err) => {
    if (err) streamError = err;
  });
  let members = 0;
  try {
    for await (const entry of extract) {
      const member = `${archive}!${entry.header.name}`;
      try {
        checkMembers(archive === "-" ? "stdin" : archive, ++members);
      } catch (e) {
        entry.resume();
        throw e;
      }
      try {
        const link = entry.header.type === "symlink" ? "symbolic link" : entry.header.type === "link" ? "hard link" : null;
        if (link) {
          // never followed: its target may be outside the archive, or a member read anyway
          yield { skipped: member, reason: `${link} to ${entry.header.linkname ?? "(no target)"}; a link in an archive is not followed` };
          continue;
        }
        if (entry.header.type !== "file") continue;
        const base = basename(entry.header.name);
        if (base.startsWith("._")) {
          yield { skipped: member, reason: "macOS metadata (a ._ file beside the real one), not records" };
          continue;
        }
        const side = sideFile(base);
        if (side) {
          yield { skipped: member, reason: side.reason };
          continue;
        }
        if (!RECORD_FILE.test(base)) {
          yield { skipped: member, reason: `not a record file (names ending ${RECORD_ENDINGS} are read)` };
          continue;
        }
        const memberProblem = { text: null as string | null };
        for await (const inner of classify(member, guard(entry as AsyncIterable<Buffer>, memberProblem), at)) {
          if ("skipped" in inner) yield inner;
          else
            yield {
              ...inner,
              problem: () => {
                const text = inner.problem() ?? memberProblem.text ?? problem.text;
                if (text !== null) reported = true;
                return text;
              },
            };
        }
      } finally {
        entry.resume();
      }
    }
  } catch (e) {
    if (e instanceof ExpansionError) throw e; // a bound passed: the input is refused
    // a cut archive ("Unexpected end of data") or a corrupt header ("Invalid tar header")
    problem.text = `tar archive broken (${(e as Error).message}); the members read before the break are kept`;
  }
  if (streamError && !problem.text) problem.text = `archive could not be read to the end (${(streamError as Error).message})`;
  if (problem.text !== null && !reported) {
    const text = problem.text.replace("; the members read before the break are kept", "").replace("; the records read before the break are kept", "");
    yield {
      name: archive,
      chunks: (async function* () {})(),
      digest: () => digest.result(),
      problem: () => `${text}; the members read before the break are kept`,
    };
  }
}

function zipSource(name: string, path: string, chunks: AsyncIterable<Buffer>, digest: Digest, cleanup: () => void, budget: InputBudget): SourceStream {
  return { name, chunks, digest: () => digest.result(), problem: () => null, zip: { path, cleanup, budget } };
}

/**
 * A zip that is no file of its own (stdin, a gzip, a tar member): its bytes are
 * copied to a temporary file (zip members are found through the central
 * directory at the end, so the archive must be read by position), hashed on the
 * way; `cleanup` removes the copy.
 */
async function spooledZip(name: string, chunks: AsyncIterable<Buffer>, digest: Digest, budget: InputBudget): Promise<SourceStream> {
  // registered (scratch.ts): removed by cleanup, or as the process ends however it ends
  const dir = makeScratch("zip-");
  const path = join(dir, "archive.zip");
  const cleanup = () => removeScratch(dir);
  try {
    // pipeline: a write that fails (ENOSPC) rejects here, never an unhandled 'error' event
    await pipelineAsync(Readable.from(chunks), createWriteStream(path));
  } catch (e) {
    cleanup();
    throw e;
  }
  return zipSource(name, path, (async function* () {})(), digest, cleanup, budget);
}

/** Passes a member's bytes through; an error (truncated archive) ends it and is recorded; a bound passed is thrown on. */
async function* guard(src: AsyncIterable<Buffer>, problem: { text: string | null }): AsyncGenerator<Buffer> {
  try {
    for await (const c of src) yield c;
  } catch (e) {
    if (e instanceof ExpansionError) throw e;
    problem.text = `archive member ended early (${(e as Error).message}); the records read before the break are kept`;
  }
}

class Digest {
  private readonly hash: Hash = createHash("sha256");
  private bytes = 0;
  private done: { sha256: string; bytes: number } | null = null;

  async *tap(src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of src) {
      this.hash.update(chunk);
      this.bytes += chunk.length;
      yield chunk;
    }
  }

  result(): { sha256: string; bytes: number } {
    this.done ??= { sha256: this.hash.digest("hex"), bytes: this.bytes };
    return this.done;
  }
}

function isTar(b: Buffer): boolean {
  return b.length >= 262 && b.toString("latin1", 257, 262) === "ustar";
}

/**
 * The bytes a file will give once decompressed: its size; for a zip
 * ZIP_EXPANSION times it (its members are read one at a time, but what they
 * load is bounded by what they hold); or for a gzip (told
 * by its magic bytes, whatever its name) the size its trailer records (ISIZE,
 * the uncompressed length modulo 4 GiB, of the last member). Deflate expands
 * at most 1032 times, so a gzip under 4 MiB cannot have wrapped; a bigger one
 * whose trailer is below its own size (over 4 GiB, several members, a damaged
 * end) says nothing: Infinity. A file that cannot be read gives its size
 * (reading it later reports why).
 */
const ZIP_EXPANSION = 10;

export function expandedBytes(path: string, size: number): number {
  const head = Buffer.alloc(4);
  try {
    const fd = openSync(path, "r");
    try {
      const got = readSync(fd, head, 0, 4, 0);
      // a zip of JSON members: deflate and zstd shrink JSON about tenfold
      if (got === 4 && isZip(head)) return size * ZIP_EXPANSION;
      if (got < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return size;
      if (size < 18 || readSync(fd, head, 0, 4, size - 4) !== 4) return Infinity;
      const isize = head.readUInt32LE(0);
      return isize >= size || size < 4 * 1024 * 1024 ? isize : Infinity;
    } finally {
      closeSync(fd);
    }
  } catch {
    return size;
  }
}
