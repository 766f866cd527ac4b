/**
 * `denom query --db FILE "SQL"`: read-only SQL over the stored tables and
 * today's views, printed as a table, JSON or CSV; `--schema` lists them.
 */
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { relationsRead } from "../src/db/sandbox.js";
import { denom, jsonl, tempDir } from "./helpers.js";

/** 3 tasks: a1 succeeds; a2 times out, then succeeds on retry; a3's message would run in a spreadsheet */
const RUNS = jsonl(
  { task_id: "a1", status: "success" },
  { task_id: "a2", attempt: 1, status: "timeout" },
  { task_id: "a2", attempt: 2, status: "success" },
  { task_id: "a3", status: "failure", error_message: "=1+1" },
);

let db: string;
beforeAll(async () => {
  const dir = tempDir({ "runs.jsonl": RUNS });
  db = join(dir, "runs.duckdb");
  const r = await denom(["ingest", join(dir, "runs.jsonl"), "--db", db]);
  expect(r.code, r.stderr).toBe(0);
});

describe("query --db", () => {
  it("prints rows as JSON objects, numbers as numbers", async () => {
    const r = await denom([
      "query",
      "--db",
      db,
      "--json",
      "SELECT basis, successes, count, rate FROM rate_grid WHERE denominator = 'total' ORDER BY basis_order",
    ]);
    expect(r.code, r.stderr).toBe(0);
    // first try: a1 only of 3 trials; final: a1 and a2 of 3
    expect(r.json()).toEqual([
      { basis: "first", successes: 1, count: 3, rate: 1 / 3 },
      { basis: "final", successes: 2, count: 3, rate: 2 / 3 },
    ]);
  });

  it("prints a table with a header and the row count", async () => {
    const r = await denom(["query", "--db", db, "SELECT task_id, attempts, final_status FROM trials ORDER BY task_id"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.trim().split(/\s+/));
    expect(lines).toEqual([
      ["task_id", "attempts", "final_status"],
      ["a1", "1", "success"],
      ["a2", "2", "success"],
      ["a3", "1", "failure"],
      ["(3", "rows)"],
    ]);
  });

  it("prints CSV the way export writes it: formula cells neutralised unless --raw-csv", async () => {
    const sql = "SELECT task_id, error_message FROM attempts_classified WHERE task_id = 'a3'";
    const csv = await denom(["query", "--db", db, "--csv", sql]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(parse(csv.stdout, { columns: true })).toEqual([{ task_id: "a3", error_message: "'=1+1" }]);
    const raw = await denom(["query", "--db", db, "--csv", "--raw-csv", sql]);
    expect(parse(raw.stdout, { columns: true })).toEqual([{ task_id: "a3", error_message: "=1+1" }]);
  });

  it("applies the definition flags to the views", async () => {
    // --status-map timeout=failure: a2's first attempt, a timeout as written, reads as a failure
    const r = await denom(["query", "--db", db, "--json", "--status-map", "timeout=failure", "SELECT first_status FROM trials WHERE task_id = 'a2'"]);
    expect(r.json()).toEqual([{ first_status: "failure" }]);
  });

  it("refuses to write to the file", async () => {
    // a statement that writes is refused before it runs (usage error), whatever it targets
    const r = await denom(["query", "--db", db, "DELETE FROM attempts"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("read-only queries (SELECT, WITH, FROM, VALUES, TABLE, PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW), not DELETE");
    const create = await denom(["query", "--db", db, "CREATE TABLE x AS SELECT 1"]);
    expect(create.code).toBe(2);
    const count = await denom(["query", "--db", db, "--json", "SELECT count(*) AS n FROM attempts"]);
    expect(count.json()).toEqual([{ n: 4 }]);
  });

  it("refuses a statement that writes or does not parse before it opens --db", async () => {
    // no such file: were the file opened (and its views created) first, this would be the file's error
    const missing = join(tempDir(), "no-such.duckdb");
    const write = await denom(["query", "--db", missing, "COPY attempts TO 'x.csv'"]);
    expect(write.code).toBe(2);
    expect(write.stderr).toContain("not COPY");
    const syntax = await denom(["query", "--db", missing, "SELEC 1"]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/syntax error/i);
    // a read-only statement goes on to the file, which is missing
    const read = await denom(["query", "--db", missing, "SELECT 1"]);
    expect(read.stderr).toContain("no-such.duckdb");
    expect(read.stderr).not.toContain("not COPY");
  });

  it("names what is wrong with the SQL or the flags", async () => {
    const several = await denom(["query", "--db", db, "SELECT 1; SELECT 2"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("one statement");
    // SQL that cannot be right whatever the data: a usage error (exit 2), pointing at --schema
    const unknown = await denom(["query", "--db", db, "SELECT * FROM no_such_view"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no_such_view");
    expect(unknown.stderr).toContain("--schema");
    const column = await denom(["query", "--db", db, "SELECT no_such_column FROM attempts"]);
    expect(column.code).toBe(2);
    expect(column.stderr).toContain("no_such_column");
    const syntax = await denom(["query", "--db", db, "SELEC 1"]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/syntax error/i);
    // a statement that fails on the data is a data error (exit 1): no attempt's task id casts to an integer
    const cast = await denom(["query", "--db", db, "SELECT task_id::INTEGER FROM attempts"]);
    expect(cast.code).toBe(1);
    expect((await denom(["query", "SELECT 1"])).code).toBe(2); // --db missing
    expect((await denom(["query", "--db", db, "--json", "--csv", "SELECT 1"])).code).toBe(2);
  });

  it("SHOW TABLES lists each table and view once, the relations --schema lists, by name", async () => {
    const schema = (await denom(["query", "--db", db, "--schema", "--json"])).json() as { name: string }[];
    const names = schema.map((x) => x.name).sort();
    const json = await denom(["query", "--db", db, "--json", "SHOW TABLES"]);
    expect(json.code, json.stderr).toBe(0);
    // before: trials three times (the view in memory, its copy and a table in the file)
    expect((json.json() as { name: string }[]).map((x) => x.name)).toEqual(names);
    const csv = await denom(["query", "--db", db, "--csv", "SHOW TABLES"]);
    expect(csv.stdout).toBe(`name\r\n${names.join("\r\n")}\r\n`);
    const text = await denom(["query", "--db", db, "SHOW TABLES"]);
    expect(text.stdout.split("\n").filter((l) => l.trim() === "trials")).toHaveLength(1);
    expect(text.stdout).toContain(`(${names.length} rows)`);
  });

  it("lists the tables and views with their columns", async () => {
    const r = await denom(["query", "--db", db, "--schema", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const relations = r.json() as { name: string; kind: string; columns: { name: string; type: string }[] }[];
    const byName = new Map(relations.map((x) => [x.name, x]));
    expect(byName.get("attempts")?.kind).toBe("table");
    expect(byName.get("trials")?.kind).toBe("view");
    expect(byName.get("rate_grid")?.columns).toContainEqual({ name: "rate", type: "DOUBLE" });
    expect(relations.filter((x) => x.name === "trials")).toHaveLength(1); // today's view shadows the stored copy
    const text = await denom(["query", "--schema"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("rate_grid (view");
  });
});

describe("query makes only the views its statement reads", () => {
  it("takes their names from DuckDB's parse; every view when the statement lists them or names one with its schema", async () => {
    const bare = await Database.open();
    try {
      expect(await relationsRead(bare, "SELECT * FROM rate_grid JOIN Trials USING (basis)")).toEqual(["rate_grid", "trials"]);
      expect(await relationsRead(bare, "DESCRIBE attempts")).toEqual(["attempts"]);
      expect(await relationsRead(bare, 'WITH t AS (FROM "TRIALS") FROM t')).toEqual(["trials", "t"]);
      expect(await relationsRead(bare, "SELECT 1 + 1")).toEqual([]);
      for (const sql of ["SHOW TABLES", "SHOW ALL TABLES", "DESCRIBE", "FROM memory.main.rate_grid", "FROM main.trials"])
        expect(await relationsRead(bare, sql), sql).toBeNull();
    } finally {
      bare.close();
    }
  });

  it.each(["rate_grid", "trials", "attempts_classified", "attempt_timeout_cause"])(
    "%s: the same rows as when every view is made first (a name with its schema makes them all)",
    async (name) => {
      const named = await denom(["query", "--db", db, "--json", `FROM ${name} ORDER BY ALL`]);
      const all = await denom(["query", "--db", db, "--json", `FROM memory.main.${name} ORDER BY ALL`]);
      expect(named.code, named.stderr).toBe(0);
      expect(named.json().length).toBeGreaterThan(0);
      expect(named.stdout).toBe(all.stdout);
    },
  );
});
