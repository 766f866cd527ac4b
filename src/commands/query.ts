/**
 * `denom query --db FILE "SQL"`: one read-only SQL statement against the stored
 * tables and today's views, and `--schema`: the tables and views with their
 * columns. The session is locked down (src/db/sandbox.ts): FILE attached
 * READ_ONLY, no other file, no network, no extension, its settings locked; and
 * a statement is judged from DuckDB's own parse before it runs (one query over
 * the stored tables and views), never by preparing it. A query makes only the
 * views it names (with what they read, each from the file's kept layer when
 * that is current); one that may read any (SHOW TABLES, a name with its schema)
 * makes them all first, as --schema does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Database,
  cellConverter,
  copyTo,
  isLockedDown,
  isShowTables,
  lockDown,
  refusal,
  relationsRead,
  type Cell,
  type CopiedColumn,
  type Session,
} from "../db/session.js";
import { DataError, DenomError, UsageError, duckdbMessage } from "../errors.js";

/** Rows of a query, as arrays in column order (a query may repeat a column name). */
export interface QueryRows {
  columns: CopiedColumn[];
  rows: Cell[][];
}

/** A table or view of the database, with its columns in order. */
export interface Relation {
  name: string;
  kind: "table" | "view";
  columns: { name: string; type: string }[];
}

/**
 * Runs one SQL statement and returns its rows (values converted by the one
 * policy of db/values.ts). Throws UsageError for no or several statements,
 * DataError when DuckDB rejects the statement (a write to the file included).
 */
export async function runQuery(session: Session, sql: string): Promise<QueryRows> {
  return withDatabase(session, async (db) => {
    await checkOneStatement(db, sql, await readable(session, sql));
    try {
      const reader = await db.connection.runAndReadAll(sql);
      const names = reader.columnNames();
      const types = reader.columnTypes();
      let rows = reader.convertRows(cellConverter) as Cell[][];
      // SHOW TABLES: each name once (sorted by name, so a repeat follows its first)
      if (await isShowTables(db, sql)) rows = rows.filter((row, i) => i === 0 || row[0] !== rows[i - 1][0]);
      return { columns: names.map((name, i) => ({ name, type: String(types[i]) })), rows };
    } catch (e) {
      throw queryError(e);
    }
  });
}

/**
 * Runs one SQL statement and returns its rows as CSV, written by the same
 * DuckDB COPY as `denom export` (formula-like text cells neutralised unless
 * `neutraliseFormulas` is false). Throws as runQuery does.
 */
export async function runQueryCsv(session: Session, sql: string, neutraliseFormulas: boolean): Promise<string> {
  return withDatabase(session, async (db) => {
    await checkOneStatement(db, sql, await readable(session, sql));
    // the session's own spill folder: the one place the locked session may write (removed at close)
    if (!db.scratch) throw new UsageError("--csv needs --db FILE: the rows are written in the session's own folder");
    const path = join(db.scratch, "result.csv");
    await copyTo(db, { select: sql.trim().replace(/;\s*$/, ""), path, format: "csv", neutraliseFormulas }).catch((e) => {
      throw queryError(e);
    });
    const csv = readFileSync(path, "utf8");
    if (!(await isShowTables(db, sql))) return csv;
    // SHOW TABLES: each name once, as runQuery lists them
    const lines = csv.split("\r\n");
    return lines.filter((line, i) => i === 0 || line !== lines[i - 1]).join("\r\n");
  });
}

/**
 * The tables and views a query can name: the stored tables, and the views (and
 * reference tables) of queries/ as created today, which shadow older copies
 * kept in the file. Tables first by name, then views in the order queries/ creates them.
 */
export async function readSchema(session: Session): Promise<Relation[]> {
  return withDatabase(session, async () => {
    const rows = await session.select("query/schema");
    return rows.map((r) => ({ ...r, kind: r.kind as Relation["kind"] }));
  });
}

/**
 * The same check as runQuery's, made before any session exists: on a bare
 * in-memory DuckDB (no file, no table, no view), so that SQL that is not one
 * read-only statement, or does not parse, is refused without first reading
 * --db and creating every view. Throws UsageError as checkOneStatement does;
 * names of tables and views are checked later, when the query runs.
 */
export async function precheckStatement(sql: string): Promise<void> {
  const bare = await Database.open({ own: true });
  try {
    await checkOneStatement(bare, sql);
  } finally {
    bare.close();
  }
}

/**
 * Makes the relations of queries/ that `sql` reads (sandbox.ts relationsRead;
 * every one, as views, when it may read any) and returns the names (lower case)
 * a query may read: the stored tables and every relation of queries/.
 */
async function readable(session: Session, sql: string): Promise<Set<string>> {
  const read = await relationsRead(session.db, sql);
  if (read === null) await session.createViews(false);
  else await session.need(read);
  const names = new Set((await session.select("query/schema")).map((r) => r.name.toLowerCase()));
  for (const name of session.relationNames()) names.add(name.toLowerCase());
  return names;
}

async function withDatabase<T>(session: Session, work: (db: Database) => Promise<T>): Promise<T> {
  // a --db session is locked down as it opens (stored.ts); any other is locked here, before user SQL
  if (!(await isLockedDown(session.db))) await lockDown(session.db);
  return work(session.db);
}

/**
 * Checks that `sql` is one read-only query (sandbox.ts `refusal`: from DuckDB's
 * own parse, never from its text and never by preparing it), reading only
 * `relations` when given. Throws UsageError otherwise, and when it does not parse.
 */
async function checkOneStatement(db: Database, sql: string, relations?: ReadonlySet<string>): Promise<void> {
  let refused: string | null;
  try {
    refused = await refusal(db, sql, relations);
  } catch (e) {
    throw queryError(e);
  }
  if (refused === null) return;
  const many = /^(\d+) statements$/.exec(refused);
  if (many)
    throw new UsageError(
      `SQL: expected one statement, got ${many[1]} (DuckDB's parser; a PIVOT without IN (...) values is two: list them); run them one by one (e.g. denom query --db runs.duckdb "SELECT * FROM rate_grid")`,
    );
  throw new UsageError(
    `SQL: denom query runs read-only queries (SELECT, WITH, FROM, VALUES, TABLE, PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW), not ${refused}; denom ingest adds runs, denom export writes files`,
  );
}

/**
 * What DuckDB's refusal of a statement says to the user: UsageError (exit 2)
 * when the SQL itself is wrong (it does not parse, or names a table, view,
 * column or function that does not exist) or the sandbox stopped it (a file, a
 * URL, an extension, a setting), which no data would make work; DataError
 * (exit 1) when it failed on the data (a cast of a value, a division, ...).
 */
function queryError(e: unknown): DenomError {
  // a COPY error arrives wrapped as "cannot write <temporary file>"; the statement is what failed
  const message = duckdbMessage((e as Error).cause ?? e);
  if (/Permission Error|disabled by configuration|configuration has been locked/i.test(message))
    return new UsageError(`query: ${message} (denom query reads the tables and views of --db only: no other file, no URL, no extension, no setting)`);
  const parser = /Parser Error: .*/.exec(message);
  if (parser) return new UsageError(`query: SQL: ${parser[0]}`);
  if (/^(?:Binder|Catalog) Error/i.test(message))
    return new UsageError(`query: ${message} (denom query --db FILE --schema lists the tables and views with their columns)`);
  const hint = /read-only/i.test(message) ? " (denom query reads only; denom ingest adds runs)" : "";
  return new DataError(`query: ${message}${hint}`);
}
