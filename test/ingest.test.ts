/**
 * `denom ingest --db` and `--db` on the reading commands: a source already in
 * the file is skipped and said, never counted twice; a new one changes the
 * figures as it should; `report --db` gives exactly the figures of `report` on
 * the original inputs and never writes to the file.
 */
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { cell, denom, denomBin, hasShared, jsonl, once, REAL, tempDir } from "./helpers.js";

/** run A: 4 tasks, 3 successes and 1 failure */
const RUN_A = jsonl(
  { task_id: "a1", status: "success" },
  { task_id: "a2", status: "success" },
  { task_id: "a3", status: "success" },
  { task_id: "a4", status: "failure" },
);
/** run B: 4 other tasks, 1 success, 2 failures, 1 infrastructure error (fault environment) */
const RUN_B = jsonl(
  { task_id: "b1", status: "success" },
  { task_id: "b2", status: "failure" },
  { task_id: "b3", status: "failure" },
  { task_id: "b4", status: "infra_error" },
);

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** run A's file, read by the tests below (never written to) */
const RUN_A_DIR = tempDir({ "a.jsonl": RUN_A });
const A = join(RUN_A_DIR, "a.jsonl");
let ingestedA: Promise<string> | undefined;

/**
 * `denom ingest A --db FILE` as the tests below start: run in the first test that
 * needs it, once per file, and each test then takes a byte copy of that file as
 * `dir/name` (a .duckdb file is self-contained: the copy is the file ingest writes).
 */
async function dbOfRunA(dir: string, name = "runs.duckdb"): Promise<string> {
  ingestedA ??= denom(["ingest", A, "--db", join(RUN_A_DIR, "runs.duckdb")]).then((r) => {
    expect(r.code, r.stderr).toBe(0);
    return join(RUN_A_DIR, "runs.duckdb");
  });
  const db = join(dir, name);
  copyFileSync(await ingestedA, db);
  return db;
}

