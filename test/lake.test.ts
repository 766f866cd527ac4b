/**
 * `denom ingest INPUT... --lake DIR` and lake folders as inputs of the reading
 * commands (docs/lake.md): the hive layout and its escaping, a source stored
 * once (a re-ingest writes no file), a source visible only once its manifest
 * landed, several writers at once, a kill -9 midway, and the report over lakes
 * byte for byte the report over the raw inputs.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { LAKE_FILE, loadLakes, partitionPath, partitionValue, writeLake } from "../src/db/lake.js";
import { createTables } from "../src/db/schema.js";
import { ingest } from "../src/ingest/ingest.js";
import { cell, denom, hasShared, jsonl, REAL, ROOT, tempDir } from "./helpers.js";

const BIN = join(ROOT, "dist", "bin.js");

/** run r1 of model m1: 4 tasks, 3 successes and 1 failure */
const RUN_1 = jsonl(
  { run_id: "r1", model: "m1", task_id: "a1", status: "success" },
  { run_id: "r1", model: "m1", task_id: "a2", status: "success" },
  { run_id: "r1", model: "m1", task_id: "a3", status: "success" },
  { run_id: "r1", model: "m1", task_id: "a4", status: "failure" },
);
/** run r2 of model `org/m 2` (a slash and a space to escape): 2 tasks, 1 success, 1 failure */
const RUN_2 = jsonl({ run_id: "r2", model: "org/m 2", task_id: "b1", status: "success" }, { run_id: "r2", model: "org/m 2", task_id: "b2", status: "failure" });

