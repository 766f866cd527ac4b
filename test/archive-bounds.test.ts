/**
 * Bounds on what archives and compressed inputs expand to, those of a whole
 * input: nesting depth, members of an archive, decoded bytes; and runs of blank
 * lines (src/ingest/bytes/bounds.ts; docs/security.md, "Archives and compressed
 * inputs"). Every hostile input is built here, a few KB on disk; each bound's
 * message names the bound, its value and the file. Those of one zip member:
 * test/zip-member-bounds.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { evalArchive, evalSpec, type Member, sample } from "./eval-archives.js";
import { scratchPrefix } from "../src/scratch.js";
import { denom, jsonl, ROOT, tarOf, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 20_000 });

const rec = (task: string) => jsonl({ task_id: task, status: "success" });
const header = (ids: (string | number)[]) => ({
  version: 2,
  status: "success",
  eval: evalSpec({ eval_id: "E", run_id: "R", task: "t", model: "m", ids }),
  results: { total_samples: ids.length, completed_samples: ids.length },
});

/** The temporary folders this process left (none may stay after a refused input). */
const leftBehind = () => readdirSync(tmpdir()).filter((n) => n.startsWith(scratchPrefix(process.pid)));

/** `data` gzipped `n` times over. */
function gzipTimes(data: Buffer, n: number): Buffer {
  let b = data;
  for (let i = 0; i < n; i++) b = gzipSync(b);
  return b;
}

