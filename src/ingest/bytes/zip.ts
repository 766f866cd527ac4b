/**
 * Zip archives read member by member (a harness's zip logs): yauzl reads
 * the central directory (names, sizes, methods: no member data) and the
 * members by random access into the file, through BlockFile (a block of 1 MiB
 * at a time, a few kept), so an archive is never held in memory; a member's
 * bytes stream through its decompressor, or a small one is inflated whole. Methods: 0
 * (stored), 8 (deflate, Node's zlib) and 93 (zstd, fzstd: pure
 * JavaScript; Node 20's zlib has no
 * zstd). Any other method is an error naming it. Every member is counted
 * against the expansion bounds (bounds.ts) as its bytes are decoded: its size,
 * the size the archive declares, its ratio, and the input's decoded total.
 */
// yauzl and fzstd are imported when a zip is opened: a JSONL report never loads them
import type { Entry, RandomAccessReader, ZipFile } from "yauzl";
import { open as openFile, type FileHandle } from "node:fs/promises";
import { createInflateRaw, inflateRawSync } from "node:zlib";
import { Readable } from "node:stream";
import { checkMembers, expansionBounds, type InputBudget, MemberBoundError, MemberMeter, showBytes } from "./bounds.js";

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
    private readonly file: BlockFile,
    private readonly entries: Map<string, Entry>,
    /** names in central-directory order (each once) */
    readonly names: readonly string[],
    private readonly budget: InputBudget | null,
  ) {}

  /**
   * Opens `path` and reads its central directory; `budget` counts the decoded
   * bytes of its members with the rest of the input's. Throws Error with yauzl's
   * reason when it is no readable zip (no end of central directory, a cut file),
   * ExpansionError (naming it `name`) when it lists more members than the bound.
   */
  static async open(path: string, name: string = path, budget: InputBudget | null = null): Promise<ZipArchive> {
    const { default: yauzl } = await import("yauzl");
    const file = await BlockFile.open(path);
    let zip: ZipFile;
    try {
      zip = await yauzl.fromRandomAccessReaderPromise(readerOf(yauzl.RandomAccessReader, file), file.size, {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        strictFileNames: false,
      });
    } catch (e) {
      await file.close();
      throw e;
    }
    const entries = new Map<string, Entry>();
    let count = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        checkMembers(name, ++count);
        if (entry.fileName.endsWith("/")) continue; // a folder entry holds no bytes
        entries.delete(entry.fileName); // re-insert: the last copy's place and data
        entries.set(entry.fileName, entry);
      }
    } catch (e) {
      zip.close();
      throw e;
    }
    return new ZipArchive(zip, file, entries, [...entries.keys()], budget);
  }

  /** The member named `name`, or null. */
  member(name: string): ZipMember | null {
    const e = this.entries.get(name);
    return e ? { name, size: e.uncompressedSize, method: e.compressionMethod } : null;
  }

  /**
   * The decompressed bytes of member `name`, streamed, each counted against the
   * member bounds and the input's (bounds.ts) as it is decoded. Throws Error
   * (from the iteration) for an unknown compression method, encrypted members,
   * corrupt data, or a size that differs from the central directory's;
   * MemberBoundError once a bound of the member is passed, ExpansionError once the input's is.
   */
  async *chunks(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no member ${name}`);
    if (entry.isEncrypted()) throw new Error(`member ${name} is encrypted`);
    const method = entry.compressionMethod;
    if (method !== 0 && method !== 8 && method !== 93)
      throw new Error(`member ${name} uses compression method ${method} (${METHODS[method] ?? "unknown"}); denom reads stored, deflate and zstd members`);
    const meter = new MemberMeter(name, entry.uncompressedSize);
    const count = (out: Buffer): Buffer => {
      meter.add(out.length);
      this.budget?.add(out.length);
      return out;
    };
    if (method === 8 && entry.uncompressedSize <= WHOLE_MEMBER_MAX) {
      // a small member: its compressed bytes at once, inflated in one call into one buffer
      // of its size (a stream, or the async call, costs a thread-pool round trip per
      // chunk: about twice the CPU for 33 KB members, docs/benchmarks.md); the output
      // stops at the declared size, which is then checked
      const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
      const deflated = await this.file.bytes(fileDataStart, fileDataStart + entry.compressedSize);
      meter.read(entry.compressedSize);
      let out: Buffer;
      try {
        const size = Math.max(1, entry.uncompressedSize);
        out = inflateRawSync(deflated, { maxOutputLength: size, chunkSize: Math.max(64, size) });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
          throw new MemberBoundError(`member ${name} decodes to more than the ${entry.uncompressedSize} bytes the archive declares; refused`);
        throw e;
      }
      if (out.length !== entry.uncompressedSize)
        throw new Error(`member ${name} inflated to ${out.length} bytes, the archive records ${entry.uncompressedSize}`);
      yield count(out);
      return;
    }
    const raw = await this.zip.openReadStreamPromise(entry, { decodeFileData: false });
    const read = metered(raw as AsyncIterable<Buffer>, meter);
    // zstd output is counted as the decoder gives it, inside one push (which may decode thousands of blocks)
    const decoded = method === 0 ? read : method === 8 ? Readable.from(read).pipe(createInflateRaw()) : zstd(read, name, entry.uncompressedSize, count);
    let bytes = 0;
    try {
      for await (const chunk of decoded) {
        bytes += (chunk as Buffer).length;
        yield method === 93 ? (chunk as Buffer) : count(chunk as Buffer);
      }
    } finally {
      if (decoded instanceof Readable) decoded.destroy();
    }
    if (bytes !== entry.uncompressedSize) throw new Error(`member ${name} decoded to ${bytes} bytes, the archive records ${entry.uncompressedSize}`);
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

/** Bytes of a zip file read at a time: members are read in file order, so one read serves many. */
const BLOCK = 1024 * 1024;
/** Blocks kept: the ones the members an archive reader reads ahead of its parse lie in. */
const BLOCKS_KEPT = 8;

/**
 * A zip file read a block of BLOCK bytes at a time, the last BLOCKS_KEPT
 * blocks kept: the central directory of 30,000 members and their local
 * headers then cost a few reads, not 100,000 (yauzl's own file reader reads
 * each header and each member on its own, one read at a time).
 */
class BlockFile {
  private readonly blocks = new Map<number, Promise<Buffer>>();
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  /** Opens `path`; throws the file system's error (no such file, permission denied). */
  static async open(path: string): Promise<BlockFile> {
    const handle = await openFile(path, "r");
    try {
      return new BlockFile(handle, (await handle.stat()).size);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** Bytes [start, end) of the file, shorter where the file ends first. */
  async bytes(start: number, end: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const piece of this.pieces(start, end)) parts.push(piece);
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  /** Bytes [start, end) a block at a time (views into the blocks), shorter where the file ends first. */
  async *pieces(start: number, end: number): AsyncGenerator<Buffer> {
    for (let at = start; at < Math.min(end, this.size); ) {
      const i = Math.floor(at / BLOCK);
      const piece = (await this.block(i)).subarray(at - i * BLOCK, end - i * BLOCK);
      if (piece.length === 0) return; // the file ended before its size
      yield piece;
      at += piece.length;
    }
  }

  private block(i: number): Promise<Buffer> {
    let block = this.blocks.get(i);
    if (block)
      this.blocks.delete(i); // taken to the newest end
    else block = this.readBlock(i);
    this.blocks.set(i, block);
    if (this.blocks.size > BLOCKS_KEPT) this.blocks.delete(this.blocks.keys().next().value as number);
    return block;
  }

  private async readBlock(i: number): Promise<Buffer> {
    const buffer = Buffer.allocUnsafe(Math.min(BLOCK, this.size - i * BLOCK));
    let got = 0;
    while (got < buffer.length) {
      const { bytesRead } = await this.handle.read(buffer, got, buffer.length - got, i * BLOCK + got);
      if (bytesRead === 0) break; // the file is shorter than it was: the reader meets its end
      got += bytesRead;
    }
    return buffer.subarray(0, got);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.blocks.clear();
    await this.handle.close();
  }
}

/** `file` as the RandomAccessReader yauzl reads a zip through (yauzl's documented way to give it another reader). */
function readerOf(Base: typeof RandomAccessReader, file: BlockFile): RandomAccessReader {
  class BlockReader extends Base {
    override _readStreamForRange(start: number, end: number): Readable {
      return Readable.from(file.pieces(start, end), { objectMode: false });
    }

    override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
      file.bytes(position, position + length).then(
        (bytes) => callback(null, bytes.copy(buffer, offset)),
        (e: Error) => callback(e),
      );
    }

    override close(callback: (err: Error | null) => void): void {
      file.close().then(() => callback(null), callback);
    }
  }
  return new BlockReader();
}

/** Passes compressed chunks through, counting them on `meter` (for the ratio bound). */
async function* metered(raw: AsyncIterable<Buffer>, meter: MemberMeter): AsyncGenerator<Buffer> {
  for await (const chunk of raw) {
    meter.read(chunk.length);
    yield chunk;
  }
}

/**
 * Compressed bytes handed to the zstd decoder at a time: one push decodes every
 * whole block it holds (a 4-byte RLE block gives 128 KiB), so small pushes keep
 * what one push can hold small.
 */
const ZSTD_PUSH = 16 * 1024;

/**
 * Decodes a zstd member (one or more frames) as its compressed bytes arrive.
 * Each frame's header is read before the decoder sees it (FrameScanner): a
 * window over the bound, or a single-segment frame declaring more than the
 * member, is refused (MemberBoundError) before the decoder allocates it.
 * Each block the decoder gives is handed to `count` at once, which throws at a
 * bound: a push of a bomb's blocks stops there, not at the end of the push.
 */
async function* zstd(raw: AsyncIterable<Buffer>, name: string, declared: number, count: (b: Buffer) => Buffer): AsyncGenerator<Buffer> {
  const { Decompress } = await import("fzstd");
  const out: Buffer[] = [];
  const decoder = new Decompress((chunk) => void out.push(count(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))));
  const scanner = new FrameScanner(name, declared);
  const drain = function* (): Generator<Buffer> {
    while (out.length) yield out.shift()!;
  };
  for await (const chunk of raw) {
    for (let at = 0; at < chunk.length; at += ZSTD_PUSH) {
      const piece = chunk.subarray(at, at + ZSTD_PUSH);
      scanner.scan(piece);
      decoder.push(piece);
      yield* drain();
    }
  }
  decoder.push(new Uint8Array(0), true);
  yield* drain();
}

/**
 * Follows the frames of a zstd stream (RFC 8878, 3.1) block by block, to read
 * each frame's header before the decoder does: the window it asks for must be
 * within the zstdWindow bound, and a single-segment frame (whose window is its
 * content size) may not declare more than the member. Throws MemberBoundError.
 */
class FrameScanner {
  /** bytes of the stream still to skip (block or frame data), then the next header's bytes gathered */
  private skip = 0;
  private want: "frame" | "block" = "frame";
  private head: number[] = [];
  private checksum = false;

  constructor(
    private readonly name: string,
    private readonly declared: number,
  ) {}

  scan(piece: Uint8Array): void {
    let at = 0;
    while (at < piece.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, piece.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      this.head.push(piece[at++]);
      if (this.want === "block") this.block();
      else this.frame();
    }
  }

  /** A block header is whole at 3 bytes: skip its content, or after the last block the checksum. */
  private block(): void {
    if (this.head.length < 3) return;
    const h = this.head[0] | (this.head[1] << 8) | (this.head[2] << 16);
    this.head = [];
    const type = (h >> 1) & 3;
    this.skip = type === 1 ? 1 : h >> 3;
    if (h & 1) {
      this.skip += this.checksum ? 4 : 0;
      this.want = "frame";
    }
  }

  /** A frame header: magic, descriptor, window, dictionary id, content size; or a skippable frame's magic and size. */
  private frame(): void {
    const h = this.head;
    if (h.length < 8) return;
    const magic = (h[0] | (h[1] << 8) | (h[2] << 16) | (h[3] << 24)) >>> 0;
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      this.skip = (h[4] | (h[5] << 8) | (h[6] << 16) | (h[7] << 24)) >>> 0;
      this.head = [];
      return;
    }
    if (magic !== 0xfd2fb528) {
      this.head = [];
      this.skip = Number.POSITIVE_INFINITY; // not zstd: the decoder says so
      return;
    }
    const flags = h[4];
    const single = (flags >> 5) & 1;
    const dictBytes = [0, 1, 2, 4][flags & 3];
    const fcsField = flags >> 6;
    const sizeBytes = fcsField === 0 ? single : 1 << fcsField;
    const length = 5 + (single ? 0 : 1) + dictBytes + sizeBytes;
    if (h.length < length) return;
    let size = 0;
    for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + h[length - sizeBytes + i];
    if (sizeBytes === 2) size += 256;
    const window = single ? size : 2 ** (10 + (h[5] >> 3)) * (1 + (h[5] & 7) / 8);
    const bound = expansionBounds().zstdWindow;
    if (single && size > this.declared)
      throw new MemberBoundError(`member ${this.name}: a zstd frame declares ${size} bytes, more than the ${this.declared} the archive declares; refused`);
    if (window > bound)
      throw new MemberBoundError(
        `member ${this.name}: a zstd frame asks for a window of ${showBytes(window)} (bound: zstd window, ${showBytes(bound)}); refused`,
      );
    this.checksum = ((flags >> 2) & 1) === 1;
    this.head = [];
    this.want = "block";
  }
}
