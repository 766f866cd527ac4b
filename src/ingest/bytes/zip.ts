/**
 * Zip archives read member by member (a harness's zip logs): yauzl reads
 * the central directory (names, sizes, methods: no member data) and opens one
 * member at a time by random access into the file, so an archive is never held
 * in memory; a member's bytes stream through its decompressor. Methods: 0
 * (stored), 8 (deflate, Node's zlib through yauzl) and 93 (zstd, fzstd: pure
 * JavaScript; Node 20's zlib has no
 * zstd). Any other method is an error naming it.
 */
// yauzl and fzstd are imported when a zip is opened: a JSONL report never loads them
import type { Entry, ZipFile } from "yauzl";
import { inflateRawSync } from "node:zlib";

/** Members up to this size (uncompressed) are read and inflated whole; bigger ones are streamed. */
const WHOLE_MEMBER_MAX = 8 * 1024 * 1024;

/** The first bytes of a zip archive (a local file header), or of an empty one (end of central directory). */
export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

/** Zip method numbers as the messages name them. */
const METHODS: Readonly<Record<number, string>> = { 0: "stored", 8: "deflate", 93: "zstd" };

/** One member as the central directory lists it. */
export interface ZipMember {
  name: string;
  /** bytes once decompressed, as the central directory records them */
  size: number;
  /** zip compression method: 0 stored, 8 deflate, 93 zstd */
  method: number;
}

/**
 * An open zip archive. `members` maps each name to its last entry in the
 * central directory (a rewritten member, such as a log's header
 * replaced in place, is appended under the same name: the last one counts, as
 * Python's zipfile reads it). Close it when done.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    /** names in central-directory order (each once) */
    readonly names: readonly string[],
  ) {}

  /**
   * Opens `path` and reads its central directory. Throws Error with yauzl's
   * reason when it is no readable zip (no end of central directory, a cut file).
   */
  static async open(path: string): Promise<ZipArchive> {
    const { default: yauzl } = await import("yauzl");
    const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: true, strictFileNames: false });
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        if (entry.fileName.endsWith("/")) continue; // a folder entry holds no bytes
        entries.delete(entry.fileName); // re-insert: the last copy's place and data
        entries.set(entry.fileName, entry);
      }
    } catch (e) {
      zip.close();
      throw e;
    }
    return new ZipArchive(zip, entries, [...entries.keys()]);
  }

  /** The member named `name`, or null. */
  member(name: string): ZipMember | null {
    const e = this.entries.get(name);
    return e ? { name, size: e.uncompressedSize, method: e.compressionMethod } : null;
  }

  /**
   * The decompressed bytes of member `name`, streamed. Throws Error (from the
   * iteration) for an unknown compression method, encrypted members, corrupt
   * data, or a size that differs from the central directory's.
   */
  async *chunks(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no member ${name}`);
    if (entry.isEncrypted()) throw new Error(`member ${name} is encrypted`);
    const method = entry.compressionMethod;
    if (method === 8 && entry.uncompressedSize <= WHOLE_MEMBER_MAX) {
      // a small member: its compressed bytes in one read, inflated in one call (a stream
      // costs a thread-pool round trip per chunk, which a busy machine makes slow)
      const parts: Buffer[] = [];
      for await (const chunk of await this.zip.openReadStreamPromise(entry, { decodeFileData: false })) parts.push(chunk as Buffer);
      const out = inflateRawSync(Buffer.concat(parts), { maxOutputLength: Math.max(1, entry.uncompressedSize) });
      if (out.length !== entry.uncompressedSize)
        throw new Error(`member ${name} inflated to ${out.length} bytes, the archive records ${entry.uncompressedSize}`);
      yield out;
      return;
    }
    if (method === 0 || method === 8) {
      for await (const chunk of await this.zip.openReadStreamPromise(entry)) yield chunk as Buffer;
      return;
    }
    if (method !== 93)
      throw new Error(`member ${name} uses compression method ${method} (${METHODS[method] ?? "unknown"}); denom reads stored, deflate and zstd members`);
    yield* zstd(await this.zip.openReadStreamPromise(entry, { decodeFileData: false }), entry.uncompressedSize, name);
  }

  /** The whole member parsed as JSON (for small members: a header, a summary list). Throws Error when it is not JSON. */
  async json(name: string): Promise<unknown> {
    const parts: Buffer[] = [];
    for await (const c of this.chunks(name)) parts.push(c);
    return JSON.parse(
      Buffer.concat(parts)
        .toString("utf8")
        .replace(/^\uFEFF/, ""),
    );
  }

  close(): void {
    this.zip.close();
  }
}

/** Decodes a zstd member (one or more frames) as its compressed bytes arrive; checks the size the central directory records. */
async function* zstd(raw: AsyncIterable<Buffer | string>, expected: number, name: string): AsyncGenerator<Buffer> {
  const { Decompress } = await import("fzstd");
  const out: Buffer[] = [];
  const decoder = new Decompress((chunk) => void out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  let bytes = 0;
  for await (const chunk of raw) {
    decoder.push(chunk as Buffer);
    while (out.length) {
      const c = out.shift()!;
      bytes += c.length;
      yield c;
    }
  }
  decoder.push(new Uint8Array(0), true);
  for (const c of out) {
    bytes += c.length;
    yield c;
  }
  if (bytes !== expected) throw new Error(`zstd member ${name} decoded to ${bytes} bytes, the archive records ${expected}`);
}
