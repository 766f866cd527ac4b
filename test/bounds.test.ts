/**
 * Issue 16, bounds and files: an overlong line is a reject and reading goes on;
 * symlink loops, FIFOs and other non-regular files; temporary folders removed;
 * exports written whole or not at all.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { denom, jsonl, ROOT, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 120_000 });

describe("a line longer than the limit is a reject, and reading goes on", () => {
  it("rejects a 5000-byte line under --max-line-bytes 1KiB, reads the lines around it", async () => {
    // 3 lines: a, then 5000 x's inside a record (5043 bytes with its JSON), then b
    const long = JSON.stringify({ task_id: "long", status: "success", note: "x".repeat(5000) });
    const dir = tempDir({ "run.jsonl": `${JSON.stringify({ task_id: "a", status: "success" })}\n${long}\n${JSON.stringify({ task_id: "b", status: "failure" })}\n` });
    const r = await denom(["report", "--json", "--max-line-bytes", "1KiB", join(dir, "run.jsonl")]);
    expect(r.code).toBe(0);
    expect(r.json().accounting).toMatchObject({ lines: 3, records: 2, rejected: 1 });
    expect(r.stderr).toContain(
      `run.jsonl:2: line of ${long.length} bytes, longer than the 0.0 MiB limit; skipped without reading it into memory (--max-line-bytes raises the limit); the line was skipped`,
    );
    // the default (64 MiB) reads it
    expect((await denom(["report", "--json", join(dir, "run.jsonl")])).json().accounting).toMatchObject({ records: 3, rejected: 0 });
  });

  it("refuses a limit no string can hold, or a size it cannot read", async () => {
    for (const size of ["600MiB", "lots", "0"]) {
      const r = await denom(["report", "--max-line-bytes", size, "x.jsonl"]);
      expect([r.code, r.stderr.split("\n")[0]]).toEqual([2, expect.stringContaining(`denom: --max-line-bytes ${size}: `)]);
    }
  });
});
