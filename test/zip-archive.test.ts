/**
 * ZipArchive reads a zip file a block of 1 MiB at a time, a few blocks kept
 * (src/ingest/bytes/zip.ts BlockFile): members that lie across block edges,
 * bigger than a block, stored or deflated, inflated whole or streamed (past 8
 * MiB), read in file order, backwards and twice, give back exactly the bytes
 * written.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ZipArchive } from "../src/ingest/bytes/zip.js";
import { evalArchive, type Member } from "./eval-archives.js";
import { tempDir } from "./helpers.js";

const MiB = 1024 * 1024;

/** `n` bytes of text deflate shrinks by about a third only: letters and digits drawn by a fixed generator. */
function text(n: number, seed: number): string {
  const symbols = "abcdefghijklmnopqrstuvwxyz0123456789";
  const codes = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    // mulberry32
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    codes[i] = symbols.charCodeAt(((t ^ (t >>> 14)) >>> 0) % 36);
  }
  return Buffer.from(codes).toString("latin1");
}

async function readAll(zip: ZipArchive, name: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of zip.chunks(name)) parts.push(chunk);
  return Buffer.concat(parts).toString("utf8");
}

describe("ZipArchive, read a block at a time", () => {
  const members: Member[] = [
    { name: "a.txt", content: "tiny", method: "store" },
    { name: "empty.txt", content: "", method: "deflate" },
    { name: "b.txt", content: text(700_000, 1), method: "store" },
    { name: "c.txt", content: text(1.5 * MiB, 2), method: "store" }, // across two block edges
    { name: "d.txt", content: text(2.5 * MiB, 3), method: "deflate" }, // inflated whole, its bytes across blocks
    { name: "e.json", content: { n: 1, s: text(1000, 4) }, method: "deflate" },
    { name: "f.txt", content: text(9 * MiB, 5), method: "deflate" }, // past 8 MiB: streamed
    { name: "g.txt", content: text(300_000, 6), method: "deflate" },
  ];
  const expected = (m: Member) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

  it("give every member's bytes in file order, backwards, and again", async () => {
    const path = join(tempDir(), "blocks.zip");
    const bytes = await evalArchive(members);
    expect(bytes.length).toBeGreaterThan(9 * MiB); // stored members and the deflated ones: many blocks
    writeFileSync(path, bytes);
    const zip = await ZipArchive.open(path);
    try {
      expect(zip.names).toEqual(members.map((m) => m.name));
      for (const m of members) expect([m.name, await readAll(zip, m.name)]).toEqual([m.name, expected(m)]);
      for (const m of [...members].reverse()) expect([m.name, await readAll(zip, m.name)]).toEqual([m.name, expected(m)]);
      const [c, b] = await Promise.all([readAll(zip, "c.txt"), readAll(zip, "b.txt")]);
      expect([c === expected(members[3]), b === expected(members[2])]).toEqual([true, true]);
      expect(await zip.json("e.json")).toEqual(members[5].content);
    } finally {
      zip.close();
    }
  });

  it("name a file cut inside its central directory as no readable zip", async () => {
    const path = join(tempDir(), "cut.zip");
    const bytes = await evalArchive(members.slice(0, 3));
    writeFileSync(path, bytes.subarray(0, bytes.length - 30));
    await expect(ZipArchive.open(path)).rejects.toThrow(/end of central directory record signature not found/i);
  });
});
