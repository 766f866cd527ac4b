/**
 * Input sources (DESIGN section 1, first stage): paths, folders (recursive),
 * `.gz`, `.tar`/`.tar.gz`/`.tgz` (every member streamed, nothing extracted to
 * disk) and `-` for stdin. Each source yields its decompressed bytes and, once
 * read, its sha256 and byte count. Compression and archives are recognised by
 * their magic bytes, so a piped archive works too.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream, readdirSync, statSync, type Stats } from "node:fs";
import { basename, join } from "node:path";
import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { DataError } from "../errors.js";

/** One command-line input after expansion: a file, or stdin. */
export type InputSpec = { kind: "file"; path: string; size: number } | { kind: "stdin" };

/** Files a folder contributes: these endings (a `.gz` may hold JSONL, JSON or a tar). */
export const RECORD_FILE = /\.(jsonl|ndjson|json|gz|tgz|tar)$/i;

/** Read size for files; small blocks decode faster than 64 KiB ones (PERF-NOTES). */
const READ_CHUNK = 32 * 1024;

/**
 * Expands command-line inputs: `-` is stdin, a folder is walked recursively
 * (sorted, hidden entries skipped, only RECORD_FILE names), a file is taken as is.
 * Throws DataError naming the path when it does not exist or cannot be read.
 */
export function expandInputs(inputs: readonly string[]): InputSpec[] {
  const out: InputSpec[] = [];
  for (const input of inputs) {
    if (input === "-") {
      out.push({ kind: "stdin" });
      continue;
    }
    let st: Stats;
    try {
      st = statSync(input);
    } catch (e) {
      throw new DataError(`cannot read ${input}: ${describeFsError(e)}`);
    }
    if (st.isDirectory()) {
      const found: InputSpec[] = [];
      walk(input, found);
      if (found.length === 0) throw new DataError(`${input}: folder holds no .jsonl, .json or .gz files`);
      out.push(...found);
    } else {
      out.push({ kind: "file", path: input, size: st.size });
    }
  }
  return out;
}

function walk(dir: string, out: InputSpec[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    throw new DataError(`cannot read folder ${dir}: ${describeFsError(e)}`);
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) walk(path, out);
    else if (st.isFile() && RECORD_FILE.test(name)) out.push({ kind: "file", path, size: st.size });
  }
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
  /** set when the stream broke (truncated gzip or tar); what was read before the break is kept */
  problem(): string | null;
}

/** An archive member that holds no records by its name, listed in the meta block. */
export interface SkippedMember {
  skipped: string;
  reason: string;
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
    const name = spec.kind === "stdin" ? "-" : spec.path;
    const raw: AsyncIterable<Buffer> =
      spec.kind === "stdin" ? stdin : createReadStream(spec.path, { highWaterMark: READ_CHUNK });
    yield* classify(name, counted(raw, onBytes));
  }
}

async function* counted(src: AsyncIterable<Buffer | string>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of src) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      onBytes(buf.length);
      yield buf;
    }
  } catch (e) {
    throw new DataError(`cannot read: ${describeFsError(e)}`);
  }
}

/** Decides by magic bytes whether `raw` is gzip, a tar, or plain text, and yields the sources within. */
async function* classify(name: string, raw: AsyncIterable<Buffer>): AsyncGenerator<SourceStream | SkippedMember> {
  const digest = new Digest();
  const hashed = digest.tap(raw);
  const head = await peek(hashed, 512);
  if (isGzip(head.bytes)) {
    const problem = { text: null as string | null };
    const inflated = await peek(gunzip(head.rest, problem), 512);
    if (isTar(inflated.bytes)) {
      yield* tarMembers(name, inflated.rest, problem);
      return;
    }
    yield { name, chunks: inflated.rest, digest: () => digest.result(), problem: () => problem.text };
    return;
  }
  if (isTar(head.bytes)) {
    yield* tarMembers(name, head.rest, { text: null });
    return;
  }
  yield { name, chunks: head.rest, digest: () => digest.result(), problem: () => null };
}

async function* tarMembers(archive: string, chunks: AsyncIterable<Buffer>, problem: { text: string | null }): AsyncGenerator<SourceStream | SkippedMember> {
  const extract = tar.extract();
  let streamError: Error | null = null;
  pipeline(Readable.from(chunks), extract, (err) => {
    if (err) streamError = err;
  });
  try {
    for await (const entry of extract) {
      const member = `${archive}!${entry.header.name}`;
      try {
        if (entry.header.type !== "file") continue;
        const base = basename(entry.header.name);
        if (base.startsWith("._") || !RECORD_FILE.test(base) || /\.(tar|tgz)$/i.test(base)) {
          yield { skipped: member, reason: "not a .jsonl, .json or .gz file" };
          continue;
        }
        const memberProblem = { text: null as string | null };
        for await (const inner of classify(member, guard(entry as AsyncIterable<Buffer>, memberProblem))) {
          if ("skipped" in inner) yield inner;
          else yield { ...inner, problem: () => inner.problem() ?? memberProblem.text ?? problem.text };
        }
      } finally {
        entry.resume();
      }
    }
  } catch (e) {
    problem.text = `tar archive ended early (${(e as Error).message}); the members read before the break are kept`;
  }
  if (streamError && !problem.text) problem.text = `archive could not be read to the end (${(streamError as Error).message})`;
}

/** Passes a member's bytes through; an error (truncated archive) ends it and is recorded. */
async function* guard(src: AsyncIterable<Buffer>, problem: { text: string | null }): AsyncGenerator<Buffer> {
  try {
    for await (const c of src) yield c;
  } catch (e) {
    problem.text = `archive member ended early (${(e as Error).message}); the records read before the break are kept`;
  }
}

async function* gunzip(src: AsyncIterable<Buffer>, problem: { text: string | null }): AsyncGenerator<Buffer> {
  const z = createGunzip();
  let readError: unknown = null;
  pipeline(Readable.from(src), z, (err) => {
    if (err) readError = err;
  });
  try {
    for await (const chunk of z) yield chunk as Buffer;
  } catch (e) {
    if (readError instanceof DataError) throw readError;
    problem.text = `gzip stream ended early (${(e as Error).message}); the records read before the break are kept`;
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

/** Reads at least `n` bytes (or all there is) and hands back an iterable that replays them first. */
async function peek(src: AsyncIterable<Buffer>, n: number): Promise<{ bytes: Buffer; rest: AsyncIterable<Buffer> }> {
  const it = src[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let have = 0;
  let finished = false;
  while (have < n) {
    const r = await it.next();
    if (r.done) {
      finished = true;
      break;
    }
    head.push(r.value);
    have += r.value.length;
  }
  const bytes = Buffer.concat(head);
  async function* rest(): AsyncGenerator<Buffer> {
    if (bytes.length) yield bytes;
    if (finished) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { bytes, rest: rest() };
}

function isGzip(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

function isTar(b: Buffer): boolean {
  return b.length >= 262 && b.toString("latin1", 257, 262) === "ustar";
}
