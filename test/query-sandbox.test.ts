/**
 * Issue 16: `denom query` runs in a sandbox, and names built from a path are
 * quoted. The attacks are a table of statements with the refusal each gets:
 * exit 2, no file written, nothing read from outside, the --db file unchanged.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { countStatements } from "../src/db/sandbox.js";
import { denom, denomIn, jsonl, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 240_000 });

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

const RUNS = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" }, { task_id: "c", status: "timeout" });

describe("countStatements: semicolons outside quotes and comments", () => {
  it.each([
    ["SELECT 1", 1],
    ["SELECT 1;", 1],
    ["SELECT 1; SELECT 2", 2],
    ["SELECT ';' AS s", 1],
    ['SELECT 1 AS ";"', 1],
    ["SELECT 1 -- ; COPY\n", 1],
    ["SELECT /* ; */ 1", 1],
    ["SELECT E'it\\'s;' AS s", 1],
    ["SELECT 'it''s;' AS s; COPY x TO 'y'", 2],
    ["SELECT $$;$$, $t$;$t$", 1],
    [" ; ;", 0],
  ] as const)("%s -> %i", (sql, n) => expect(countStatements(sql)).toBe(n));
});

describe("denom query: the attacks, each refused", () => {
  const dir = tempDir({ "run.jsonl": RUNS, "secret.txt": "top secret\n" });
  const db = join(dir, "runs.duckdb");
  const out = (name: string) => join(dir, name);
  /** [statement, what stderr says] - every one exits 2 and leaves the folder and the file as they were */
  const ATTACKS: [string, RegExp][] = [
    [`EXPLAIN ANALYZE COPY (SELECT * FROM attempts) TO '${db}'`, /not EXPLAIN ANALYZE COPY/],
    [`COPY attempts TO '${out("x.csv")}'`, /not COPY/],
    [`COPY (SELECT 1) TO '${out("y.csv")}' (FORMAT csv)`, /not COPY/],
    [`EXPORT DATABASE '${out("exported")}'`, /not EXPORT/],
    ["SELECT * FROM read_text('/etc/passwd')", /Permission Error: .*disabled by configuration/],
    [`SELECT * FROM read_text('${out("secret.txt")}')`, /Permission Error/],
    ["SELECT * FROM read_blob('/etc/hostname')", /Permission Error/],
    ["SELECT * FROM read_csv('/etc/passwd')", /Permission Error/],
    ["SELECT * FROM glob('/*')", /Permission Error/],
    [`SELECT * FROM glob('${dir}/*')`, /Permission Error/],
    ["SELECT * FROM read_json_objects('/etc/hostname')", /Permission Error/],
    ["SELECT * FROM sniff_csv('/etc/passwd')", /Permission Error/],
    ["SELECT * FROM read_csv('https://example.com/runs.csv')", /Permission Error/],
    ["SELECT * FROM read_parquet('s3://bucket/runs.parquet')", /Permission Error/],
    ["INSTALL httpfs", /not INSTALL/],
    ["LOAD httpfs", /not LOAD/],
    [`ATTACH '${out("other.duckdb")}' AS other`, /not ATTACH/],
    ["DETACH stored", /not DETACH/],
    ["SET enable_external_access = true", /not SET/],
    ["RESET lock_configuration", /not RESET/],
    ["PRAGMA database_list", /not PRAGMA/],
    ["CALL pragma_version()", /not CALL/],
    ["CHECKPOINT", /not CHECKPOINT/],
    ["CREATE TABLE memory.main.x AS SELECT 1", /not CREATE/],
    ["INSERT INTO attempts SELECT * FROM attempts", /not INSERT/],
    ["DELETE FROM attempts", /not DELETE/],
    ["WITH x AS (SELECT 1 AS a) INSERT INTO sources SELECT * FROM sources", /a WITH that is not a query/],
    ["SELECT 1; SELECT 2", /expected one statement, got 2/],
  ];

  it.each(ATTACKS)("%s", async (sql, says) => {
    if (!existsSync(db)) expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    const before = { files: readdirSync(dir).sort(), db: sha(db) };
    const r = await denom(["query", "--db", db, sql]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(says);
    expect(r.stderr).not.toContain("top secret");
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect({ files: readdirSync(dir).sort(), db: sha(db) }).toEqual(before);
  });

  it("keeps read-only queries working: PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW, EXPLAIN, FROM-first, WITH", async () => {
    if (!existsSync(db)) expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    const json = async (sql: string) => {
      const r = await denom(["query", "--db", db, "--json", sql]);
      expect(r.code, `${sql}: ${r.stderr}`).toBe(0);
      return r.json();
    };
    // 3 attempts: a success, a failure, a timeout
    expect(await json("PIVOT (SELECT raw_status FROM attempts) ON raw_status USING count(*)")).toEqual([{ failure: 1, success: 1, timeout: 1 }]);
    expect(await json("UNPIVOT (SELECT 1 AS x, 2 AS y) ON x, y INTO NAME k VALUE v ORDER BY k")).toEqual([{ k: "x", v: 1 }, { k: "y", v: 2 }]);
    expect((await json("SUMMARIZE SELECT task_id FROM attempts")).map((r: { column_name: string }) => r.column_name)).toEqual(["task_id"]);
    expect((await json("DESCRIBE sources")).length).toBeGreaterThan(5);
    expect((await json("SHOW TABLES")).length).toBeGreaterThan(3);
    expect((await json("EXPLAIN SELECT count(*) FROM attempts")).length).toBeGreaterThan(0);
    expect((await json("EXPLAIN ANALYZE SELECT count(*) FROM attempts")).length).toBeGreaterThan(0);
    expect(await json("FROM attempts SELECT task_id ORDER BY task_id")).toEqual([{ task_id: "a" }, { task_id: "b" }, { task_id: "c" }]);
    expect(await json("WITH t AS (SELECT task_id FROM attempts) SELECT count(*) AS n FROM t")).toEqual([{ n: 3 }]);
    // --csv is written by the locked session into its own spill folder
    const csv = await denom(["query", "--db", db, "--csv", "SELECT task_id FROM attempts ORDER BY task_id"]);
    expect(csv.stdout).toBe("task_id\r\na\r\nb\r\nc\r\n");
  });

  it("export --db writes its file through the locked session, and report --db reads", async () => {
    if (!existsSync(db)) expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    const csv = out("trials.csv");
    expect((await denom(["export", "--db", db, "--out", csv])).code).toBe(0);
    expect(readFileSync(csv, "utf8").split("\r\n").filter(Boolean)).toHaveLength(4); // header + 3 trials
    expect((await denom(["report", "--db", db, "--json"])).json().accounting.records).toBe(3);
  });
});

describe("--db file names are quoted wherever they become SQL", () => {
  // the crafted name tries to end the statement and COPY a file into the working folder
  const NAMES = ["runs-2025.duckdb", "full.duckdb", "my runs.duckdb", "x'y.duckdb", `x".main.sources; COPY (SELECT 42) TO 'pwned.csv'; SELECT 1 AS list FROM "x.duckdb`];

  it.each(NAMES)("ingest, report, query and export with --db %s", async (name) => {
    const dir = tempDir({ "run.jsonl": RUNS });
    const db = join(dir, name);
    // run in the temp folder as the working folder: a COPY to a relative path would land there
    const run = (args: string[]) => denomIn(dir, args);
    const ingest = await run(["ingest", "run.jsonl", "--db", name, "--json"]);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.json().added.map((a: { records: number }) => a.records)).toEqual([3]);
    // again: the known source is skipped, the stored layers' key is read back from the file
    const again = await run(["ingest", "run.jsonl", "--db", name, "--json"]);
    expect([again.code, again.json().skipped.length]).toEqual([0, 1]);
    const report = await run(["report", "--db", name, "--json"]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.json().accounting).toMatchObject({ lines: 3, records: 3 });
    const q = await run(["query", "--db", name, "--json", "SELECT count(*) AS n FROM attempts"]);
    expect([q.code, q.stdout.trim()]).toEqual([0, '[\n  {\n    "n": 3\n  }\n]']);
    expect((await run(["export", "--db", name, "--out", "trials.csv"])).code).toBe(0);
    expect(existsSync(join(dir, "pwned.csv"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual([name, "run.jsonl", "trials.csv", "trials.csv.meta.json"].sort());
    writeFileSync(join(dir, "done"), "");
    expect(existsSync(db)).toBe(true);
  });
});