async function reportJson(args: string[]) {
  const r = await denom(["report", "--json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

describe("ingest --db", () => {
  it("keeps the runs: report --db gives exactly the report of the inputs", async () => {
    const dir = tempDir({ "a.jsonl": RUN_A, "b.jsonl": RUN_B });
    const db = join(dir, "runs.duckdb");
    const r = await denom(["ingest", join(dir, "a.jsonl"), join(dir, "b.jsonl"), "--db", db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("added 2 sources");
    expect(await reportJson(["--db", db])).toEqual(await reportJson([join(dir, "a.jsonl"), join(dir, "b.jsonl")]));
  });

  it("skips a source already in the file and leaves every figure unchanged", async () => {
    const dir = tempDir();
    copyFileSync(A, join(dir, "a-copy.jsonl"));
    const db = await dbOfRunA(dir); // A ingested
    const before = await reportJson(["--db", db]);
    // run A alone: final/total 3/4
    expect(cell(before, "final/total")).toMatchObject({ successes: 3, count: 4 });

    const again = await denom(["ingest", A, join(dir, "a-copy.jsonl"), "--db", db, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    const data = again.json();
    expect(data.added).toEqual([]);
    expect(data.skipped).toEqual([
      { name: A, sha256: sha256(A), same_as: A },
      { name: join(dir, "a-copy.jsonl"), sha256: sha256(A), same_as: A },
    ]);
    expect(data.database).toEqual({ sources: 1, records: 4, attempts: 4 });
    expect(await reportJson(["--db", db])).toEqual(before);

    const text = await denom(["ingest", A, "--db", db]);
    expect(text.stdout).toContain(`skipped 1 source already in the database`);
    expect(text.stdout).toContain(`${A}  same as ${A}`);

    // the same bytes on stdin are known only once read: read, then left out
    const piped = await denom(["ingest", "-", "--db", db, "--json"], RUN_A);
    expect(piped.json().skipped).toEqual([{ name: "-", sha256: sha256(A), same_as: A }]);
    expect(await reportJson(["--db", db])).toEqual(before);
  });

  it("recognises a file loaded before by its hash, without parsing it again", async () => {
    const dir = tempDir({ "bad.jsonl": '{"task_id": "x", "status": "success"}\nnot json\n' });
    const db = join(dir, "runs.duckdb");
    const first = await denom(["ingest", join(dir, "bad.jsonl"), "--db", db]);
    expect(first.stderr).toContain("bad.jsonl:2"); // the reject, printed while parsing
    const again = await denom(["ingest", join(dir, "bad.jsonl"), "--db", db]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(""); // not parsed: no reject printed again
    expect(again.stdout).toContain("skipped 1 source");
  });

  it("adds a second file and the figures change as expected", async () => {
    const dir = tempDir({ "b.jsonl": RUN_B });
    const db = await dbOfRunA(dir); // A ingested
    const r = await denom(["ingest", A, join(dir, "b.jsonl"), "--db", db, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().added.map((s: { name: string }) => s.name)).toEqual([join(dir, "b.jsonl")]);
    const out = await reportJson(["--db", db]);
    // A + B: 8 trials, 3 + 1 = 4 successes; B's infra_error is fault environment
    expect(cell(out, "final/total")).toMatchObject({ successes: 4, count: 8, rate: 0.5 });
    expect(cell(out, "final/valid")).toMatchObject({ successes: 4, count: 8 });
    expect(cell(out, "final/attributable")).toMatchObject({ successes: 4, count: 7 });
    expect(out.meta.sources.map((s: { name: string }) => s.name)).toEqual([A, join(dir, "b.jsonl")]);
    // ids stay dense after a skipped source: export from the file equals export from the inputs
    const fromDb = join(dir, "db.csv");
    const fromInputs = join(dir, "inputs.csv");
    expect((await denom(["export", "--db", db, "--out", fromDb, "--what", "attempts"])).code).toBe(0);
    expect((await denom(["export", A, join(dir, "b.jsonl"), "--out", fromInputs, "--what", "attempts"])).code).toBe(0);
    expect(readFileSync(fromDb, "utf8")).toBe(readFileSync(fromInputs, "utf8"));
  });

  it("skips archive members already in the file, and lists a skipped side file once", async () => {
    const dir = tempDir({ "runs.tar.gz": await tarGz({ "run/results.jsonl": RUN_A, "run/README.md": "# notes\n" }) });
    const archive = join(dir, "runs.tar.gz");
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", archive, "--db", db])).code).toBe(0);
    const again = await denom(["ingest", archive, "--db", db, "--json"]);
    expect(again.json().skipped).toEqual([expect.objectContaining({ name: `${archive}!run/results.jsonl` })]);
    const out = await reportJson(["--db", db]);
    expect(out.meta.skipped_files).toEqual([
      {
        name: `${archive}!run/README.md`,
        reason: "not a record file (names ending .jsonl, .ndjson, .json, .traj, .eval, .gz, .tgz, .tar are read)",
        top_keys: null,
      },
    ]);
    expect(out).toEqual(await reportJson([archive]));
  });

  it("never writes to the file when reading it", async () => {
    const dir = tempDir();
    const db = await dbOfRunA(dir); // A ingested
    const files = readdirSync(dir).sort();
    const hash = sha256(db);
    expect((await denom(["report", "--db", db, "--status-map", "failure=invalid"])).code).toBe(0);
    expect((await denom(["export", "--db", db, "--out", join(dir, "t.csv")])).code).toBe(0);
    expect((await denom(["query", "--db", db, "SELECT count(*) FROM trials"])).code).toBe(0);
    expect(sha256(db)).toBe(hash);
    expect(readdirSync(dir).filter((f) => f.startsWith("runs.duckdb"))).toEqual(files.filter((f) => f.startsWith("runs.duckdb")));
  });

  it("with --strict adds nothing when a line is rejected", async () => {
    const dir = tempDir({ "bad.jsonl": '{"task_id": "x", "status": "success"}\nnot json\n' });
    const db = await dbOfRunA(dir); // A ingested
    const r = await denom(["ingest", join(dir, "bad.jsonl"), "--db", db, "--strict", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("nothing was added");
    // run A only: 4 records, 4 attempts
    expect(r.json()).toMatchObject({ committed: false, added: [], rejected: 1, database: { sources: 1, records: 4, attempts: 4 } });
  });

  it("reports usage and data errors with the flag that fixes them", async () => {
    const dir = tempDir({ "a.jsonl": RUN_A, "not-a-db.duckdb": "hello\n" });
    const missing = await denom(["report", "--db", join(dir, "missing.duckdb")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("denom ingest");
    const both = await denom(["report", join(dir, "a.jsonl"), "--db", join(dir, "runs.duckdb")]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--db");
    const notDb = await denom(["report", "--db", join(dir, "not-a-db.duckdb")]);
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toContain("not a DuckDB database file");
    expect((await denom(["ingest", join(dir, "a.jsonl")])).code).toBe(2); // --db is required
  });

  it("reads a file written before a table was added, and refuses one whose table lacks a column", async () => {
    const dir = tempDir();
    const older = await dbOfRunA(dir, "older.duckdb"); // A ingested, twice
    const other = await dbOfRunA(dir, "other.duckdb");
    const edit = async (path: string, sql: string) => {
      const db = await Database.open({ path });
      await db.run(sql);
      db.close();
    };
    await edit(older, "DROP TABLE run_metadata");
    await edit(other, "ALTER TABLE attempts DROP COLUMN difficulty");
    const report = await denom(["report", "--db", older, "--json"]);
    expect(report.code, report.stderr).toBe(0);
    expect(cell(report.json(), "final/total")).toMatchObject({ successes: 3, count: 4 });
    const refused = await denom(["report", "--db", other]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("table attempts lacks difficulty");
  });

  it("works through the built CLI", () => {
    const dir = tempDir({ "a.jsonl": RUN_A });
    const db = join(dir, "runs.duckdb");
    const ingest = denomBin(["ingest", join(dir, "a.jsonl"), "--db", db]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const report = denomBin(["report", "--db", db, "--json"]);
    expect(report.code, report.stderr).toBe(0);
    expect(cell(report.json(), "first/total")).toMatchObject({ successes: 3, count: 4, rate: 0.75 });
    for (const command of ["ingest", "export", "query"]) expect(denomBin([command, "--help"]).stdout).toContain("Examples:");
  });
});

describe.skipIf(!hasShared)("ingest real terminal-bench runs in place", () => {
  if (!hasShared) console.log("skipping real-data ingest tests: ../shared/data/real is not beside the checkout");
  const TB = join(REAL, "terminal-bench-1");

  /** one run ingested, then the whole folder, into one file: run once, by the first test that asks */
  const ingested = once(async () => {
    const db = join(tempDir(), "tb.duckdb");
    const first = readdirSync(TB)
      .filter((n) => !n.endsWith(".md"))
      .sort()[0];
    const one = await denom(["ingest", join(TB, first), "--db", db, "--json"]);
    const all = await denom(["ingest", TB, "--db", db, "--json"]);
    return { db, one, all };
  });

  it("ingesting one run, then all, skips the known run", async () => {
    const { one, all } = await ingested();
    expect(one.code, one.stderr).toBe(0);
    expect(all.code, all.stderr).toBe(0);
    const skipped = all.json().skipped.map((s: { name: string }) => s.name);
    expect(skipped).toEqual(one.json().added.map((s: { name: string }) => s.name));
  }, 120_000);

  it("ingesting one run, then all, equals the report of the folder", async () => {
    const { db, all } = await ingested();
    expect(all.code, all.stderr).toBe(0);
    expect(await reportJson(["--db", db])).toEqual(await reportJson([TB]));
  }, 120_000);
});

/** A .tar.gz holding `files`, built in memory. */
async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}
