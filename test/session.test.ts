/**
 * The session's relations on two connections at once (src/db/session.ts): a session of inputs read into memory creates them in the main
 * catalog on a second connection too, with the same figures as on one
 * connection (TEMP objects, one transaction); a failing file is named, and
 * nothing is left running when need() throws.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readReport } from "../src/commands/report.js";
import { Database } from "../src/db/database.js";
import { queryCatalog } from "../src/db/queries.js";
import { COPY_WHEN_FEW_MAX_ROWS, createTables, DEFAULT_DEFINITIONS, openSession, Session } from "../src/db/session.js";
import { DataError } from "../src/errors.js";
import type { Expectation, Thresholds } from "../src/definitions.js";
import { openRuns } from "../src/ingest/runs.js";
import { ROOT, tempDir } from "./helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");

/**
 * The relations of the session in its main catalog and among its TEMP objects (not
 * another session's: in memory, each is a catalog of the process's shared instance).
 */
async function placed(session: Session, name: string): Promise<{ main: number; temp: number }> {
  const row = await session.db.one(
    `SELECT count(*) FILTER (WHERE NOT temporary) AS main, count(*) FILTER (WHERE temporary) AS temp
     FROM (SELECT database_name, table_name AS name, temporary FROM duckdb_tables() UNION ALL SELECT database_name, view_name, temporary FROM duckdb_views())
     WHERE name = $name AND database_name IN (current_database(), 'temp')`,
    { name },
  );
  return { main: Number(row?.main), temp: Number(row?.temp) };
}

