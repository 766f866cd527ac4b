/** Inputs: files, folders, gzip, tar and tar.gz (members streamed), stdin; truncated archives. */
import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DataError } from "../src/errors.js";
import { expandInputs, namedFormat, openSources } from "../src/ingest/bytes/sources.js";
import { denom, jsonl, tarOf, tempDir } from "./helpers.js";

const A = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" });
const B = jsonl({ task_id: "c", status: "timeout" });

const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");

/** The reason a member that is not a record file is skipped: every ending read, in one list. */
const NOT_RECORDS = "not a record file (names ending .jsonl, .ndjson, .json, .traj, .eval, .gz, .tgz, .tar are read)";

describe("inputs", () => {
  it("walks a folder recursively, taking only record files, in name order", async () => {
    const dir = tempDir({ "b.jsonl": B, "notes.md": "# not records", "run.log": "x" });
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "a.jsonl"), A);
    const out = (await denom(["report", "--json", dir])).json();
    expect(out.meta.sources.map((s: { name: string }) => s.name)).toEqual([join(dir, "b.jsonl"), join(dir, "sub", "a.jsonl")]);
    expect(out.accounting.records).toBe(3);
  });

  it("reads a .gz file and gives the sha256 of the file as stored", async () => {
    const gz = gzipSync(A);
    const dir = tempDir({ "a.jsonl.gz": gz });
    const src = (await denom(["report", "--json", join(dir, "a.jsonl.gz")])).json().meta.sources[0];
    expect([src.sha256, src.bytes, src.lines]).toEqual([sha(gz), gz.length, 2]);
  });

  it("streams every record member of a .tar.gz as archive!member and lists the others as skipped", async () => {
    const archive = gzipSync(await tarOf({ "run/a.jsonl": A, "run/b.jsonl.gz": gzipSync(B), "run/run.log": "log" }));
    const dir = tempDir({ "logs.tar.gz": archive });
    const out = (await denom(["report", "--json", join(dir, "logs.tar.gz")])).json();
    const path = join(dir, "logs.tar.gz");
    expect(out.meta.sources.map((s: { name: string; sha256: string }) => [s.name, s.sha256])).toEqual([
      [`${path}!run/a.jsonl`, sha(A)],
      [`${path}!run/b.jsonl.gz`, sha(gzipSync(B))],
    ]);
    expect(out.meta.skipped_files).toEqual([{ name: `${path}!run/run.log`, reason: NOT_RECORDS, top_keys: null }]);
    // a, b, c: one success of three
    expect(out.rates[4]).toMatchObject({ basis: "final", denominator: "total", successes: 1, count: 3 });
  });

  it("reads every ending a folder reads in an archive too, an archive inside one included", async () => {
    const inner = await tarOf({ "c.jsonl": B });
    const archive = await tarOf({
      "a.ndjson": A, // a, b
      "inner.tar": inner, // c, as inner.tar!c.jsonl
      "inner.tgz": gzipSync(inner), // c again: the same default run, so an identical duplicate
      "._a.ndjson": "mac metadata",
      "notes.txt": "x",
    });
    const dir = tempDir({ "x.tar": archive });
    const path = join(dir, "x.tar");
    const out = (await denom(["report", "--json", path])).json();
    expect(out.meta.sources.map((s: { name: string }) => s.name)).toEqual([`${path}!a.ndjson`, `${path}!inner.tar!c.jsonl`, `${path}!inner.tgz!c.jsonl`]);
    expect(out.meta.skipped_files).toEqual([
      { name: `${path}!._a.ndjson`, reason: "macOS metadata (a ._ file beside the real one), not records", top_keys: null },
      { name: `${path}!notes.txt`, reason: NOT_RECORDS, top_keys: null },
    ]);
    // 4 records; the second c is an identical duplicate: 3 trials, a the one success
    expect([out.accounting.records, out.accounting.duplicates]).toEqual([4, 1]);
    expect(out.rates[4]).toMatchObject({ basis: "final", denominator: "total", successes: 1, count: 3 });
  });

  it("says which names are JSONL whatever their first bytes: .jsonl and .ndjson, compressed or in an archive", () => {
    expect(["x.jsonl", "x.NDJSON", "x.jsonl.gz", "logs.tar.gz!run/member.jsonl", "a.tgz!b.ndjson.gz"].map(namedFormat)).toEqual(Array(5).fill("jsonl"));
    // a .json, stdin, an archive itself and a member named .json are sniffed
    expect(["x.json", "-", "x.json.gz", "logs.tar.gz", "logs.jsonl.tar!run/results.json"].map(namedFormat)).toEqual(Array(5).fill(null));
  });

  it("reads a plain .tar and an archive piped to stdin", async () => {
    const t = await tarOf({ "a.jsonl": A });
    const dir = tempDir({ "x.tar": t });
    expect((await denom(["report", "--json", join(dir, "x.tar")])).json().accounting.records).toBe(2);
    const piped = await denom(["report", "--json", "-"], gzipSync(t));
    expect(piped.json().meta.sources[0].name).toBe("-!a.jsonl");
    expect(piped.json().accounting.records).toBe(2);
  });

  it("keeps the records read before a gzip stream breaks and says so", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ task_id: `t${i}`, status: "success", pad: "x".repeat(50) })).join("\n");
    const gz = gzipSync(lines);
    const cut = gz.subarray(0, Math.floor(gz.length / 2));
    // what the cut file still holds: zlib inflates every byte it can before the break
    const readable = gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString();
    const whole = readable.split("\n").length - 1; // lines that end in a newline: every one a record
    const partial = readable.slice(readable.lastIndexOf("\n") + 1); // the line the break cut short
    const dir = tempDir({ "cut.jsonl.gz": cut });
    const r = await denom(["report", "--json", join(dir, "cut.jsonl.gz")]);
    expect(r.code).toBe(0);
    const src = r.json().meta.sources[0];
    expect(src.problem).toMatch(/^gzip stream ended early/);
    expect(r.stderr).toMatch(/warning: .*cut\.jsonl\.gz: gzip stream ended early/);
    expect(whole).toBeGreaterThan(0);
    expect(whole).toBeLessThan(2000);
    // lines are counted from the bytes, apart from the buckets: whole + the partial one
    expect(src.lines).toBe(whole + (partial === "" ? 0 : 1));
    expect([src.records, src.blank, src.rejected]).toEqual([whole, 0, partial === "" ? 0 : 1]);
    expect(r.json().accounting.unaccounted).toBe(0);
  });

  it("fails with one line and exit 1 when an input does not exist", async () => {
    const r = await denom(["report", "/nonexistent/run.jsonl"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("denom: cannot read /nonexistent/run.jsonl: no such file or folder\n");
    expect(r.stdout).toBe("");
  });

  it("fails with exit 1 on a folder without record files, listing every ending read and what fixes it", async () => {
    const dir = tempDir({ "notes.txt": "x" });
    const r = await denom(["report", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `denom: ${dir}: folder holds no record files (names ending .jsonl, .ndjson, .json, .traj, .eval, .gz, .tgz, .tar); rename them to one of these endings, or name a file directly (any name is read)\n`,
    );
  });
});

describe("expandInputs and reading errors", () => {
  it("skips a broken symbolic link in a folder, naming it, and reads the rest", () => {
    const dir = tempDir({ "a.jsonl": A });
    symlinkSync(join(dir, "gone.jsonl"), join(dir, "b.jsonl"));
    const warnings: string[] = [];
    const specs = expandInputs([dir], (w) => warnings.push(w));
    expect(specs.map((s) => (s.kind === "file" ? s.path : "-"))).toEqual([join(dir, "a.jsonl")]);
    expect(warnings).toEqual([`${join(dir, "b.jsonl")}: broken symbolic link (its target does not exist); skipped`]);
  });

  it("fails on a broken symbolic link given as an input, naming it", () => {
    const dir = tempDir();
    symlinkSync(join(dir, "gone.jsonl"), join(dir, "b.jsonl"));
    expect(() => expandInputs([join(dir, "b.jsonl")])).toThrow(
      new DataError(`cannot read ${join(dir, "b.jsonl")}: broken symbolic link (its target does not exist)`),
    );
  });

  it("names the source when reading it fails half-way", async () => {
    const dir = tempDir();
    // a folder passed as a file: opening works, the first read fails with EISDIR
    const read = async () => {
      for await (const src of openSources([{ kind: "file", path: dir, size: 0 }], Readable.from([]))) {
        if ("chunks" in src) for await (const _ of src.chunks);
      }
    };
    await expect(read()).rejects.toThrow(new DataError(`cannot read ${dir}: is a folder`));
  });
});
