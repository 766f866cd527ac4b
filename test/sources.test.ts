/** Inputs: files, folders, gzip, tar and tar.gz (members streamed), stdin; truncated archives. */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { denom, jsonl, tempDir } from "./helpers.js";

const A = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" });
const B = jsonl({ task_id: "c", status: "timeout" });

async function tarOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");

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
    expect(out.meta.skipped_files).toEqual([{ name: `${path}!run/run.log`, reason: "not a .jsonl, .json or .gz file" }]);
    // a, b, c: one success of three
    expect(out.rates[4]).toMatchObject({ basis: "final", denominator: "total", successes: 1, count: 3 });
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
    const dir = tempDir({ "cut.jsonl.gz": cut });
    const r = await denom(["report", "--json", join(dir, "cut.jsonl.gz")]);
    expect(r.code).toBe(0);
    const src = r.json().meta.sources[0];
    expect(src.problem).toMatch(/^gzip stream ended early/);
    expect(r.stderr).toMatch(/warning: .*cut\.jsonl\.gz: gzip stream ended early/);
    // some but not all of the 2000 records; every line read is accounted for
    expect(src.records).toBeGreaterThan(0);
    expect(src.records).toBeLessThan(2000);
    expect(src.lines).toBe(src.records + src.blank + src.rejected);
  });

  it("fails with one line and exit 1 when an input does not exist", async () => {
    const r = await denom(["report", "/nonexistent/run.jsonl"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("denom: cannot read /nonexistent/run.jsonl: no such file or folder\n");
    expect(r.stdout).toBe("");
  });

  it("fails with exit 1 on a folder without record files", async () => {
    const dir = tempDir({ "notes.txt": "x" });
    const r = await denom(["report", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/folder holds no \.jsonl, \.json or \.gz files/);
  });
});
