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
    const dir = tempDir({
      "run.jsonl": `${JSON.stringify({ task_id: "a", status: "success" })}\n${long}\n${JSON.stringify({ task_id: "b", status: "failure" })}\n`,
    });
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

const rec = (task: string, status = "success") => JSON.stringify({ task_id: task, status }) + "\n";

describe("folders: symbolic link loops, links to what was read, non-regular files", () => {
  it("reads each real file once, ends on a loop, and names every entry it skipped", async () => {
    // d/a.jsonl, d/c.jsonl -> a.jsonl, d/sub/b.jsonl, d/sub/up -> .. (a loop), d/zz-again -> sub, d/pipe.jsonl a FIFO
    const d = tempDir({ "a.jsonl": rec("a") });
    mkdirSync(join(d, "sub"));
    writeFileSync(join(d, "sub", "b.jsonl"), rec("b", "failure"));
    symlinkSync("..", join(d, "sub", "up"));
    symlinkSync("sub", join(d, "zz-again"));
    symlinkSync("a.jsonl", join(d, "c.jsonl"));
    expect(spawnSync("mkfifo", [join(d, "pipe.jsonl")]).status).toBe(0);
    const r = await denom(["report", "--json", d]);
    expect(r.code).toBe(0);
    const out = r.json();
    // two sources, two records: a and b, each once
    expect(out.meta.sources.map((s: { name: string }) => s.name)).toEqual([join(d, "a.jsonl"), join(d, "sub", "b.jsonl")]);
    expect(out.accounting).toMatchObject({ lines: 2, records: 2 });
    expect(r.stderr.split("\n").filter((l) => l.includes("warning"))).toEqual([
      `denom: warning: ${join(d, "c.jsonl")}: the same file as ${join(d, "a.jsonl")} (a link); read once, skipped here`,
      `denom: warning: ${join(d, "pipe.jsonl")}: a FIFO (named pipe), not a regular file; skipped (name it directly to read it as a stream)`,
      `denom: warning: ${join(d, "sub", "up")}: symbolic link loop (leads back to ${d}); skipped`,
      `denom: warning: ${join(d, "zz-again")}: the same folder as ${join(d, "sub")} (a symbolic link); read once, skipped here`,
    ]);
  });

  it("reads a FIFO named directly like stdin", async () => {
    const d = tempDir();
    const fifo = join(d, "runs.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const child = spawn(process.execPath, [join(ROOT, "dist", "bin.js"), "report", "--json", fifo], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (c) => (stdout += c));
    // the writer: opening the FIFO waits for the reader (denom), then 3 records and the end
    writeFileSync(fifo, rec("a") + rec("b", "failure") + rec("c"));
    const code = await new Promise((done) => child.on("close", done));
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.accounting).toMatchObject({ lines: 3, records: 3 });
    expect(out.rates.find((c: { basis: string; denominator: string }) => c.basis === "final" && c.denominator === "total")).toMatchObject({
      successes: 2,
      count: 3,
    });
  });
});

describe("temporary folders", () => {
  /** The temporary folders of process `pid` (scratch.ts names them denom-<pid>-<host>-...). */
  const foldersOf = async (pid: number) => {
    const { scratchPrefix } = await import("../src/scratch.js");
    return readdirSync(tmpdir()).filter((n) => n.startsWith(scratchPrefix(pid)));
  };

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`are removed on ${signal}`, async () => {
      // stdin that never ends: denom reads into a temporary database, which exists from the start
      const child = spawn(process.execPath, [join(ROOT, "dist", "bin.js"), "report", "-"], { stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (c) => (stderr += c));
      child.stdin.write(rec("a"));
      const pid = child.pid!;
      for (let i = 0; i < 200 && (await foldersOf(pid)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const before = await foldersOf(pid);
      expect(before.length).toBeGreaterThan(0);
      child.kill(signal);
      const code = await new Promise((done) => child.on("close", (c) => done(c)));
      expect(code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(await foldersOf(pid)).toEqual([]);
      expect(stderr).toContain("temporary files removed");
    });
  }

  it("of dead processes are swept; those of running ones, other hosts and other names stay", async () => {
    const { scratchPrefix, sweepStale } = await import("../src/scratch.js");
    const root = tempDir();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    for (const name of [`${scratchPrefix(dead)}aaaa`, `${scratchPrefix(process.pid)}bbbb`, `denom-${dead}-00000000-cccc`, "denom-test-dddd", "denom-abcdef"]) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, "runs.duckdb"), "x");
    }
    expect(sweepStale(root)).toEqual([join(root, `${scratchPrefix(dead)}aaaa`)]);
    expect(readdirSync(root).sort()).toEqual([`${scratchPrefix(process.pid)}bbbb`, `denom-${dead}-00000000-cccc`, "denom-abcdef", "denom-test-dddd"].sort());
  });
});

