/**
 * Big inputs: the loader's data chunks, the temporary database file
 * with a memory limit for inputs too big for memory, and the progress line on
 * a TTY. Speed is measured by bench/, never here.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { needsDisk } from "../src/ingest/runs.js";
import { Database } from "../src/db/database.js";
import { DEFAULT_DEFINITIONS, openSession } from "../src/db/session.js";
import { computingLine, progressLine } from "../src/render/progress.js";
import { cell, denom, jsonl, ROOT, tempDir } from "./helpers.js";

/**
 * 5,000 attempts (more than two data chunks of 2,048 rows): attempt i is task
 * t<i>, a success unless i is a multiple of 4 (1,250 failures), with 2 events,
 * and `cost_usd` only on even i (2,500 nulls in the column).
 */
function manyAttempts(): string {
  const rows = [];
  for (let i = 0; i < 5000; i++) {
    rows.push({
      task_id: `t${i}`,
      status: i % 4 === 0 ? "failure" : "success",
      started_at: "2025-04-01T08:00:00Z",
      ended_at: `2025-04-01T08:00:${String(i % 60).padStart(2, "0")}Z`,
      ...(i % 2 === 0 ? { cost_usd: 0.5 } : {}),
      events: [
        { ts: "2025-04-01T08:00:00Z", type: "tool_call", name: "ls", args: { b: 1, a: [i] } },
        { ts: "2025-04-01T08:00:00Z", type: "tool_result", name: "ls" },
      ],
    });
  }
  return jsonl(...rows);
}

