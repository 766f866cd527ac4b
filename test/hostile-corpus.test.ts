/**
 * The hostile corpus of bench/hostile-corpus.mjs (generated into a fresh folder
 * here, never committed) read end to end by the built CLI: every line
 * accounted exactly as the generator counted it by construction (records +
 * blank + rejected = lines read), no crash (every stderr line a one-line
 * `denom: ` message), no hang (a 60 s limit; it takes about 9 s), memory bounded (peak RSS under
 * 1 GB, measured by the process itself: test/report-maxrss.cjs), exit 0 (rejects without --strict are
 * counted, not fatal: docs/exit-codes.md).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of bench/, without types
import { buildCorpus } from "../bench/hostile-corpus.mjs";
import { ROOT, tempDir } from "./helpers.js";

const dir = tempDir();
const counts: { files: number; lines: number; records: number; blank: number; rejected: number } = buildCorpus(dir);
const PRELOAD = join(ROOT, "test", "report-maxrss.cjs");

describe("the hostile corpus", () => {
  it(`${counts.files} files: ${counts.lines} lines = ${counts.records} records + ${counts.blank} blank + ${counts.rejected} rejected; exit 0, no crash, under 1 GB`, () => {
    expect(counts.files).toBeGreaterThanOrEqual(150);
    expect(readdirSync(dir).length).toBe(counts.files);
    expect(counts.lines).toBe(counts.records + counts.blank + counts.rejected);
    const r = spawnSync(process.execPath, ["--require", PRELOAD, join(ROOT, "dist", "bin.js"), "report", "--json", dir], {
      encoding: "utf8",
      timeout: 60_000,
      maxBuffer: 1 << 28,
    });
    expect(r.signal).toBe(null); // not killed by the 15 s limit
    expect(r.status).toBe(0);
    const { lines, records, blank, rejected, unaccounted } = JSON.parse(r.stdout).accounting;
    expect({ lines, records, blank, rejected, unaccounted }).toEqual({
      lines: counts.lines,
      records: counts.records,
      blank: counts.blank,
      rejected: counts.rejected,
      unaccounted: 0,
    });
    const stderr = r.stderr.split("\n").filter((l) => l !== "");
    const rss = Number(/^maxrss_kb=(\d+)$/.exec(stderr.pop() ?? "")?.[1]);
    expect(stderr.filter((l) => !l.startsWith("denom: "))).toEqual([]);
    expect(rss * 1024).toBeLessThan(1024 ** 3);
  });
});
