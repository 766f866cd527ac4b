/**
 * Bounds on one zip member (an Inspect `.eval` member): its decoded size, the
 * size the archive declares, its expansion ratio, the zstd window a frame asks
 * for, and the longest JSON value held whole in it (the line limit)
 * (src/ingest/bytes/bounds.ts, zip.ts; docs/security.md, "Archives and
 * compressed inputs"). A sample member past one is a reject naming the bound;
 * the other samples are read. Every hostile member is built here, a few KB.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setExpansionBounds } from "../src/ingest/bytes/bounds.js";
import { evalArchive, evalSpec, type Member, sample } from "./eval-archives.js";
import { denom, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  setExpansionBounds({});
});

const header = (ids: (string | number)[]) => ({
  version: 2,
  status: "success",
  eval: evalSpec({ eval_id: "E", run_id: "R", task: "t", model: "m", ids }),
  results: { total_samples: ids.length, completed_samples: ids.length },
});

const block = (type: number, size: number, last: boolean) => {
  const h = (size << 3) | (type << 1) | (last ? 1 : 0);
  return Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]);
};

/**
 * A zstd frame (RFC 8878): `head` in a raw block, `rle` RLE blocks of 128 KiB
 * of `a` (4 bytes each), `tail` in a raw block. Window descriptor `window`
 * (exponent << 3: 10 << 3 asks for 1 MiB), no content size.
 */
function zstdBomb(head: string, rle: number, tail: string, window = 10 << 3): { frame: Buffer; plain: number } {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, window]), block(0, head.length, false), Buffer.from(head)];
  for (let i = 0; i < rle; i++) parts.push(block(1, 128 * 1024, false), Buffer.from("a"));
  parts.push(block(0, tail.length, true), Buffer.from(tail));
  return { frame: Buffer.concat(parts), plain: head.length + rle * 128 * 1024 + tail.length };
}

/** An .eval of samples 1 and 2 (C and I) and one more member `bomb` holding sample 3. */
async function evalWith(bomb: Member): Promise<string> {
  const path = join(tempDir(), "bomb.eval");
  writeFileSync(
    path,
    await evalArchive([
      { name: "header.json", content: header([1, 2, 3]) },
      { name: "samples/1_epoch_1.json", content: sample(1, 1, "C") },
      { name: "samples/2_epoch_1.json", content: sample(2, 1, "I") },
      bomb,
    ]),
  );
  return path;
}

/** Samples 1 and 2 read, sample 3 one reject whose reason is `reason`, exit 0. */
async function expectSampleRejected(path: string, reason: string, args: string[] = []) {
  const r = await denom(["report", "--json", ...args, path]);
  expect(r.code).toBe(0);
  expect(r.json().accounting).toMatchObject({ lines: 3, records: 2, rejected: 1 });
  expect(r.stderr).toContain(`${path} (samples/3_epoch_1.json): sample member could not be read (${reason})`);
}

