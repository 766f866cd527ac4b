/**
 * gzip read member by member, as `gzip -dc` reads it (RFC 1952):
 * concatenated members are one stream; bytes after the last member that do not
 * start another member are trailing garbage, reported, with everything
 * decompressed before them kept; a member cut short is reported as truncated,
 * with what it gave before the cut kept; trailing zero bytes (tape padding)
 * are ignored, as gzip does.
 *
 * Node's own Gunzip reads concatenated members too, but an error after the last
 * member (stray bytes) throws away the output of the write that met it: every
 * record of a small file. Here each member's header is parsed in JS and its
 * deflate data inflated by a raw inflater, whose consumed byte count
 * (`bytesWritten`) says where the member's data ends.
 */
import { crc32, createInflateRaw, type InflateRaw } from "node:zlib";

/** What reading a gzip stream found wrong; null fields when nothing was. */
export interface GunzipProblem {
  text: string | null;
}

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/** True when `b` starts with the gzip magic bytes. */
export function isGzip(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/**
 * The decompressed bytes of a gzip stream (`src` starts with its magic bytes).
 * A problem (truncated member, bad header or trailer, trailing garbage) ends the
 * output and is written to `problem.text`; what was decompressed before it has
 * been yielded.
 */
export async function* gunzipMembers(src: AsyncIterable<Buffer>, problem: GunzipProblem): AsyncGenerator<Buffer> {
  const input = new ByteQueue(src);
  let members = 0;
  let total = 0;
  for (;;) {
    await input.fill(2);
    if (input.length === 0) return;
    if (!isGzip(input.head(2))) {
      if (members === 0) {
        problem.text = "not a gzip stream";
        return;
      }
      const garbage = await input.drain();
      if (garbage.zeros) return; // zero padding after the last member: gzip ignores it too
      problem.text = `${garbage.bytes} byte${garbage.bytes === 1 ? "" : "s"} of trailing garbage after gzip member ${members} (offset ${total}); every record before them is kept`;
      return;
    }
    const header = await readHeader(input);
    if (typeof header === "string") {
      problem.text = `gzip member ${members + 1} ${header}; the records read before it are kept`;
      return;
    }
    total += header;
    const member = { crc: 0, size: 0 };
    let error: string | null = null;
    for await (const out of inflateMember(input, member, (consumed) => (total += consumed))) {
      if (typeof out === "string") {
        error = out;
        break;
      }
      yield out;
    }
    if (error !== null) {
      problem.text = `gzip stream ended early (member ${members + 1}: ${error}); the records read before the break are kept`;
      return;
    }
    await input.fill(8);
    if (input.length < 8) {
      problem.text = `gzip stream ended early (member ${members + 1} has no complete trailer); the records read before the break are kept`;
      input.take(input.length);
      return;
    }
    const trailer = input.take(8);
    total += 8;
    if (trailer.readUInt32LE(0) !== member.crc >>> 0 || trailer.readUInt32LE(4) !== member.size >>> 0) {
      problem.text = `gzip member ${members + 1} fails its CRC or length check (damaged data); the records read before the break are kept`;
      return;
    }
    members++;
  }
}

/**
 * Reads one member header (RFC 1952 section 2.3) off `input`: its byte length,
 * or what is wrong with it.
 */
async function readHeader(input: ByteQueue): Promise<number | string> {
  await input.fill(10);
  if (input.length < 10) return "has a cut header";
  const fixed = input.head(10);
  if (fixed[2] !== 8) return `uses compression method ${fixed[2]}, not deflate`;
  const flags = fixed[3];
  let at = 10;
  if (flags & FEXTRA) {
    await input.fill(at + 2);
    if (input.length < at + 2) return "has a cut header";
    const xlen = input.head(at + 2).readUInt16LE(at);
    at += 2 + xlen;
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    // a zero-terminated name or comment
    for (;;) {
      const have = input.length;
      const nul = have > at ? input.head(have).indexOf(0, at) : -1;
      if (nul !== -1) {
        at = nul + 1;
        break;
      }
      await input.fill(have + 1);
      if (input.length === have) return "has a cut header";
    }
  }
  if (flags & FHCRC) at += 2;
  await input.fill(at);
  if (input.length < at) return "has a cut header";
  input.take(at);
  return at;
}

/**
 * Inflates one member's deflate data from `input`, yielding its output (or,
 * last, a string saying why it broke); the bytes after the deflate data stay
 * in `input`. `member` gets the CRC-32 and length of the output; `onConsumed`
 * the compressed bytes used.
 */
async function* inflateMember(input: ByteQueue, member: { crc: number; size: number }, onConsumed: (n: number) => void): AsyncGenerator<Buffer | string> {
  const inf: InflateRaw = createInflateRaw();
  const out: Buffer[] = [];
  let ended = false;
  let failure: Error | null = null;
  inf.on("data", (d: Buffer) => out.push(d));
  inf.on("end", () => (ended = true));
  inf.on("error", (e: Error) => (failure = e));
  let fed = 0;
  const flush = function* (): Generator<Buffer> {
    while (out.length) {
      const d = out.shift() as Buffer;
      member.crc = crc32(d, member.crc);
      member.size += d.length;
      yield d;
    }
  };
  try {
    for (;;) {
      let chunk = input.takeAll();
      if (chunk.length === 0) {
        chunk = await input.next();
        if (chunk.length === 0) {
          // the source ended: the member must end here
          await settled(inf, (done) => inf.end(done));
          yield* flush();
          if (failure) return yield (failure as Error).message;
          if (!ended) return yield "unexpected end of file";
          return;
        }
      }
      const before = fed;
      fed += chunk.length;
      await settled(inf, (done) => inf.write(chunk, done));
      yield* flush();
      if (failure) return yield (failure as Error).message;
      if (ended || inf.bytesWritten < fed) {
        // the deflate data ended inside this chunk: its rest belongs to the trailer and what follows
        const usedHere = inf.bytesWritten - before;
        input.unshift(chunk.subarray(usedHere));
        onConsumed(inf.bytesWritten - before);
        return;
      }
      onConsumed(chunk.length);
    }
  } finally {
    inf.removeAllListeners("data");
    inf.destroy();
  }
}

/**
 * Runs `act` (a write or end of the inflater) and waits for its callback or an
 * error, then lets the inflater's queued events (data, end, error) run.
 */
async function settled(inf: InflateRaw, act: (done: () => void) => void): Promise<void> {
  await new Promise<void>((resolve) => {
    const onError = () => resolve();
    inf.once("error", onError);
    act(() => {
      inf.off("error", onError);
      resolve();
    });
  });
  await new Promise((resolve) => setImmediate(resolve));
}

/** Pulls chunks from a source on demand, with bytes put back in front. */
class ByteQueue {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly it: AsyncIterator<Buffer>;
  private done = false;

  constructor(src: AsyncIterable<Buffer>) {
    this.it = src[Symbol.asyncIterator]();
  }

  get length(): number {
    return this.size;
  }

  /** Reads until at least `n` bytes are queued, or the source ends. */
  async fill(n: number): Promise<void> {
    while (this.size < n && !this.done) {
      const r = await this.it.next();
      if (r.done) this.done = true;
      else if (r.value.length) {
        this.chunks.push(r.value);
        this.size += r.value.length;
      }
    }
  }

  /** The first `n` queued bytes (n <= length), without taking them. */
  head(n: number): Buffer {
    if (this.chunks.length > 1 && this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].subarray(0, n);
  }

  /** Takes the first `n` queued bytes (n <= length). */
  take(n: number): Buffer {
    const bytes = Buffer.from(this.head(n));
    let left = n;
    while (left > 0) {
      const first = this.chunks[0];
      if (first.length <= left) {
        this.chunks.shift();
        left -= first.length;
      } else {
        this.chunks[0] = first.subarray(left);
        left = 0;
      }
    }
    this.size -= n;
    return bytes;
  }

  /** Takes every queued byte. */
  takeAll(): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    return all;
  }

  /** The next chunk of the source (empty when it has ended), bypassing the queue (which must be empty). */
  async next(): Promise<Buffer> {
    while (!this.done) {
      const r = await this.it.next();
      if (r.done) this.done = true;
      else if (r.value.length) return r.value;
    }
    return Buffer.alloc(0);
  }

  /** Puts bytes back in front. */
  unshift(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.chunks.unshift(bytes);
    this.size += bytes.length;
  }

  /** Reads the source to its end: how many bytes were left, and whether all were zero. */
  async drain(): Promise<{ bytes: number; zeros: boolean }> {
    let bytes = 0;
    let zeros = true;
    const look = (b: Buffer) => {
      bytes += b.length;
      if (zeros)
        for (const x of b)
          if (x !== 0) {
            zeros = false;
            break;
          }
    };
    for (const c of this.chunks) look(c);
    this.chunks = [];
    this.size = 0;
    for (;;) {
      const c = await this.next();
      if (c.length === 0) break;
      look(c);
    }
    return { bytes, zeros };
  }
}