describe("exports are written whole or not at all", () => {
  it("leaves no data file when its meta file cannot be written", async () => {
    const d = tempDir({ "run.jsonl": rec("a") + rec("b") });
    const out = join(d, "trials.csv");
    // a folder where the meta file would go: the data is staged, then both are dropped
    mkdirSync(`${out}.meta.json`);
    const r = await denom(["export", join(d, "run.jsonl"), "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^denom: cannot write ${out}\\.meta\\.json: .*; ${out}\\.meta\\.json is left as it was\\n$`));
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(d).sort()).toEqual(["run.jsonl", "trials.csv.meta.json"]);
  });

  it("on a full disk: one line naming the file and what was kept; an older file stays whole", async (ctx) => {
    const mnt = join(tempDir(), "full");
    mkdirSync(mnt);
    if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=128k", "tmpfs", mnt]).status !== 0) {
      ctx.skip(); // needs root (a small tmpfs stands for the full disk)
      return;
    }
    try {
      const input = tempDir({
        "run.jsonl":
          Array.from({ length: 3000 }, (_, i) => JSON.stringify({ task_id: `t${i}`, status: "success", error_message: "x".repeat(100) })).join("\n") + "\n",
      });
      const out = join(mnt, "attempts.csv");
      writeFileSync(out, "older export\n");
      const r = await denom(["export", join(input, "run.jsonl"), "--out", out, "--what", "attempts"]);
      expect([r.code, r.stderr]).toEqual([1, `denom: cannot write ${out}: no space left on device; ${out} is left as it was\n`]);
      expect(readFileSync(out, "utf8")).toBe("older export\n");
      expect(readdirSync(mnt)).toEqual(["attempts.csv"]);
      const db = join(mnt, "runs.duckdb");
      const ing = await denom(["ingest", join(input, "run.jsonl"), "--db", db]);
      expect(ing.code).toBe(1);
      expect(ing.stderr).toMatch(
        new RegExp(
          `^denom: cannot write ${db}: no space left on device; (none of the runs of this call were added|the runs of this call were added \\(committed\\), the precomputed figures were not.*)\\n$`,
        ),
      );
    } finally {
      spawnSync("umount", [mnt]);
    }
  });
});

describe("many trials per task: the bootstrap works on a bounded set of k", () => {
  it("3 tasks x 500 trials: pass@k for every k, intervals for k = 1..10, 20, 50, 100, 200, 500", async () => {
    // trial k of each task succeeds unless k % 3 = 0: c = 333 of n = 500 for every task
    const lines = [];
    for (let t = 0; t < 3; t++) for (let k = 0; k < 500; k++) lines.push(JSON.stringify({ task_id: `t${t}`, trial: k, status: k % 3 ? "success" : "failure" }));
    const dir = tempDir({ "many.jsonl": lines.join("\n") + "\n" });
    const out = (await denom(["report", "--json", join(dir, "many.jsonl")])).json();
    expect(out.pass_at_k.length).toBe(500);
    // pass@1 = c/n = 333/500 for each task, so the mean is 0.666
    expect(out.pass_at_k[0].pass_at_k).toBeCloseTo(0.666, 12);
    const withCi = out.pass_at_k.filter((p: { pass_at_k_ci95: unknown }) => p.pass_at_k_ci95 !== null).map((p: { k: number }) => p.k);
    expect(withCi).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100, 200, 500]);
  });
});

describe("DuckDB's memory limit", () => {
  /** handleError's exit code and stderr for `e`. */
  const handled = async (e: unknown, debug = false) => {
    const { handleError } = await import("../src/cli/run.js");
    let stderr = "";
    const write = (s: string) => {
      stderr += s;
      return true;
    };
    const code = handleError(e, { stdout: { write: () => true }, stderr: { write } } as never, debug);
    return { code, stderr };
  };
  const duckdb =
    "Out of Memory Error: could not allocate block of size 256.0 KiB (381.3 MiB/381.4 MiB used)\n\nPossible solutions:\n* Reducing the number of threads (SET threads=X)\n";

  it("is one line naming the query file, exit 1, without DuckDB's advice on settings a user cannot change", async () => {
    const { DenomError } = await import("../src/errors.js");
    const r = await handled(new DenomError(`queries/marts/efficiency/per_success.sql: ${duckdb}`, 1));
    expect(r).toEqual({
      code: 1,
      stderr:
        "denom: out of memory in queries/marts/efficiency/per_success.sql: DuckDB needed more than its memory limit (381.3 MiB of 381.4 MiB in use) and could not spill the rest to disk, so the command stopped with no figure from it; this input is bigger than that statement can take: please report it with the input's size\n",
    });
  });

  it("outside a query file (storing a kept file's layers) is the same line with no file; --debug adds DuckDB's own message", async () => {
    const plain = await handled(new Error("Out of Memory Error: failed to allocate data of size 32.0 MiB (568.2 MiB/572.2 MiB used)"));
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(
      /^denom: out of memory: DuckDB needed more than its memory limit \(568\.2 MiB of 572\.2 MiB in use\) and could not spill[^\n]*\n$/,
    );
    const debug = await handled(new Error(duckdb), true);
    expect(debug.stderr).toContain("denom: out of memory: DuckDB needed more than its memory limit (381.3 MiB of 381.4 MiB in use)");
    expect(debug.stderr).toContain("Possible solutions");
  });
});
