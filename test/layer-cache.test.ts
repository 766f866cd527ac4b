/**
 * The layers `denom ingest --db` keeps (src/db/layer-cache.ts): a reading
 * session with the default definitions takes them from the file and gives
 * exactly the report of the inputs; other definitions, a stale key or a file
 * without them compute as before; ingesting more sources refreshes them.
 *
 * samples/seed-100.jsonl (one run, no run_id): final/total 82/100,
 * first/attributable 70/90.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { keptRelations } from "../src/db/layer-cache.js";
import { queryCatalog } from "../src/db/queries.js";
import { cell, denom, jsonl, ROOT, tempDir } from "./helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");

/** 4 more tasks of the same (unnamed) run: 3 successes, 1 failure */
const MORE = jsonl(
  { task_id: "a1", status: "success" },
  { task_id: "a2", status: "success" },
  { task_id: "a3", status: "success" },
  { task_id: "a4", status: "failure" },
);

async function reportJson(args: string[]) {
  const r = await denom(["report", "--json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

/** Runs statements on the file directly, as a user editing it by hand would. */
async function edit(path: string, ...sql: string[]): Promise<void> {
  const db = await Database.open({ path });
  try {
    for (const s of sql) await db.run(s);
  } finally {
    db.close();
  }
}

/** The rows of `sql` run on the file, opened read-only. */
async function rowsOf(path: string, sql: string) {
  const db = await Database.open({ path, readOnly: true });
  try {
    return await db.all(sql);
  } finally {
    db.close();
  }
}

/** The tables of the file whose name starts with `layer_`, sorted. */
async function layerTables(path: string): Promise<string[]> {
  const rows = await rowsOf(path, "SELECT table_name FROM duckdb_tables() WHERE starts_with(table_name, 'layer_') ORDER BY table_name");
  return rows.map((r) => String(r.table_name));
}

/**
 * `denom ingest ...args` in a child of the built CLI (dist/) that kills itself
 * (SIGKILL: no rollback, no cleanup, as a kill -9 or a power cut) the moment it
 * is about to store layer `stopAt`: every layer before it is committed, the
 * statement for it never runs. Returns the signal that ended the child.
 */
function ingestKilledAt(stopAt: string, args: string[]): NodeJS.Signals | null {
  const script = `
    const [{ Database }, { main }] = await Promise.all([import(${JSON.stringify(join(ROOT, "dist", "db", "database.js"))}), import(${JSON.stringify(join(ROOT, "dist", "cli.js"))})]);
    const run = Database.prototype.run;
    Database.prototype.run = function (sql, params) {
      if (sql.startsWith(${JSON.stringify(`CREATE OR REPLACE TABLE layer_${stopAt} `)})) {
        process.kill(process.pid, "SIGKILL");
        return new Promise(() => {});
      }
      return run.call(this, sql, params);
    };
    process.exitCode = await main(${JSON.stringify(["ingest", ...args])}, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(r.status, r.stderr).toBeNull();
  return r.signal;
}

async function layerKey(path: string) {
  return rowsOf(path, "SELECT definitions, sources, computed_at::VARCHAR AS computed_at FROM layer_key");
}

/** seed-100 copied into a folder of its own and ingested once into a file every test starts from (beforeAll) */
let template: { seed: string; db: string };

/**
 * A fresh folder holding runs.duckdb: a byte copy of the file `denom ingest seed.jsonl
 * --db` wrote (closed, so checkpointed: the copy is that file), for the test to change.
 * `seed` is the one ingested, so the names in the file are those of the inputs reported.
 */
function seeded(files: Record<string, string> = {}) {
  const dir = tempDir(files);
  const db = join(dir, "runs.duckdb");
  copyFileSync(template.db, db);
  return { dir, seed: template.seed, db };
}

/** The report of the inputs themselves (never of a --db file), computed once per set of arguments. */
const inputReports = new Map<string, Promise<unknown>>();
function inputReport(args: string[]) {
  const key = JSON.stringify(args);
  if (!inputReports.has(key)) inputReports.set(key, reportJson(args));
  return inputReports.get(key)!;
}

describe("stored layers of ingest --db", () => {
  beforeAll(async () => {
    const dir = tempDir();
    template = { seed: join(dir, "seed.jsonl"), db: join(dir, "template.duckdb") };
    copyFileSync(SEED, template.seed);
    const r = await denom(["ingest", template.seed, "--db", template.db]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("are written with their key, and report --db over them equals the report of the input", async () => {
    const { seed, db } = seeded();
    expect(await layerKey(db)).toHaveLength(1);
    const stored = await reportJson(["--db", db]);
    expect(cell(stored, "final/total")).toMatchObject({ successes: 82, count: 100 });
    expect(cell(stored, "first/attributable")).toMatchObject({ successes: 70, count: 90 });
    expect(stored).toEqual(await inputReport([seed]));
  });

  it("serve --by and --expect-count (base layers read, the rest computed) with the figures of the input", async () => {
    const { seed, db } = seeded();
    expect(await reportJson(["--db", db, "--by", "agent"])).toEqual(await inputReport([seed, "--by", "agent"]));
    expect(await reportJson(["--db", db, "--expect-count", "120"])).toEqual(await inputReport([seed, "--expect-count", "120"]));
  });

  /** seed-100 ingested, with its stored evaluation tampered: a session that reads it shows 0 successes */
  async function tampered() {
    const s = seeded();
    await edit(
      s.db,
      "UPDATE layer_figure_intervals SET successes = 0, value = 0 WHERE figure = 'rate'",
      "UPDATE layer_trials SET first_status = 'failure', final_status = 'failure'",
    );
    return s;
  }

  it("are read when the key matches", async () => {
    const { db } = await tampered();
    expect(cell(await reportJson(["--db", db]), "final/total")).toMatchObject({ successes: 0, count: 100 });
    // --by recomputes trial_outcomes and the cells, but from the stored trials
    expect(cell(await reportJson(["--db", db, "--by", "agent"]), "final/total")).toMatchObject({ successes: 0, count: 100 });
  });

  // other thresholds or status pairs: computed from the attempts, as the inputs give it
  it.each([
    ["--queue-share", "0.5"],
    ["--sluggish-ratio", "1.5"],
    ["--status-map", "failure=invalid"],
  ])("are ignored under %s %s", async (...flags) => {
    const { seed, db } = await tampered();
    const stored = await reportJson(["--db", db, ...flags]);
    expect(stored).toEqual(await inputReport([seed, ...flags]));
    // the tampered layers say 0 successes; the attempts give the 82 final successes of seed-100
    if (flags[0] === "--status-map") expect(cell(stored, "final/valid")).toMatchObject({ successes: 82 });
  });

  it("are ignored under a stale key", async () => {
    const { seed, db } = await tampered();
    // a key computed under other queries (an older denom) is not used
    await edit(db, "UPDATE layer_key SET definitions = 'computed by another denom'");
    expect(await reportJson(["--db", db])).toEqual(await inputReport([seed]));
  });

  it("are not needed: a file without them (written before them) still reads", async () => {
    const { seed, db } = seeded();
    await edit(db, "DROP TABLE layer_key", ...keptRelations(queryCatalog()).map((l) => `DROP TABLE layer_${l}`));
    expect(await reportJson(["--db", db])).toEqual(await inputReport([seed]));
  });

  it("a file missing one layer table is computed, not half read", async () => {
    const { seed, db } = seeded();
    await edit(db, "UPDATE layer_figure_intervals SET successes = 0", "DROP TABLE layer_trials");
    expect(await reportJson(["--db", db])).toEqual(await inputReport([seed]));
  });

  it("are refreshed when a source is added, and left when nothing is", async () => {
    const { dir, seed, db } = seeded({ "more.jsonl": MORE });
    const before = await layerKey(db);
    // the same source again with --strict: nothing added, the layers stay as they were
    const again = await denom(["ingest", seed, "--db", db, "--strict", "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ added: [] });
    expect(await layerKey(db)).toEqual(before);

    const more = join(dir, "more.jsonl");
    expect((await denom(["ingest", more, "--db", db])).code).toBe(0);
    const after = await layerKey(db);
    expect(after[0].sources).not.toBe(before[0].sources);
    expect(after[0].definitions).toBe(before[0].definitions);
    const stored = await reportJson(["--db", db]);
    // 82/100 + 3/4 of the same run; first/attributable 70/90 + 3/4
    expect(cell(stored, "final/total")).toMatchObject({ successes: 85, count: 104 });
    expect(cell(stored, "first/attributable")).toMatchObject({ successes: 73, count: 94 });
    expect(stored).toEqual(await inputReport([seed, more]));
  });

  // The writing session commits the layers a few at a time (Session.createViews): the key is
  // dropped before the first and written with the last, so an ingest killed in between
  // leaves layers that no reader takes, however the file's key stood before.
  it("killed while storing them: no key is left beside the layers, report --db computes, the next ingest stores them", async () => {
    const { seed, db } = seeded();
    // the key matches (same sources, same queries) but one layer is missing: the ingest of
    // nothing new stores them all again; figure_intervals says 0 successes if ever read
    await edit(db, "UPDATE layer_figure_intervals SET successes = 0, value = 0 WHERE figure = 'rate'", "DROP TABLE layer_trials");
    expect(ingestKilledAt("rate_grid", [seed, "--db", db])).toBe("SIGKILL");
    // a key left beside these layers would have matched, and final/total read 0/100
    const stored = await reportJson(["--db", db]);
    expect(cell(stored, "final/total")).toMatchObject({ successes: 82, count: 100 });
    expect(cell(stored, "first/attributable")).toMatchObject({ successes: 70, count: 90 });
    expect(stored).toEqual(await inputReport([seed]));
    // killed midway: layer_trials stored again (and committed), layer_figure_intervals (after
    // rate_grid) as it was, with 0 successes in each of its 8 rate cells; no key
    const layers = await layerTables(db);
    expect(layers).toContain("layer_trials");
    expect(layers).not.toContain("layer_key");
    expect(await rowsOf(db, "SELECT count(*) AS cells, max(successes) AS most FROM layer_figure_intervals WHERE figure = 'rate'")).toEqual([
      { cells: 8, most: 0 },
    ]);

    // the next ingest, though it adds nothing, stores every layer and the key again
    const again = await denom(["ingest", seed, "--db", db, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ added: [] });
    expect(await layerKey(db)).toHaveLength(1);
    expect(await layerTables(db)).toEqual([...keptRelations(queryCatalog()).map((l) => `layer_${l}`), "layer_key"].sort());
    expect(await reportJson(["--db", db])).toEqual(await inputReport([seed]));
  });

  it("killed while storing them for a new source: the source stays added, report --db gives the figures of both inputs", async () => {
    const { dir, seed, db } = seeded({ "more.jsonl": MORE });
    const more = join(dir, "more.jsonl");
    expect(ingestKilledAt("figure_intervals", [more, "--db", db])).toBe("SIGKILL");
    expect(await layerTables(db)).not.toContain("layer_key");
    const stored = await reportJson(["--db", db]);
    // 82/100 + 3/4 of the same run; first/attributable 70/90 + 3/4
    expect(cell(stored, "final/total")).toMatchObject({ successes: 85, count: 104 });
    expect(cell(stored, "first/attributable")).toMatchObject({ successes: 73, count: 94 });
    expect(stored).toEqual(await inputReport([seed, more]));
    // more.jsonl is in the file: ingesting it again adds nothing, and stores the layers
    const again = await denom(["ingest", more, "--db", db, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ added: [] });
    expect(await layerKey(db)).toHaveLength(1);
    expect(await reportJson(["--db", db])).toEqual(stored);
  });

  it("a file ingested before the layers existed gets them on the next ingest, even one that adds nothing", async () => {
    const { seed, db } = seeded();
    await edit(db, "DROP TABLE layer_key");
    const r = await denom(["ingest", seed, "--db", db, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(await layerKey(db)).toHaveLength(1);
    expect(await reportJson(["--db", db])).toEqual(await inputReport([seed]));
  });
});