describe("loading in data chunks", () => {
  it("loads every row of several chunks, with its nulls, exactly once", async () => {
    const dir = tempDir({ "many.jsonl": manyAttempts() });
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", join(dir, "many.jsonl"), "--db", db])).code).toBe(0);
    const r = await denom([
      "query",
      "--db",
      db,
      "--json",
      `SELECT count(*) AS attempts, count(cost_usd) AS with_cost, sum(cost_usd) AS cost,
         (SELECT count(*) FROM events) AS events,
         (SELECT args FROM events WHERE attempt_id = 5000 AND seq = 0) AS last_args,
         max_by(task_id, attempt_id) AS last_task, count(DISTINCT line) AS lines
       FROM attempts`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    // 2,500 even attempts cost 0.5 each; keys of args sorted
    expect(r.json()).toEqual([
      { attempts: 5000, with_cost: 2500, cost: 1250, events: 10000, last_args: '{"a":[4999],"b":1}', last_task: "t4999", lines: 5000 },
    ]);
  });
});

describe("inputs too big for memory", () => {
  it("go to a temporary file when over 256 MB in all once decompressed, or of unknown size", () => {
    const gz = gzipSync("{}\n");
    /** the same gzip, its trailer saying it expands to `isize` bytes */
    const claiming = (isize: number) => {
      const b = Buffer.from(gz);
      b.writeUInt32LE(isize, b.length - 4);
      return b;
    };
    // over 4 MiB (random bytes do not compress), its trailer saying 10 bytes: wrapped past 4 GiB
    const wrapped = gzipSync(randomBytes(4.5 * 1024 * 1024));
    wrapped.writeUInt32LE(10, wrapped.length - 4);
    const dir = tempDir({ "a.jsonl": "{}\n", "small.gz": gz, "big.json.txt": claiming(256e6 + 1), "wrapped.gz": wrapped });
    const file = (name: string, size: number) => ({ kind: "file" as const, path: join(dir, name), size });
    expect(needsDisk([file("a.jsonl", 256e6)])).toBe(false);
    expect(needsDisk([file("a.jsonl", 128e6), file("a.jsonl", 128e6 + 1)])).toBe(true);
    // a gzip counts what it expands to (3 bytes here), whatever its name
    expect(needsDisk([file("small.gz", gz.length)])).toBe(false);
    expect(needsDisk([file("big.json.txt", gz.length)])).toBe(true);
    // a trailer below the file's own size, when the file could have wrapped it: unknown
    expect(needsDisk([file("wrapped.gz", wrapped.length)])).toBe(true);
    expect(needsDisk([{ kind: "stdin" }])).toBe(true);
    expect(needsDisk([])).toBe(false);
  });

  it("give the same figures from the temporary file as from memory (seed-100: final/total 82/100)", async () => {
    const seed = readFileSync(join(ROOT, "samples", "seed-100.jsonl"));
    const dir = tempDir({ "seed.jsonl": seed });
    const inMemory = (await denom(["report", "--json", join(dir, "seed.jsonl")])).json();
    // stdin: of unknown size, so on disk
    const onDisk = (await denom(["report", "--json", "-"], seed)).json();
    expect(cell(onDisk, "final/total")).toMatchObject({ successes: 82, count: 100 });
    expect(cell(onDisk, "first/attributable")).toMatchObject({ successes: 70, count: 90 });
    // everything but the source's name is the same
    const strip = (r: { meta: { sources: unknown[] } }) => ({ ...r, meta: { ...r.meta, sources: r.meta.sources.length } });
    expect(strip(onDisk)).toEqual(strip(inMemory));
  });

  it("bound DuckDB's memory in a temporary session: 400 MB (= 381.4 MiB) and jemalloc's background purge (1 GB of JSONL under 1 GB of RSS)", async () => {
    const db = await Database.open({ temporary: true });
    const row = await db.one("SELECT current_setting('memory_limit') AS m, current_setting('allocator_background_threads') AS bg");
    db.close();
    // 400e6 bytes / 2^20 = 381.47 MiB, as DuckDB prints it
    expect(row).toEqual({ m: "381.4 MiB", bg: true });
  });

  it("compute a temporary session's relations on every core DuckDB has, a session in memory on one thread (1 GB 23.5 s -> 16.0 s)", async () => {
    // DuckDB's own default, as a fresh file-backed instance has it (the machine's cores)
    const fresh = await Database.open({ temporary: true });
    const cores = (await fresh.one("SELECT current_setting('threads') AS t"))?.t;
    fresh.close();
    const threads = async (temporary: boolean) => {
      const session = await openSession({ definitions: DEFAULT_DEFINITIONS, temporary });
      const t = (await session.db.one("SELECT current_setting('threads') AS t"))?.t;
      session.close();
      return t;
    };
    // no attempts loaded: at most ONE_THREAD_MAX_ATTEMPTS, so memory is held to one thread
    expect(await threads(false)).toBe(1);
    // on a one-core machine both are 1 and this cannot tell them apart; CI and this machine have two
    expect(await threads(true)).toBe(cores);
  });

  it("remove the temporary file and spill folder when closed", async () => {
    const db = await Database.open({ temporary: true });
    await db.run("CREATE TABLE t AS SELECT range AS i FROM range(10)");
    expect((await db.one("SELECT count(*) AS n, current_setting('memory_limit') AS limit_ FROM t"))?.n).toBe(10);
    const scratch = db.scratch!;
    expect(existsSync(join(scratch, "runs.duckdb"))).toBe(true);
    db.close();
    expect(existsSync(scratch)).toBe(false);
    const memory = await Database.open();
    expect(memory.scratch).toBe(null);
    memory.close();
  });
});

describe("progress line", () => {
  it("shows a bar, MB, records, rate and the time left", () => {
    // 412 MB in 20 s: 588 MB left at 20.6 MB/s = 28.5 s, shown rounded up
    expect(progressLine({ read: 412e6, total: 1000e6, records: 380112, seconds: 20 })).toBe(
      "reading [##########--------------] 412/1000 MB 41%  380,112 records  20.6 MB/s  ETA 0:29",
    );
    // 100 MB in 10 s: 900 MB left at 10 MB/s = 90 s
    expect(progressLine({ read: 100e6, total: 1000e6, records: 1, seconds: 10 })).toMatch(/ ETA 1:30$/);
    // all read, or no total: no estimate
    expect(progressLine({ read: 1000e6, total: 1000e6, records: 1, seconds: 10 })).not.toContain("ETA");
    expect(progressLine({ read: 5e6, total: null, records: 7, seconds: 2 })).toBe("reading 5 MB  7 records  2.5 MB/s");
  });

  it("says the figures are being computed, and for how long", () => {
    expect(computingLine(0)).toBe("computing the figures  0:00");
    expect(computingLine(65.2)).toBe("computing the figures  1:06");
  });

  /** Runs report on a file with stderr a TTY or not; the clock moves 1 s each time it is read. */
  const dir = tempDir({ "many.jsonl": manyAttempts() });
  async function reportWith(tty: boolean) {
    let stdout = "";
    let stderr = "";
    let clock = 0;
    const code = await main(["report", "--json", join(dir, "many.jsonl")], {
      stdout: { write: (s: string) => (stdout += s), isTTY: false },
      stderr: { write: (s: string) => (stderr += s), isTTY: tty },
      stdin: Readable.from([]),
      env: { NO_COLOR: "1" },
      now: () => (clock += 1000),
    });
    return { code, stdout, stderr };
  }

  it("is drawn on stderr only when stderr is a TTY, and never on stdout", async () => {
    const tty = await reportWith(true);
    const pipe = await reportWith(false);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/\rreading \[#+-*\] \d+\/\d+ MB \d+%  [\d,]+ records  [\d.]+ MB\/s/);
    // then the computing line, from 0:00
    expect(tty.stderr).toContain("\rcomputing the figures  0:00");
    // cleared at the end
    expect(tty.stderr.endsWith("\r\u001b[K")).toBe(true);
    expect(pipe.stderr).toBe("");
    expect(JSON.parse(tty.stdout)).toEqual(JSON.parse(pipe.stdout));
  });
});