describe("one zip member: decoded size, declared size, ratio, zstd window", () => {
  it("rejects a sample decoding past the member bound (lowered here to 1 MiB); the others are read", async () => {
    setExpansionBounds({ memberBytes: 1024 * 1024 });
    const path = await evalWith({ name: "samples/3_epoch_1.json", content: sample(3, 1, "C", { note: "x".repeat(1100 * 1024) }) });
    await expectSampleRejected(path, "member samples/3_epoch_1.json decodes to more than 1 MiB (bound: decoded bytes of one member, 1 MiB)");
  });

  it("rejects a zstd sample of 3 KB that expands 30,000-fold (300 RLE blocks, 38 MiB) at the ratio bound", async () => {
    const bomb = zstdBomb('{"id":3,"epoch":1,"input":"', 300, '","scores":{"m":{"value":"C"}}}');
    expect(bomb.frame.length).toBeLessThan(1300);
    const path = await evalWith({ name: "samples/3_epoch_1.json", content: "x".repeat(bomb.plain), method: "zstd", zstd: bomb.frame });
    await expectSampleRejected(
      path,
      `member samples/3_epoch_1.json decodes to more than 1000 times its ${bomb.frame.length} compressed bytes (bound: expansion ratio of one member, 1000, past 16 MiB)`,
    );
  });

  it("rejects a zstd sample declaring 200 bytes at byte 201 of 1 GiB (8,000 RLE blocks in 32 KB)", async () => {
    const bomb = zstdBomb('{"id":3,"epoch":1,"input":"', 8000, '"}');
    const path = await evalWith({ name: "samples/3_epoch_1.json", content: "x".repeat(200), method: "zstd", zstd: bomb.frame });
    const started = Date.now();
    await expectSampleRejected(path, "member samples/3_epoch_1.json decodes to more than the 200 bytes the archive declares; refused");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("rejects a deflate sample that decodes past the size it declares", async () => {
    const path = await evalWith({ name: "samples/3_epoch_1.json", content: sample(3, 1, "C", { note: "x".repeat(5000) }) });
    // the central directory's uncompressed size of member 3 (the last central header) lowered to 100
    const zip = readFileSync(path);
    const at = zip.lastIndexOf(Buffer.from("PK\u0001\u0002", "latin1"));
    zip.writeUInt32LE(100, at + 24);
    writeFileSync(path, zip);
    await expectSampleRejected(path, "member samples/3_epoch_1.json decodes to more than the 100 bytes the archive declares; refused");
  });

  it("rejects a zstd frame asking for a 512 MiB window, and a single-segment frame declaring more than its member", async () => {
    const wide = zstdBomb('{"id":3,"epoch":1,"scores":{"m":{"value":"C"}}', 0, "}", 19 << 3);
    const path = await evalWith({ name: "samples/3_epoch_1.json", content: "x".repeat(wide.plain), method: "zstd", zstd: wide.frame });
    await expectSampleRejected(path, "member samples/3_epoch_1.json: a zstd frame asks for a window of 512 MiB (bound: zstd window, 128 MiB); refused");
    // the largest window a frame can ask for, 2^41 bytes (a 32-bit shift would wrap it to 512 bytes)
    const widest = zstdBomb('{"id":3,"epoch":1,"scores":{"m":{"value":"C"}}', 0, "}", 31 << 3);
    const path3 = await evalWith({ name: "samples/3_epoch_1.json", content: "x".repeat(widest.plain), method: "zstd", zstd: widest.frame });
    await expectSampleRejected(path3, "member samples/3_epoch_1.json: a zstd frame asks for a window of 2048 GiB (bound: zstd window, 128 MiB); refused");
    // single segment (0x20), content size in 4 bytes (0x80): 1 GiB, for a member of 47 bytes
    const text = '{"id":3,"epoch":1,"scores":{"m":{"value":"C"}}}';
    const single = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0, 0, 0, 0x40]), block(0, text.length, true), Buffer.from(text)]);
    const path2 = await evalWith({ name: "samples/3_epoch_1.json", content: text, method: "zstd", zstd: single });
    await expectSampleRejected(
      path2,
      `member samples/3_epoch_1.json: a zstd frame declares 1073741824 bytes, more than the ${text.length} the archive declares; refused`,
    );
  });
});

describe("a JSON value inside an .eval member is held whole only within the line limit", () => {
  it("rejects a sample holding a 2 MiB string, or a 2 MiB event, under --max-line-bytes 1MiB", async () => {
    const reason = "a JSON value longer than 1 MiB, the line limit (--max-line-bytes raises it); not read into memory";
    const long = await evalWith({ name: "samples/3_epoch_1.json", content: sample(3, 1, "C", { input: "x".repeat(2 * 1024 * 1024) }) });
    await expectSampleRejected(long, reason, ["--max-line-bytes", "1MiB"]);
    const event = { event: "model", output: { choices: Array.from({ length: 40_000 }, (_, i) => ({ n: i, text: "y".repeat(40) })) } };
    const big = await evalWith({ name: "samples/3_epoch_1.json", content: sample(3, 1, "C", { events: [event] }) });
    await expectSampleRejected(big, reason, ["--max-line-bytes", "1MiB"]);
    // the default limit (64 MiB) reads both
    expect((await denom(["report", "--json", long])).json().accounting).toMatchObject({ records: 3, rejected: 0 });
  });
});
