/**
 * Loads `queries/*.sql` into a database: files in name order, each file in a
 * transaction, statement by statement; an error names the file and the statement.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DenomError } from "../errors.js";
import type { Database } from "./database.js";

/** The folder shipped beside dist/: <package>/queries. */
export const QUERIES_DIR = fileURLToPath(new URL("../../queries/", import.meta.url));

/** Lists the `NN_name.sql` files of a folder in the order they run. */
export function queryFiles(dir: string = QUERIES_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
}

/**
 * Runs every query file of `dir` against `db`.
 * Throws DenomError `queries/30_trials.sql (statement 2): Binder Error: ...` on the first failure.
 */
export async function loadQueries(db: Database, dir: string = QUERIES_DIR): Promise<void> {
  for (const file of queryFiles(dir)) {
    const sql = readFileSync(join(dir, file), "utf8");
    let extracted;
    try {
      extracted = await db.connection.extractStatements(sql);
    } catch (e) {
      throw new DenomError(`queries/${file}: ${(e as Error).message}`);
    }
    await db.run("BEGIN TRANSACTION");
    for (let i = 0; i < extracted.count; i++) {
      try {
        const prepared = await extracted.prepare(i);
        await prepared.run();
      } catch (e) {
        await db.run("ROLLBACK");
        throw new DenomError(`queries/${file} (statement ${i + 1}): ${(e as Error).message}`);
      }
    }
    await db.run("COMMIT");
  }
}

/**
 * The layers every figure is built on, in dependency order. Each is a view in
 * queries/; `freezeLayers` computes them once per session.
 */
export const FROZEN_LAYERS = [
  "stg_attempts",
  "attempt_timeout_cause",
  "attempt_faults",
  "trials",
  "trial_outcomes",
  // small, and read by several figures each (the grid, its intervals, the chain's steps)
  "rate_cells",
  "pass_at_k_by_task",
] as const;

/**
 * Computes the base layers once, after the data is loaded and the session's
 * definitions are set: each view is copied into a TEMP table of the same name.
 * DuckDB resolves names in the temp schema first, so every later query (and
 * every view built on these) reads the copy instead of recomputing the chain
 * from the attempts table. The definitions stay in queries/; only their
 * evaluation is shared. Layers in `stored` are skipped: readStoredLayers has
 * put them in place already.
 */
export async function freezeLayers(db: Database, stored: ReadonlySet<string> = new Set()): Promise<void> {
  for (const view of FROZEN_LAYERS) {
    if (!stored.has(view)) await db.run(`CREATE OR REPLACE TEMP TABLE ${view} AS SELECT * FROM main.${view}`);
  }
}

/**
 * Puts the layers named in `stored` in place from the attached `--db` file
 * (src/db/layer-cache.ts, usableLayers: evaluated by `ingest` under the same
 * definitions): each becomes a TEMP VIEW `<name>` over `stored.main.layer_<name>`,
 * no copy, shadowing the view of queries/ like freezeLayers' tables do. Called
 * before loadQueries, so that creating the views of queries/ binds against
 * these instead of expanding the whole chain down to the attempts.
 */
export async function readStoredLayers(db: Database, stored: ReadonlySet<string>): Promise<void> {
  for (const view of stored) await db.run(`CREATE OR REPLACE TEMP VIEW ${view} AS SELECT * FROM stored.main.layer_${view}`);
}
