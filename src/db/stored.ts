/**
 * A database file kept by `denom ingest --db FILE`. `ingest` opens it
 * read-write and adds runs; every other command attaches it READ_ONLY to an
 * in-memory session and creates today's views there, on top of the stored
 * tables. So reading never writes to the file (several readers may share it),
 * and a file written by an older denom is read with today's definitions.
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { DataError } from "../errors.js";
import { createTables, TABLES } from "./schema.js";
import { Database, sqlString } from "./database.js";
import { lockDown, type Writable } from "./sandbox.js";

/** The catalog name the file is attached under in a reading session. */
export const STORED = "stored";

/**
 * Opens FILE for reading: an in-memory session with FILE attached READ_ONLY
 * under the fixed name `stored` (never a name built from the path) and its
 * tables on the search path (views created afterwards land in memory), locked
 * down (sandbox.ts): no other file, no network, no extension, except the
 * session's spill folder and `writable` (an export being staged). Throws
 * DataError when FILE is missing, cannot be opened (locked by a writer, not a
 * DuckDB file) or was not written by `denom ingest`.
 */
export async function openStoredForReading(path: string, writable: Writable = {}): Promise<Database> {
  if (!existsSync(path)) throw new DataError(`--db ${path}: no such file; create it with denom ingest INPUT... --db ${path}`);
  checkDuckdbFile(path);
  // bounded: the figures of millions of attempts spill to disk instead of growing memory
  const db = await Database.open({ bounded: true });
  try {
    try {
      await db.run(`ATTACH ${sqlString(path)} AS ${STORED} (READ_ONLY)`);
    } catch (e) {
      throw new DataError(`cannot open database ${path}: ${(e as Error).message}`);
    }
    await db.run(`SET search_path = 'memory.main,${STORED}.main'`);
    // a file someone else wrote may hold views that read files or URLs: nothing outside runs
    await lockDown(db, writable);
    const stored = await storedColumns(db, STORED);
    const absent = checkTables(stored, path, "read");
    await createTables(db, absent);
    const late = new Map<string, string[]>();
    for (const [table, column, type, value] of lateColumnsMissing(stored))
      late.set(table, [...(late.get(table) ?? []), `${value ?? "NULL"}::${type} AS ${column}`]);
    const merged = mergedTablesPresent(stored);
    for (const table of new Set([...late.keys(), ...merged.map((m) => m.into)])) {
      const own = absent.includes(table) ? [] : [`SELECT *${late.has(table) ? `, ${late.get(table)!.join(", ")}` : ""} FROM ${STORED}.main.${table}`];
      const parts = [...own, ...merged.filter((m) => m.into === table).map((m) => `SELECT ${m.columns} FROM ${STORED}.main.${m.table}`)];
      // the file is read-only: a view of the same name, first on the search path, adds the
      // late columns (NULL or their value for older rows) and the rows of a table merged into it
      if (absent.includes(table)) await db.run(`DROP TABLE memory.main.${table}`);
      await db.run(`CREATE VIEW memory.main.${table} AS ${parts.join(" UNION ALL ")}`);
    }
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * Opens (or creates) FILE, with every table in place, to add runs to it.
 * Throws DataError when FILE cannot be opened or holds denom tables of another layout.
 */
export async function openStoredForWriting(path: string): Promise<Database> {
  if (existsSync(path)) checkDuckdbFile(path);
  const db = await Database.open({ path });
  try {
    const current = await db.one("SELECT current_database() AS name");
    const stored = await storedColumns(db, String(current?.name));
    // a table created here has every column: only the tables already in the file can lack a late one
    await createTables(db, checkTables(stored, path, "write"));
    for (const [table, column, type, value] of lateColumnsMissing(stored)) {
      await db.run(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
      if (value) await db.run(`UPDATE ${table} SET ${column} = ${value}`);
    }
    for (const m of mergedTablesPresent(stored)) {
      await db.run(`INSERT INTO ${m.into} SELECT ${m.columns} FROM ${m.table}`);
      await db.run(`DROP TABLE ${m.table}`);
    }
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * Refuses a file that is not a DuckDB database before DuckDB sees it: DuckDB
 * reads some other files (.jsonl, .csv, .parquet) as data sources and would
 * neither store runs in them nor say so. A DuckDB file carries "DUCK" at byte 8.
 */
function checkDuckdbFile(path: string): void {
  const head = Buffer.alloc(12);
  let read = 0;
  try {
    const fd = openSync(path, "r");
    try {
      read = readSync(fd, head, 0, 12, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new DataError(`--db ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (read === 0) throw new DataError(`--db ${path}: the file is empty, not a DuckDB database; remove it, or name a new file for denom ingest to create`);
  if (read < 12 || head.toString("latin1", 8, 12) !== "DUCK")
    throw new DataError(`--db ${path}: not a DuckDB database file; name a new file (e.g. runs.duckdb) for denom ingest, or one it wrote`);
}

/**
 * Columns added to a table after files were written with it: a file without
 * one is still read (the column is NULL, or `value` when given: what every row
 * written before meant) and, when written to, gains it.
 * [table, column, type, value?]; each must be its table's last columns, in order.
 */
type LateColumn = readonly [string, string, string, string?];
const LATE_COLUMNS: readonly LateColumn[] = [
  ["sources", "adapter", "VARCHAR"],
  // the waiting time and invocation of an attempt (schema.ts: after the attempts counts)
  ["attempts", "waiting_s", "DOUBLE"],
  ["attempts", "invocation", "VARCHAR"],
  ["skipped_files", "top_keys", "VARCHAR"],
  // the trials a run's metadata announces joined the trials a log owes; the rows before were a log's
  ["owed_trials", "trials", "BIGINT"],
  ["owed_trials", "promised_by", "VARCHAR", "'run_log'"],
];

/**
 * Tables of older files whose rows now live in another table: `table`'s rows
 * are `into`'s, as the SELECT list `columns` (in `into`'s column order) makes
 * them. Read through a view; moved into `into` (and `table` dropped) when the
 * file is written to.
 */
const MERGED_TABLES: readonly { table: string; into: string; columns: string }[] = [
  // announced_trials (run_id, task_id, trials): owed_trials promised by the run's metadata
  { table: "announced_trials", into: "owed_trials", columns: "source_id, run_id, task_id, NULL::INTEGER AS trial, trials, 'run_metadata' AS promised_by" },
];

/** The MERGED_TABLES that the file holds. */
function mergedTablesPresent(stored: StoredColumns): (typeof MERGED_TABLES)[number][] {
  return MERGED_TABLES.filter((m) => stored.has(m.table));
}

/** The LATE_COLUMNS that the tables of the file lack (a table the file lacks altogether is created whole). */
function lateColumnsMissing(stored: StoredColumns): LateColumn[] {
  return LATE_COLUMNS.filter(([table, column]) => stored.has(table) && !stored.get(table)!.has(column));
}

/** The columns of each declared table (TABLES, and the MERGED_TABLES of older files) that `database` holds, by table; a table it lacks is absent. */
type StoredColumns = Map<string, Set<string>>;

/**
 * One read of the catalog, for the declared tables only: duckdb_columns() is
 * filtered by name (joined with duckdb_tables() it costs several times more),
 * since a kept file holds a hundred views and layer tables besides them, none
 * named as a declared table.
 */
async function storedColumns(db: Database, database: string): Promise<StoredColumns> {
  const rows = await db.all(
    `SELECT table_name, list(column_name ORDER BY column_index) AS columns
     FROM duckdb_columns()
     WHERE database_name = $database AND schema_name = 'main' AND list_contains(from_json($tables, '["VARCHAR"]'), table_name)
     GROUP BY table_name`,
    { database, tables: JSON.stringify([...Object.keys(TABLES), ...MERGED_TABLES.map((m) => m.table)]) },
  );
  return new Map(rows.map((r) => [r.table_name as string, new Set(r.columns as string[])]));
}

/** Without these a file was not written by `denom ingest`. */
const REQUIRED_TABLES = ["sources", "attempts"];

/**
 * Checks that the tables the file holds (`stored`) have every column the loader declares
 * (TABLES), and returns the declared tables it lacks: writing creates them in
 * the file, reading creates them empty in memory (a table added to denom after
 * the file was written). Reading needs sources and attempts.
 */
function checkTables(stored: StoredColumns, path: string, mode: "read" | "write"): string[] {
  const absent: string[] = [];
  for (const [table, columns] of Object.entries(TABLES)) {
    const have = stored.get(table);
    if (!have) {
      if (mode === "read" && REQUIRED_TABLES.includes(table))
        throw new DataError(`--db ${path}: not a database written by denom ingest (no table ${table}); create one with denom ingest INPUT... --db FILE`);
      absent.push(table);
      continue;
    }
    const late = new Set(LATE_COLUMNS.filter(([t]) => t === table).map(([, column]) => column));
    const missing = columns.map((c) => c.name).filter((name) => !have.has(name) && !late.has(name));
    if (missing.length)
      throw new DataError(`--db ${path}: written by another version of denom (table ${table} lacks ${missing.join(", ")}); ingest the inputs into a new file`);
  }
  return absent;
}