function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Every file and folder under `dir`, relative, sorted, with each file's size and mtime: what a write would change. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const st = statSync(path);
      // a folder's mtime changes when a file is put in or taken out of it
      out.push(`${relative(dir, path)} ${st.isDirectory() ? "dir" : st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

/** The data files under `dir`'s table folders (not `_tmp/`), relative, sorted. */
function dataFiles(dir: string): string[] {
  return listing(dir)
    .map((l) => l.split(" ")[0])
    .filter((p) => p.endsWith(".parquet") && !p.startsWith("_tmp"))
    .sort();
}

/** The data files the manifests of `dir` name, sorted. */
function manifestFiles(dir: string): string[] {
  const files: string[] = [];
  for (const folder of ["_sources", "_skipped"]) {
    if (!existsSync(join(dir, folder))) continue;
    for (const name of readdirSync(join(dir, folder))) {
      const m = JSON.parse(readFileSync(join(dir, folder, name), "utf8")) as { files: Record<string, string[]> };
      files.push(...Object.values(m.files).flat());
    }
  }
  return files.sort();
}

/** A spawned `denom ARGS` (dist/bin.js), resolved when it exits. */
function spawnDenom(args: string[]): { child: ReturnType<typeof spawn>; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
  return { child, done };
}

/** Paths in the order a folder walk reads them: path segments compared one by one (the order a lake's sources are read in). */
function walkOrder(paths: string[]): string[] {
  return [...paths].sort((a, b) => {
    const x = a.split("/");
    const y = b.split("/");
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return x.length - y.length;
  });
}

describe("partition values", () => {
  it("escapes Hive's way: NULL and '' as the default partition, ASCII other than [A-Za-z0-9._-] as %XX, the rest as is", () => {
    expect(partitionValue(null)).toBe("__HIVE_DEFAULT_PARTITION__");
    expect(partitionValue("")).toBe("__HIVE_DEFAULT_PARTITION__");
    expect(partitionValue("gpt-4o_mini.2")).toBe("gpt-4o_mini.2");
    // / is 0x2F, space 0x20, % 0x25, = 0x3D, ~ 0x7E
    expect(partitionValue("org/m 2%=~")).toBe("org%2Fm%202%25%3D%7E");
    expect(partitionValue("..")).toBe("..");
    expect(partitionValue("modèle")).toBe("modèle");
    expect(partitionPath({ benchmark: "canonical", model: "a/b", run: null })).toBe("benchmark=canonical/model=a%2Fb/run=__HIVE_DEFAULT_PARTITION__");
  });

  it("cuts a long value to 100 escaped bytes, a ~ and 16 hex digits of its sha256", () => {
    const long = "x".repeat(200);
    expect(partitionValue(long)).toBe(`${"x".repeat(100)}~${sha256(long).slice(0, 16)}`);
    // never inside an escape: 33 slashes are 99 bytes escaped; the 34th escape would cross 100
    const slashes = "/".repeat(60);
    expect(partitionValue(slashes)).toBe(`${"%2F".repeat(33)}~${sha256(slashes).slice(0, 16)}`);
  });
});

describe("a small lake, worked by hand", () => {
  const inputs = tempDir({ "r1.jsonl": RUN_1, "r2.jsonl": RUN_2 });
  const r1 = join(inputs, "r1.jsonl");
  const r2 = join(inputs, "r2.jsonl");

  it("writes each source's rows under benchmark/model/run, keyed by its sha256, and reads them as the inputs", async () => {
    const lake = join(tempDir(), "lake");
    const first = await denom(["ingest", r1, r2, "--lake", lake]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`${lake}: added 2 sources (6 records, 0 rejected)`);
    expect(JSON.parse(readFileSync(join(lake, LAKE_FILE), "utf8"))).toEqual({ format: "denom-lake", version: 1 });
    expect(readdirSync(join(lake, "_sources")).sort()).toEqual([`${sha256(RUN_1)}.json`, `${sha256(RUN_2)}.json`].sort());
    const files = dataFiles(lake);
    expect(files.filter((f) => f.startsWith("attempts/"))).toEqual([
      expect.stringMatching(new RegExp(`^attempts/benchmark=canonical/model=m1/run=r1/${sha256(RUN_1)}\\.[0-9a-f]{16}\\.parquet$`)),
      expect.stringMatching(new RegExp(`^attempts/benchmark=canonical/model=org%2Fm%202/run=r2/${sha256(RUN_2)}\\.[0-9a-f]{16}\\.parquet$`)),
    ]);
    // every data file is named by a manifest, and nothing is left being written
    expect(files).toEqual(manifestFiles(lake));
    expect(readdirSync(join(lake, "_tmp"))).toEqual([]);

    const pooled = await denom(["report", "--json", "--pool", lake]);
    expect(pooled.code).toBe(0);
    // 3 + 1 successes of 4 + 2 trials
    expect(cell(pooled.json(), "final/total")).toMatchObject({ successes: 4, count: 6 });
    const raw = await denom(["report", "--json", "--pool", r1, r2]);
    expect(pooled.stdout).toBe(raw.stdout);

    const m1 = await denom(["report", "--json", lake, "--lake-filter", "model=m1"]);
    expect(cell(m1.json(), "final/total")).toMatchObject({ successes: 3, count: 4 });
    // the escaped value reads back as the model's own name
    const m2 = await denom(["report", "--json", lake, "--lake-filter", "model=org/m 2"]);
    expect(cell(m2.json(), "final/total")).toMatchObject({ successes: 1, count: 2 });
    const either = await denom(["report", "--json", "--pool", lake, "--lake-filter", "run=r1", "--lake-filter", "run=r2"]);
    expect(cell(either.json(), "final/total")).toMatchObject({ successes: 4, count: 6 });
    const none = await denom(["report", lake, "--lake-filter", "model=m1", "--lake-filter", "run=r2"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("--lake-filter: no source of");
  });

  it("loads every row in load order: a source of two runs between sources of one, its attempts interleaved", async () => {
    // runs rA and rB in turns: the source's attempts sit in two partition files (rA: c1 and c3, rB: c2)
    const MIXED = jsonl(
      { run_id: "rA", model: "m1", task_id: "c1", status: "success", events: [{ type: "llm_call" }, { type: "tool_call", name: "x" }] },
      { run_id: "rB", model: "m1", task_id: "c2", status: "failure", events: [{ type: "llm_call" }] },
      { run_id: "rA", model: "m1", task_id: "c3", status: "success", events: [{ type: "tool_call", name: "y" }] },
    );
    const dir = tempDir({ "1.jsonl": RUN_2, "2.jsonl": MIXED, "3.jsonl": RUN_1 });
    const lake = join(dir, "lake");
    expect((await denom(["ingest", ...["1", "2", "3"].map((n) => join(dir, `${n}.jsonl`)), "--lake", lake])).code).toBe(0);
    // small sources are read sorted together; from a given size each alone, one file as stored:
    // all three together, the first (2 attempts) before the other two alone, all three alone
    for (const aloneMinAttempts of [10_000, 3, 1]) {
      const db = await Database.open();
      try {
        await createTables(db);
        const loaded = await loadLakes(db, [lake], {}, undefined, aloneMinAttempts);
        expect(loaded).toEqual({ sources: 3, records: 9, rejected: 0, attempts: 9, broken: 0 });
        // as the three files are read: ids 1-2 of r2, 3-5 in the second file's line order, 6-9 of r1
        const attempts = await db.all("SELECT attempt_id, source_id, run_id, task_id FROM attempts ORDER BY rowid");
        expect(attempts.map((r) => `${r.attempt_id} ${r.source_id} ${r.run_id} ${r.task_id}`)).toEqual([
          "1 1 r2 b1",
          "2 1 r2 b2",
          "3 2 rA c1",
          "4 2 rB c2",
          "5 2 rA c3",
          "6 3 r1 a1",
          "7 3 r1 a2",
          "8 3 r1 a3",
          "9 3 r1 a4",
        ]);
        const events = await db.all("SELECT attempt_id, type, name FROM events ORDER BY rowid");
        expect(events.map((r) => `${r.attempt_id} ${r.type} ${r.name}`)).toEqual(["3 llm_call null", "3 tool_call x", "4 llm_call null", "5 tool_call y"]);
        const sources = await db.all("SELECT source_id, name FROM sources ORDER BY rowid");
        expect(sources.map((r) => `${r.source_id} ${String(r.name).split("/").pop()}`)).toEqual(["1 1.jsonl", "2 2.jsonl", "3 3.jsonl"]);
      } finally {
        db.close();
      }
    }
  });

  it("re-ingesting a source writes no file and says so", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, r2, "--lake", lake])).code).toBe(0);
    const before = listing(lake);
    const again = await denom(["ingest", r2, r1, "--lake", lake]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("added 0 sources");
    expect(again.stdout).toContain("skipped 2 sources already in the lake");
    expect(listing(lake)).toEqual(before);
    // a copy under another name is the same source
    const copy = join(tempDir({ "copy.jsonl": RUN_1 }), "copy.jsonl");
    const third = await denom(["ingest", copy, "--lake", lake]);
    expect(third.stdout).toContain(`${copy}  same as ${r1}`);
    expect(listing(lake)).toEqual(before);
  });

  it("takes only sources whose manifest landed; a later ingest writes the rest", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, r2, "--lake", lake])).code).toBe(0);
    // r2 as a kill before its commit leaves it: data files, no manifest
    rmSync(join(lake, "_sources", `${sha256(RUN_2)}.json`));
    const partial = await denom(["report", "--json", lake]);
    expect(cell(partial.json(), "final/total")).toMatchObject({ successes: 3, count: 4 });
    const again = await denom(["ingest", r1, r2, "--lake", lake]);
    expect(again.stdout).toContain(`${lake}: added 1 source (2 records, 0 rejected)`);
    const whole = await denom(["report", "--json", "--pool", lake]);
    expect(cell(whole.json(), "final/total")).toMatchObject({ successes: 4, count: 6 });
  });

  it("of two writers of one source at once, one commits and the other removes its files", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, "--lake", lake])).code).toBe(0);
    const open = async () => {
      const db = await Database.open();
      await createTables(db);
      await ingest(db, [r2], { stdin: Readable.from([]) });
      return db;
    };
    const [a, b] = await Promise.all([open(), open()]);
    try {
      // both find no manifest of r2, write its files, and link: one link fails
      const [wa, wb] = await Promise.all([writeLake(a, lake), writeLake(b, lake)]);
      expect([wa.written.length, wb.written.length].sort()).toEqual([0, 1]);
      expect([wa.present.length, wb.present.length].sort()).toEqual([0, 1]);
    } finally {
      a.close();
      b.close();
    }
    expect(readdirSync(join(lake, "_sources"))).toHaveLength(2);
    expect(dataFiles(lake)).toEqual(manifestFiles(lake));
  });

  it("refuses a lake of another version, and lakes mixed with other inputs", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, "--lake", lake])).code).toBe(0);
    const mixed = await denom(["report", lake, r2]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(`${r2}: not a lake folder, and ${lake} is one`);
    writeFileSync(join(lake, LAKE_FILE), JSON.stringify({ format: "denom-lake", version: 2 }));
    const read = await denom(["report", lake]);
    expect(read.code).toBe(1);
    expect(read.stderr).toContain("a denom lake of version 2, and this denom reads and writes version 1 only");
    const write = await denom(["ingest", r2, "--lake", lake]);
    expect(write.code).toBe(1);
    expect(existsSync(join(lake, "_sources", `${sha256(RUN_2)}.json`))).toBe(false);
    const notLake = tempDir({ "notes.txt": "x" });
    expect((await denom(["ingest", r1, "--lake", notLake])).stderr).toContain("a folder of other files (notes.txt), not a lake");
  });

  it("refuses a manifest whose attempt count is not a whole number: it numbers the attempts of every source after it", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, r2, "--lake", lake])).code).toBe(0);
    const manifest = join(lake, "_sources", `${sha256(RUN_1)}.json`);
    const m = JSON.parse(readFileSync(manifest, "utf8"));
    for (const attempts of ["4", 4.5, -1, null]) {
      writeFileSync(manifest, JSON.stringify({ ...m, attempts }));
      const read = await denom(["report", "--json", lake]);
      expect(read.code, String(attempts)).toBe(1);
      expect(read.stderr).toContain(`${manifest}: not a lake manifest (attempts is not a count)`);
    }
    // the count as written: read again
    writeFileSync(manifest, JSON.stringify(m));
    expect(cell((await denom(["report", "--json", "--pool", lake])).json(), "final/total")).toMatchObject({ successes: 4, count: 6 });
  });

  it("removes what a writer killed a day ago left in _tmp/, and nothing newer", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, "--lake", lake])).code).toBe(0);
    const stale = join(lake, "_tmp", "dead.0000000000000000");
    const fresh = join(lake, "_tmp", "live.0000000000000000");
    for (const d of [stale, fresh]) {
      mkdirSync(d);
      writeFileSync(join(d, "0.parquet"), "partial");
    }
    // 25 hours old; the limit is 24
    const old = new Date(Date.now() - 25 * 3600 * 1000);
    utimesSync(stale, old, old);
    expect((await denom(["ingest", r2, "--lake", lake])).code).toBe(0);
    expect(readdirSync(join(lake, "_tmp")).sort()).toEqual(["live.0000000000000000"]);
  });

  it("removes data files no manifest names once a day old (a writer killed before its commit), never a committed one", async () => {
    const lake = join(tempDir(), "lake");
    expect((await denom(["ingest", r1, "--lake", lake])).code).toBe(0);
    const committed = dataFiles(lake);
    const folder = join(lake, "attempts", "benchmark=canonical", "model=m9", "run=r9");
    mkdirSync(folder, { recursive: true });
    const dead = join(folder, `${"d".repeat(64)}.0000000000000000.parquet`);
    const live = join(folder, `${"e".repeat(64)}.0000000000000000.parquet`);
    for (const f of [dead, live]) writeFileSync(f, "placed, never committed");
    // 25 hours old, the committed files too; the limit is 24
    const old = new Date(Date.now() - 25 * 3600 * 1000);
    for (const f of [dead, ...committed.map((c) => join(lake, ...c.split("/")))]) utimesSync(f, old, old);
    expect((await denom(["ingest", r2, "--lake", lake])).code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    for (const c of committed) expect(existsSync(join(lake, ...c.split("/"))), c).toBe(true);
    // the figures of both runs: 3 + 1 successes of 4 + 2 trials
    expect(cell((await denom(["report", "--json", "--pool", lake])).json(), "final/total")).toMatchObject({ successes: 4, count: 6 });
  });

  it("is read by denom query --lake: several as their union, --lake-filter, --csv, in the sandbox", async () => {
    const a = join(tempDir(), "a");
    const b = join(tempDir(), "b");
    expect((await denom(["ingest", r1, "--lake", a])).code).toBe(0);
    expect((await denom(["ingest", r2, "--lake", b])).code).toBe(0);
    const query = async (args: string[]) => {
      const r = await denom(["query", "--json", ...args]);
      expect(r.code, r.stderr).toBe(0);
      // rows, not figures: no notice about the two models being two groups
      expect(r.stderr).toBe("");
      return r.json();
    };
    const perModel = "SELECT model, count(*) AS n, count(*) FILTER (raw_status = 'success') AS s FROM attempts GROUP BY ALL ORDER BY ALL";
    // r1: 3 of 4 succeed; r2: 1 of 2
    expect(await query(["--lake", a, "--lake", b, perModel])).toEqual([
      { model: "m1", n: 4, s: 3 },
      { model: "org/m 2", n: 2, s: 1 },
    ]);
    expect(await query(["--lake", a, "--lake", b, "--lake-filter", "model=org/m 2", perModel])).toEqual([{ model: "org/m 2", n: 2, s: 1 }]);
    // the views too: a trial's final status
    expect(await query(["--lake", a, "--lake", b, "SELECT task_id, final_status FROM trials ORDER BY task_id"])).toEqual([
      { task_id: "a1", final_status: "success" },
      { task_id: "a2", final_status: "success" },
      { task_id: "a3", final_status: "success" },
      { task_id: "a4", final_status: "failure" },
      { task_id: "b1", final_status: "success" },
      { task_id: "b2", final_status: "failure" },
    ]);
    // a statement that may read any view makes them all, over the lake's tables
    expect((await query(["--lake", a, "--lake", b, "SHOW TABLES"])).map((r: { name: string }) => r.name)).toContain("trials");
    expect(await query(["--lake", a, "--lake", b, "SELECT count(*) AS n FROM memory.main.trials"])).toEqual([{ n: 6 }]);
    const csv = await denom(["query", "--lake", b, "--csv", "SELECT task_id FROM attempts ORDER BY task_id"]);
    expect([csv.code, csv.stdout]).toEqual([0, "task_id\r\nb1\r\nb2\r\n"]);
    // the lake's own files are not readable from the query, nor any other
    const parquet = await denom(["query", "--lake", a, `SELECT count(*) FROM read_parquet('${a}/**/*.parquet')`]);
    expect([parquet.code, parquet.stderr]).toEqual([2, expect.stringContaining("not the table function read_parquet()")]);
    expect((await denom(["query", "--lake", r1, "SELECT 1"])).stderr).toContain(`--lake ${r1}: not a lake folder`);
    expect((await denom(["query", "--lake", join(a, "none"), "SELECT 1"])).code).toBe(1);
    expect((await denom(["query", "--lake", a, "--db", join(tempDir(), "x.duckdb"), "SELECT 1"])).code).toBe(2);
    expect((await denom(["query", "--lake-filter", "model=m1", "SELECT 1"])).code).toBe(2);
  });

  it("reads a source two lakes hold once, and says so; --lake-filter KEY= picks the sources with no value", async () => {
    const a = join(tempDir(), "a");
    const c = join(tempDir(), "c");
    const r3 = join(tempDir({ "r3.jsonl": jsonl({ run_id: "r3", task_id: "c1", status: "success" }) }), "r3.jsonl");
    expect((await denom(["ingest", r1, "--lake", a])).code).toBe(0);
    expect((await denom(["ingest", r1, r3, "--lake", c])).code).toBe(0);
    const both = await denom(["report", "--json", "--pool", a, c]);
    // r1 once (3 of 4) and r3 (1 of 1)
    expect(cell(both.json(), "final/total")).toMatchObject({ successes: 4, count: 5 });
    expect(both.stderr).toContain(`r1.jsonl (sha256 ${sha256(RUN_1).slice(0, 12)}) is in lakes ${a} and ${c}: read once, from ${a}`);
    const noModel = await denom(["query", "--json", "--lake", c, "--lake-filter", "model=", "SELECT task_id FROM attempts"]);
    expect(noModel.json()).toEqual([{ task_id: "c1" }]);
  });

  it("takes one of --db and --lake", async () => {
    expect((await denom(["ingest", r1])).code).toBe(2);
    expect((await denom(["ingest", r1, "--db", join(tempDir(), "x.duckdb"), "--lake", join(tempDir(), "l")])).code).toBe(2);
  });
});

/** The samples, and (with the shared data) a few real folders: side files, archives, several formats. */
const SAMPLES = readdirSync(join(ROOT, "samples"))
  .filter((n) => n.endsWith(".jsonl"))
  .map((n) => join(ROOT, "samples", n));
const REAL_FOLDERS = hasShared ? ["tau2-bench", "inspect-metr-hawk", "swebench-docker-golden-lite"].map((f) => join(REAL, f)) : [];

describe("two lakes written at once, a third process re-ingesting", () => {
  if (!hasShared) console.log("lake.test.ts: no shared data/real here; the union test reads the samples only");

  it("gives the report of the raw inputs, byte for byte", async () => {
    const root = tempDir();
    const [one, two] = [join(root, "one"), join(root, "two")];
    const inputs = [...SAMPLES, ...REAL_FOLDERS];
    const first = inputs.filter((_, i) => i % 2 === 0);
    const second = inputs.filter((_, i) => i % 2 === 1);
    const runs = [
      spawnDenom(["ingest", ...first, "--lake", one]),
      spawnDenom(["ingest", ...second, "--lake", two]),
      // the same sources as the first writer, into its lake, at the same time
      spawnDenom(["ingest", ...first.slice().reverse(), "--lake", one]),
    ];
    const ended = await Promise.all(runs.map((r) => r.done));
    for (const e of ended) expect(e, e.stderr).toMatchObject({ code: 0 });
    for (const lake of [one, two]) {
      // no source twice, no file of a writer that lost a commit
      expect(dataFiles(lake)).toEqual(manifestFiles(lake));
      expect(new Set(manifestFiles(lake).map((f) => f.split("/").pop()!.split(".")[0])).size).toBe(readdirSync(join(lake, "_sources")).length);
    }
    const raw = walkOrder(inputs);
    for (const args of [["report"], ["report", "--json"]]) {
      const fromRaw = await denom([...args, ...raw]);
      const fromLakes = await denom([...args, one, two]);
      expect(fromLakes.code).toBe(fromRaw.code);
      expect(fromLakes.stdout).toBe(fromRaw.stdout);
    }
  }, 180_000);
});

describe("a kill -9 midway", () => {
  it("leaves the lake readable, and the next ingest gives the figures of the inputs", async () => {
    const dir = tempDir();
    // 10 files of 3,000 generated attempts each: the writes of their sources take long enough to be cut
    const files: string[] = [];
    for (let i = 0; i < 10; i++) {
      const out = join(dir, `part-${String(i).padStart(2, "0")}.jsonl`);
      const gen = spawnSync(process.execPath, [join(ROOT, "bench", "reference", "gen_attempts.mjs"), "--lines", "3000", "--seed", String(7 + i), "--out", out]);
      expect(gen.status).toBe(0);
      files.push(out);
    }
    const lake = join(dir, "lake");
    const run = spawnDenom(["ingest", ...files, "--lake", lake]);
    const manifests = join(lake, "_sources");
    // killed once the first source is committed, while the others are being written
    for (let i = 0; i < 3000 && !(existsSync(manifests) && readdirSync(manifests).length > 0); i++) await new Promise((r) => setTimeout(r, 5));
    run.child.kill("SIGKILL");
    const ended = await run.done;
    const committed = readdirSync(manifests).length;
    expect(ended.code === null || committed === files.length).toBe(true);
    expect(committed).toBeGreaterThan(0);
    if (ended.code !== null) console.log("lake.test.ts: the ingest ended before the kill; the lake is whole");
    // exactly the committed sources, read as those files are
    const names = readdirSync(manifests).map((n) => (JSON.parse(readFileSync(join(manifests, n), "utf8")) as { name: string }).name);
    const partial = await denom(["report", "--json", lake]);
    expect(partial.code).toBe(0);
    expect(partial.json().meta.attempts).toBe(committed * 3000);
    expect(partial.stdout).toBe((await denom(["report", "--json", ...names.sort()])).stdout);
    const again = spawnDenom(["ingest", ...files, "--lake", lake]);
    expect((await again.done).code).toBe(0);
    expect(readdirSync(manifests)).toHaveLength(files.length);
    const fromLake = await denom(["report", lake]);
    const fromRaw = await denom(["report", ...files]);
    expect(fromLake.stdout).toBe(fromRaw.stdout);
  }, 180_000);
});