describe("nesting depth (bound 8)", () => {
  it("reads a record gzipped 8 times over; refuses 9 times, exit 1, naming the bound", async () => {
    const dir = tempDir({ "8.jsonl.gz": gzipTimes(Buffer.from(rec("a")), 8), "9.jsonl.gz": gzipTimes(Buffer.from(rec("a")), 9) });
    expect((await denom(["report", "--json", join(dir, "8.jsonl.gz")])).json().accounting).toMatchObject({ lines: 1, records: 1 });
    const r = await denom(["report", "--json", join(dir, "9.jsonl.gz")]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      "",
      `denom: ${join(dir, "9.jsonl.gz")}: compressed or archived more than 8 layers deep (bound: nesting depth, 8); refused\n`,
    ]);
    expect(leftBehind()).toEqual([]);
  });

  it("fails 3,000 layers of gzip in seconds (unbounded, it took minutes)", async () => {
    const dir = tempDir({ "deep.jsonl.gz": gzipTimes(Buffer.from(rec("a")), 3000) });
    const started = Date.now();
    const r = await denom(["report", join(dir, "deep.jsonl.gz")]);
    expect([r.code, r.stderr]).toEqual([
      1,
      `denom: ${join(dir, "deep.jsonl.gz")}: compressed or archived more than 8 layers deep (bound: nesting depth, 8); refused\n`,
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("counts a tar and the gzip of its member as layers", async () => {
    // x.tar.gz: gzip (1), tar (2), then its member gzipped 7 times: 9 layers
    const tar = await tarOf({ "in.jsonl.gz": gzipTimes(Buffer.from(rec("a")), 7) });
    const dir = tempDir({ "x.tar.gz": gzipSync(tar) });
    const r = await denom(["report", join(dir, "x.tar.gz")]);
    expect([r.code, r.stderr]).toEqual([
      1,
      `denom: ${join(dir, "x.tar.gz")}!in.jsonl.gz: compressed or archived more than 8 layers deep (bound: nesting depth, 8); refused\n`,
    ]);
  });
});

describe("members of one archive (bound 100,000; --max-members 100 here)", () => {
  it("reads a tar of 100 members; refuses 101, exit 1, naming the bound", async () => {
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}.jsonl`, rec(`t${i}`)]));
    const dir = tempDir({ "ok.tar.gz": gzipSync(await tarOf(files(100))), "bomb.tar.gz": gzipSync(await tarOf(files(101))) });
    expect((await denom(["report", "--json", "--max-members", "100", join(dir, "ok.tar.gz")])).json().accounting).toMatchObject({ lines: 100, records: 100 });
    const r = await denom(["report", "--max-members", "100", join(dir, "bomb.tar.gz")]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      "",
      `denom: ${join(dir, "bomb.tar.gz")}: more than 100 members (bound: members of one archive, 100); refused\n`,
    ]);
    expect(leftBehind()).toEqual([]);
  });

  it("refuses an .eval listing more members than the bound before reading any", async () => {
    const members: Member[] = [{ name: "header.json", content: header([]) }];
    for (let i = 0; i < 100; i++) members.push({ name: `samples/${i}_epoch_1.json`, content: sample(i, 1, "C") });
    const path = join(tempDir(), "many.eval");
    writeFileSync(path, await evalArchive(members));
    const r = await denom(["report", "--max-members", "100", path]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", `denom: ${path}: more than 100 members (bound: members of one archive, 100); refused\n`]);
    // gzipped, the .eval is first copied to a temporary file: removed when it is refused
    writeFileSync(`${path}.gz`, gzipSync(readFileSync(path)));
    const gz = await denom(["report", "--max-members", "100", `${path}.gz`]);
    expect([gz.code, gz.stderr]).toEqual([1, `denom: ${path}.gz: more than 100 members (bound: members of one archive, 100); refused\n`]);
    expect(leftBehind()).toEqual([]);
  });
});

describe("decoded bytes of one input (bound 64 GiB; --max-decoded-bytes 64KiB here)", () => {
  it("refuses a .jsonl.gz that decodes past it, exit 1", async () => {
    const bound = ["--max-decoded-bytes", "64KiB"];
    // 1,639 records of 40 bytes: 65,560 bytes decoded, 24 past the bound; 1,638 are 65,520, within it
    const text = Array.from({ length: 1639 }, (_, i) => rec(`t${String(i).padStart(5, "0")}`)).join("");
    expect(text.length).toBe(65_560);
    const dir = tempDir({ "small.jsonl.gz": gzipSync(text.slice(0, 65_520)), "big.jsonl.gz": gzipSync(text) });
    expect((await denom(["report", "--json", ...bound, join(dir, "small.jsonl.gz")])).json().accounting).toMatchObject({ records: 1638 });
    const r = await denom(["report", ...bound, join(dir, "big.jsonl.gz")]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      "",
      `denom: ${join(dir, "big.jsonl.gz")}: decodes to more than 64 KiB (bound: decoded bytes of one input, 64 KiB); refused, nothing after it was read\n`,
    ]);
    expect(leftBehind()).toEqual([]);
    // the default reads it
    expect((await denom(["report", "--json", join(dir, "big.jsonl.gz")])).json().accounting).toMatchObject({ records: 1639 });
  });

  it("refuses a size or count it cannot read (exit 2)", async () => {
    for (const [flag, value] of [
      ["--max-decoded-bytes", "lots"],
      ["--max-members", "0"],
      ["--max-members", "1.5"],
    ]) {
      const r = await denom(["report", flag, value, "x.jsonl"]);
      expect([r.code, r.stderr.split("\n")[0]]).toEqual([2, expect.stringContaining(`denom: ${flag} ${value}: expected`)]);
    }
  });
});

describe("runs of blank lines", () => {
  it("counts 30 million blank lines (30 MiB of newlines from a 30 KB gzip) with flat memory, in the line workers", () => {
    const dir = tempDir({ "blank.jsonl.gz": gzipSync(Buffer.concat([Buffer.from(rec("a")), Buffer.alloc(30 * 1024 * 1024, 10)]), { level: 9 }) });
    const preload = join(ROOT, "test", "report-maxrss.cjs");
    const r = spawnSync(process.execPath, ["--require", preload, join(ROOT, "dist", "bin.js"), "report", "--json", join(dir, "blank.jsonl.gz")], {
      encoding: "utf8",
      // the workers take sources from 1 MiB (32 MiB by default), as a bigger run of blanks would go
      env: { ...process.env, DENOM_LINE_WORKER_MIN_BYTES: String(1 << 20) },
      maxBuffer: 1 << 26,
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).accounting).toMatchObject({ lines: 30 * 1024 * 1024 + 1, records: 1, blank: 30 * 1024 * 1024, rejected: 0 });
    const rssMiB = Number(/maxrss_kb=(\d+)/.exec(r.stderr)![1]) / 1024;
    // one block of 30M line ends held over 1 GB; blocks of 64K lines keep it near the process's own size
    expect(rssMiB).toBeLessThan(400);
  });
});
