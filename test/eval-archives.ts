/**
 * Inspect `.eval` archives built in the tests with yazl (the zip writer of
 * yauzl's author): deflate and stored members as yazl writes them; zstd members
 * (zip method 93, which yazl does not write) as stored members whose bytes are a
 * zstd frame, the central directory and local header then patched to say
 * method 93 with the uncompressed size and CRC-32 (APPNOTE 4.3.7, 4.3.12).
 */
import { crc32 } from "node:zlib";
import yazl from "yazl";

/** One member: its name, its content (text or an object written as JSON), and how it is stored. */
export interface Member {
  name: string;
  content: string | object;
  method?: "deflate" | "store" | "zstd";
  /** with method zstd: the member's stored bytes as a real zstd encoder wrote them (else raw blocks of `content`) */
  zstd?: Buffer;
}

const RAW_BLOCK_MAX = 128 * 1024;

/**
 * A zstd frame (RFC 8878) holding `data` in raw (uncompressed) blocks: a
 * valid frame any decoder reads. Single segment, 4-byte content size, no checksum.
 */
export function zstdRawFrame(data: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0])];
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  parts.push(size);
  let at = 0;
  do {
    const n = Math.min(RAW_BLOCK_MAX, data.length - at);
    const last = at + n >= data.length ? 1 : 0;
    const header = (n << 3) | (0 << 1) | last; // block type 0 = raw
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), data.subarray(at, at + n));
    at += n;
  } while (at < data.length);
  return Buffer.concat(parts);
}

/** The archive's bytes. */
export async function evalArchive(members: readonly Member[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const zstd = new Map<string, Buffer>();
  for (const m of members) {
    const text = Buffer.from(typeof m.content === "string" ? m.content : JSON.stringify(m.content));
    if (m.method === "zstd") {
      zstd.set(m.name, text);
      zip.addBuffer(m.zstd ?? zstdRawFrame(text), m.name, { compress: false, mtime: new Date(0) });
    } else zip.addBuffer(text, m.name, { compress: m.method !== "store", mtime: new Date(0) });
  }
  zip.end();
  const parts: Buffer[] = [];
  for await (const c of zip.outputStream) parts.push(c as Buffer);
  const out = Buffer.concat(parts);
  if (zstd.size) patchZstd(out, zstd);
  return out;
}

/** Where a header's fields lie: local file header (APPNOTE 4.3.7) and central directory header (4.3.12). */
const HEADERS = [
  { sig: 0x04034b50, nameLength: 26, name: 30, method: 8, crc: 14, size: 22 },
  { sig: 0x02014b50, nameLength: 28, name: 46, method: 10, crc: 16, size: 24 },
];

/** Rewrites the headers of the named stored members to method 93 (zstd) with their uncompressed size and CRC. */
function patchZstd(zip: Buffer, plain: ReadonlyMap<string, Buffer>): void {
  for (let at = 0; at + 46 <= zip.length; at++) {
    const h = HEADERS.find((x) => x.sig === zip.readUInt32LE(at));
    if (!h) continue;
    const data = plain.get(zip.toString("utf8", at + h.name, at + h.name + zip.readUInt16LE(at + h.nameLength)));
    if (!data) continue;
    zip.writeUInt16LE(93, at + h.method);
    zip.writeUInt32LE(crc32(data), at + h.crc);
    zip.writeUInt32LE(data.length, at + h.size);
  }
}

/** An EvalSpec-like `eval` block: task x model with the sample ids and epochs it owes. */
export function evalSpec(o: { eval_id: string; run_id: string; task: string; model: string; ids: (string | number)[]; epochs?: number; eval_set_id?: string }) {
  return {
    eval_id: o.eval_id,
    run_id: o.run_id,
    ...(o.eval_set_id ? { eval_set_id: o.eval_set_id } : {}),
    task: o.task,
    task_id: `${o.task}-tid`,
    model: o.model,
    dataset: { name: o.task, samples: o.ids.length, sample_ids: o.ids },
    config: { epochs: o.epochs ?? 1 },
    packages: { inspect_ai: "0.3.160" },
  };
}

/** A sample (EvalSample subset) scored `value` by the first scorer. */
export function sample(id: string | number, epoch: number, value: unknown, extra: Record<string, unknown> = {}) {
  return { id, epoch, input: `input ${id}`, target: "T", messages: [{ role: "user", content: "bulk never read" }], scores: { match: { value } }, ...extra };
}
