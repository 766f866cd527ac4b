/**
 * `denom ingest` skips a file loaded before by hashing it first; that costs a
 * second read of the file, so only a plain file whose size is that of a stored
 * source is hashed first (never an archive: its members are the sources).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { Database } from "../src/db/database.js";
import { ingest } from "../src/ingest/ingest.js";
import { fileSha256 } from "../src/ingest/bytes/sources.js";
import { jsonl, tarOf, tempDir } from "./helpers.js";

// count the files hashed before reading, and hash them as usual
vi.mock("../src/ingest/bytes/sources.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/ingest/bytes/sources.js")>();
  return { ...actual, fileSha256: vi.fn(actual.fileSha256) };
});

describe("pre-hashing known files", () => {
  it("hashes first only a plain file as large as a stored source, never an archive", async () => {
    const archive = await tarOf({ "m.jsonl": jsonl({ task_id: "m", status: "success" }) });
    // a JSONL source exactly as large as the archive: one record, then a blank line of spaces
    const record = jsonl({ task_id: "p", status: "success" });
    const padded = `${record}${" ".repeat(archive.length - record.length - 1)}\n`;
    expect(Buffer.byteLength(padded)).toBe(archive.length);
    const dir = tempDir({ "a.jsonl": padded, "copy.jsonl": padded, "other.jsonl": jsonl({ task_id: "o", status: "failure" }) });
    writeFileSync(join(dir, "runs.tar"), archive);
    const db = await Database.open();
    try {
      const options = { stdin: Readable.from([]), skipKnownSources: true };
      await ingest(db, [join(dir, "a.jsonl")], options);
      vi.mocked(fileSha256).mockClear();
      const second = await ingest(db, [join(dir, "copy.jsonl"), join(dir, "other.jsonl"), join(dir, "runs.tar")], options);
      // copy.jsonl has a.jsonl's size: hashed, found, skipped unread; other.jsonl has another
      // size and runs.tar is an archive: neither is hashed before it is read
      expect(vi.mocked(fileSha256).mock.calls.map(([path]) => path)).toEqual([join(dir, "copy.jsonl")]);
      expect(second.skipped.map((s) => [s.name, s.same_as])).toEqual([[join(dir, "copy.jsonl"), join(dir, "a.jsonl")]]);
      // other.jsonl and the archive's member are loaded: 2 sources, 1 record each
      expect([second.sources, second.records]).toEqual([2, 2]);
    } finally {
      db.close();
    }
  });
});
