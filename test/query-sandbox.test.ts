/**
 * Issue 16: `denom query` runs in a sandbox, and names built from a path are
 * quoted. The attacks are a table of statements with the refusal each gets:
 * exit 2, no file written, nothing read from outside, the --db file unchanged.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { leadingWords } from "../src/db/sandbox.js";
import { denom, denomIn, jsonl, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 240_000 });

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

const RUNS = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" }, { task_id: "c", status: "timeout" });

describe("leadingWords: a refused statement's name, for the message only (DuckDB's parse decides)", () => {
  it.each([
    ["COPY x TO 'y'", ["COPY", "X", "TO"]],
    ["/* /* */ SELECT */ COPY (SELECT 1) TO 'y'", ["COPY", "SELECT"]],
    ["-- SELECT\nATTACH 'x'", ["ATTACH"]],
    ["(( EXPLAIN ANALYZE COPY", ["EXPLAIN", "ANALYZE", "COPY"]],
  ] as const)("%s", (sql, words) => expect(leadingWords(sql, 3).slice(0, words.length)).toEqual(words));
});

describe("denom query: the attacks, each refused", () => {
  const dir = tempDir({ "run.jsonl": RUNS, "secret.txt": "top secret\n" });
  const db = join(dir, "runs.duckdb");
  const out = (name: string) => join(dir, name);
  /** [statement, what stderr says] - every one exits 2 and leaves the folder and the file as they were */
  const TABLE_FN = /not the table function/;
  const NOT_A_RELATION = /a query reads the stored tables and denom's views/;
  const ATTACKS: [string, RegExp][] = [
    // DuckDB nests block comments: a text scan that ends the comment at the first */ sees a SELECT
    [`/* /* */ SELECT */ COPY (SELECT 'x' AS x) TO '${db}' (FORMAT csv, USE_TMP_FILE false)`, /not COPY/],
    [`/* /* */ SELECT */ ATTACH '${out("other.duckdb")}' AS other`, /not ATTACH/],
    ["/* /* */ SELECT */ DETACH stored", /not DETACH/],
    ["/* /* */ SELECT */ CREATE MACRO m() AS 1", /not CREATE/],
    ["/* /* */ SELECT */ PRAGMA database_list", /not PRAGMA/],
    ["/* /* */ SELECT */ CALL pragma_version()", /not CALL/],
    ["/* /* */ SELECT */ CHECKPOINT", /not CHECKPOINT/],
    ["/* a */ /* /* b */ */ SELECT 1; COPY (SELECT 1) TO 'x.csv'", /expected one statement, got 2/],
    [" -- SELECT\nCOPY attempts TO 'x.csv'", /not COPY/],
    [`EXPLAIN ANALYZE COPY (SELECT * FROM attempts) TO '${db}'`, /not EXPLAIN ANALYZE COPY/],
    ["EXPLAIN SELECT count(*) FROM attempts", /not EXPLAIN/],
    [`COPY attempts TO '${out("x.csv")}'`, /not COPY/],
    [`COPY (SELECT 1) TO '${out("y.csv")}' (FORMAT csv)`, /not COPY/],
    [`EXPORT DATABASE '${out("exported")}'`, /not EXPORT/],
    ["SELECT * FROM read_text('/etc/passwd')", TABLE_FN],
    [`SELECT * FROM read_text('${out("secret.txt")}')`, TABLE_FN],
    ["SELECT * FROM read_blob('/etc/hostname')", TABLE_FN],
    ["SELECT * FROM read_csv('/etc/passwd')", TABLE_FN],
    ["SELECT * FROM glob('/*')", TABLE_FN],
    [`SELECT * FROM glob('${dir}/*')`, TABLE_FN],
    ["SELECT * FROM read_json_objects('/etc/hostname')", TABLE_FN],
    ["SELECT * FROM sniff_csv('/etc/passwd')", TABLE_FN],
    ["SELECT * FROM read_csv('https://example.com/runs.csv')", TABLE_FN],
    ["SELECT * FROM read_parquet('s3://bucket/runs.parquet')", TABLE_FN],
    ["SELECT 1 WHERE 1 IN (SELECT 1 FROM read_text('/etc/passwd'))", TABLE_FN],
    ["SELECT * FROM query('COPY (SELECT 1) TO ''q.csv''')", TABLE_FN],
    ["FROM checkpoint()", TABLE_FN],
    ["FROM duckdb_settings()", TABLE_FN],
    ["FROM duckdb_databases()", TABLE_FN],
    ["FROM duckdb_temporary_files()", TABLE_FN],
    ["FROM pragma_database_size()", TABLE_FN],
    ["SELECT current_setting('allowed_paths')", /not current_setting\(\)/],
    ["SELECT (SELECT current_setting('temp_directory')) AS t", /not current_setting\(\)/],
    ["SELECT getvariable('x')", /not getvariable\(\)/],
    ["SELECT setseed(0.5)", /not setseed\(\)/],
    ["SELECT * FROM duckdb_databases", NOT_A_RELATION],
    ["SELECT * FROM pg_catalog.pg_settings", NOT_A_RELATION],
    ["SELECT * FROM information_schema.tables", NOT_A_RELATION],
    ["FROM sqlite_master", NOT_A_RELATION],
    [`FROM '${join(dir, "run.jsonl")}'`, NOT_A_RELATION],
    ["FROM system.main.duckdb_settings", NOT_A_RELATION],
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
    ["CREATE MACRO m() AS 1", /not CREATE/],
    ["INSERT INTO attempts SELECT * FROM attempts", /not INSERT/],
    ["DELETE FROM attempts", /not DELETE/],
    ["WITH x AS (SELECT 1 AS a) INSERT INTO sources SELECT * FROM sources", /a WITH that is not a query/],
    ["SELECT 1; SELECT 2", /expected one statement, got 2/],
    ["PIVOT attempts ON raw_status USING count(*)", /expected one statement, got 2 .*PIVOT without IN/],
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

  it("keeps read-only queries working: PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW, FROM-first, WITH, generators", async () => {
    if (!existsSync(db)) expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    const json = async (sql: string) => {
      const r = await denom(["query", "--db", db, "--json", sql]);
      expect(r.code, `${sql}: ${r.stderr}`).toBe(0);
      return r.json();
    };
    // 3 attempts: a success, a failure, a timeout
    expect(await json("PIVOT (SELECT raw_status FROM attempts) ON raw_status IN ('failure', 'success', 'timeout') USING count(*)")).toEqual([
      { failure: 1, success: 1, timeout: 1 },
    ]);
    expect(await json("UNPIVOT (SELECT 1 AS x, 2 AS y) ON x, y INTO NAME k VALUE v ORDER BY k")).toEqual([
      { k: "x", v: 1 },
      { k: "y", v: 2 },
    ]);
    expect((await json("SUMMARIZE SELECT task_id FROM attempts")).map((r: { column_name: string }) => r.column_name)).toEqual(["task_id"]);
    expect((await json("DESCRIBE sources")).length).toBeGreaterThan(5);
    expect((await json("SHOW TABLES")).length).toBeGreaterThan(3);
    expect(await json("SELECT count(*) AS n FROM range(4) JOIN stored.main.attempts ON true")).toEqual([{ n: 12 }]);
    expect(await json('WITH "Runs" AS (SELECT 1 AS a) SELECT a FROM runs')).toEqual([{ a: 1 }]);
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
  const NAMES = [
    "runs-2025.duckdb",
    "full.duckdb",
    "my runs.duckdb",
    "x'y.duckdb",
    `x".main.sources; COPY (SELECT 42) TO 'pwned.csv'; SELECT 1 AS list FROM "x.duckdb`,
  ];

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