describe("a session's relations", () => {
  it.skipIf(availableParallelism() < 2)(
    "are created on two connections in the main catalog, with the report of one connection's TEMP objects, under definitions that are not the defaults",
    async () => {
      // every session variable set to something of its own: a relation created on a connection
      // without them (getvariable() NULL) would change a figure
      const thresholds: Thresholds = { queueShare: 0.5, loopMin: 3, sluggishRatio: 1.5 };
      const expectation = { tasks: ["t002", "zz-missing"], count: null, source: "expected.txt" };
      const definitions = { statusMap: { success: "failure" }, thresholds, expectation, by: "model" as const };
      const reports = [];
      for (const oneConnection of [true, false]) {
        const session = await openRuns({ inputs: [SEED], ...definitions, stdin: Readable.from([]), oneConnection });
        try {
          reports.push(await readReport(session, definitions));
          // trials is materialized; attempts_classified too, read through only on big inputs
          // (seed-100 holds few attempts: COPY_WHEN_FEW_MAX_ROWS)
          for (const name of ["trials", "attempts_classified"])
            expect(await placed(session, name), name).toEqual(oneConnection ? { main: 0, temp: 1 } : { main: 1, temp: 0 });
        } finally {
          session.close();
        }
      }
      expect(reports[1]).toEqual(reports[0]);
      // seed-100 holds 100 tasks, one trial each, and no task zz-missing: with success mapped
      // to failure no trial succeeds, and the expected task missing from the run enters total
      const final = reports[1].rates.find((c) => c.basis === "final" && c.denominator === "total");
      expect(final).toMatchObject({ successes: 0, count: 101 });
    },
  );

  it("copy a view read through on big inputs into a table when what it reads holds at most COPY_WHEN_FEW_MAX_ROWS rows, and not over a view", async () => {
    const kinds = async (session: Session) => {
      const own = "database_name IN (current_database(), 'temp')";
      const tables = new Set((await session.db.all(`SELECT table_name AS name FROM duckdb_tables() WHERE ${own}`)).map((t) => t.name));
      const views = new Set((await session.db.all(`SELECT view_name AS name FROM duckdb_views() WHERE NOT internal AND ${own}`)).map((v) => v.name));
      const kind: Record<string, string> = {};
      for (const name of [
        "stg_attempts",
        "attempts_classified",
        "trial_outcomes",
        "scoped_trial_outcomes",
        "rate_membership",
        "scoped_attempts",
        "trial_spend",
      ])
        kind[name] = tables.has(name) ? "table" : views.has(name) ? "view" : "absent";
      return kind;
    };
    const all = (kind: string) => ({ attempts: kind, trials: kind });
    const split = ({ attempts, trials }: { attempts: string; trials: string }) => ({
      stg_attempts: attempts,
      attempts_classified: attempts,
      trial_outcomes: trials,
      scoped_trial_outcomes: trials,
      rate_membership: trials,
      scoped_attempts: trials,
      // a trial's spend is summed from its attempts alone (marts/efficiency/trial_spend.sql)
      trial_spend: attempts,
    });
    const report = async (inputs: string[], expectation: Expectation | null) => {
      const session = await openRuns({ inputs, ...DEFAULT_DEFINITIONS, expectation, stdin: Readable.from([]) });
      try {
        const final = (await readReport(session, DEFAULT_DEFINITIONS)).rates.find((c) => c.basis === "final" && c.denominator === "total");
        return { final: { successes: final?.successes, count: final?.count }, kinds: await kinds(session) };
      } finally {
        session.close();
      }
    };
    // seed-100: 130 attempts, 100 tasks of one run, 82 of them a success at the last attempt
    expect(await report([SEED], null)).toEqual({ final: { successes: 82, count: 100 }, kinds: split(all("table")) });
    // the same with 30,000 tasks owed: 29,900 missing trials, so the trials' views stay views
    expect(await report([SEED], { tasks: null, count: 30_000, source: "--expect-count 30000", duplicates: 0 })).toEqual({
      final: { successes: 82, count: 30_000 },
      kinds: split({ attempts: "table", trials: "view" }),
    });
    // tasks t0, t1, ...: one attempt each, the even ones succeed
    const file = join(tempDir(), "runs.jsonl");
    const write = (n: number) =>
      writeFileSync(
        file,
        `${Array.from({ length: n }, (_, i) => JSON.stringify({ task_id: `t${i}`, attempt: 1, status: i % 2 ? "failure" : "success" })).join("\n")}\n`,
      );
    // 20,000 attempts and trials: copied; trial_outcomes holds 40,000 rows (two bases), so its readers stay views
    write(COPY_WHEN_FEW_MAX_ROWS);
    expect(await report([file], null)).toEqual({
      final: { successes: 10_000, count: 20_000 },
      kinds: { ...split({ attempts: "table", trials: "view" }), trial_outcomes: "table" },
    });
    write(COPY_WHEN_FEW_MAX_ROWS + 1);
    expect(await report([file], null)).toEqual({ final: { successes: 10_001, count: 20_001 }, kinds: split(all("view")) });
  });

  it("are never reached when the inputs cannot be read: the load's error, the second connection closed with the instance", async () => {
    // the second connection is made while the inputs are read: the load fails first
    const load = async () => {
      throw new DataError("cannot read runs.jsonl");
    };
    await expect(openSession({ definitions: DEFAULT_DEFINITIONS, load })).rejects.toThrow(/^cannot read runs\.jsonl$/);
  });

  it("name the file whose statement failed, after the statements already running have ended, and start no more", async () => {
    // staging: a (fine); intermediate: slow (reads a; a cross join of 3 million rows), bad
    // (reads a; no such column), after_bad (reads bad, never started)
    const dir = tempDir();
    const file = (path: string, sql: string) => {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), sql);
    };
    file("staging/a.sql", "-- a: one row.\n-- Reads: nothing.\ncreate or replace view a as select 1 as x;\n");
    file("intermediate/slow.sql", "-- slow: a sum.\n-- Reads: a.\ncreate or replace view slow as select sum(i) as s from a, range(3000000) t(i);\n");
    file("intermediate/bad.sql", "-- bad: fails.\n-- Reads: a.\ncreate or replace view bad as select no_such_column from a;\n");
    file("intermediate/after_bad.sql", "-- after_bad: reads bad.\n-- Reads: bad.\ncreate or replace view after_bad as select * from bad;\n");
    const db = await Database.open();
    const helper = await db.connect();
    await createTables(db);
    const session = new Session(db, queryCatalog(dir), undefined, new Set(), [helper]);
    try {
      await expect(session.need(["slow", "after_bad"])).rejects.toThrow(/^queries\/intermediate\/bad\.sql: .*no_such_column/);
      // slow ran beside bad and ended before need() threw: its table is there, whole
      expect(await db.one("SELECT s FROM main.slow")).toEqual({ s: 4499998500000 });
      const tables = await db.all("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY table_name");
      expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["a", "slow"]));
      expect(tables.map((t) => t.table_name)).not.toContain("after_bad");
    } finally {
      session.close();
    }
  });
});
