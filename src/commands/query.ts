/**
 * `denom query --db FILE "SQL"`: one read-only SQL statement against the stored
 * tables and today's views (the file is attached READ_ONLY; a statement that
 * writes to it fails), and `--schema`: the tables and views with their columns.
 */
import { StatementType } from "@duckdb/node-api";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cellConverter, copyTo, type Cell, type CopiedColumn, type Database, type Session } from "../db/session.js";
import { DataError, UsageError, duckdbMessage } from "../errors.js";

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
    await checkOneStatement(db, sql);
    try {
      const reader = await db.connection.runAndReadAll(sql);
      const names = reader.columnNames();
      const types = reader.columnTypes();
      return { columns: names.map((name, i) => ({ name, type: String(types[i]) })), rows: reader.convertRows(cellConverter) as Cell[][] };
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
    await checkOneStatement(db, sql);
    const dir = mkdtempSync(join(tmpdir(), "denom-query-"));
    try {
      const path = join(dir, "result.csv");
      await copyTo(db, { select: sql.trim().replace(/;\s*$/, ""), path, format: "csv", neutraliseFormulas }).catch((e) => {
        throw queryError(e);
      });
      return readFileSync(path, "utf8");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/**
 * The tables and views a query can name: the stored tables, and the views (and
 * reference tables) of queries/ as created today, which shadow older copies
 * kept in the file. Tables first by name, then views in the order queries/ creates them.
 */
export async function readSchema(session: Session): Promise<Relation[]> {
  return withDatabase(session, async (db) => {
    const rows = await db.all(
      `WITH relations AS (
         SELECT database_name, table_name AS name, 'table' AS kind, table_oid AS oid
         FROM duckdb_tables() WHERE NOT internal AND NOT temporary
         UNION ALL
         SELECT database_name, view_name, 'view', view_oid
         FROM duckdb_views() WHERE NOT internal AND NOT temporary
       ),
       visible AS (
         SELECT * FROM relations
         WHERE database_name = 'memory' OR kind = 'table'
         QUALIFY row_number() OVER (PARTITION BY name ORDER BY database_name = 'memory' DESC) = 1
       )
       SELECT v.name, v.kind, list(struct_pack(name := c.column_name, type := c.data_type) ORDER BY c.column_index) AS columns
       FROM visible AS v
       JOIN duckdb_columns() AS c ON c.database_name = v.database_name AND c.schema_name = 'main' AND c.table_name = v.name
       GROUP BY v.name, v.kind, v.oid
       ORDER BY v.kind, CASE WHEN v.kind = 'table' THEN v.name END, v.oid`,
    );
    return rows as unknown as Relation[];
  });
}

async function withDatabase<T>(session: Session, work: (db: Database) => Promise<T>): Promise<T> {
  return work(session.db);
}

/** Statements that only read: a query (SHOW and DESCRIBE are queries too), EXPLAIN, CALL of a table function. */
const READING: ReadonlySet<StatementType> = new Set([StatementType.SELECT, StatementType.EXPLAIN, StatementType.CALL]);

/**
 * Checks that `sql` is one statement and only reads. Throws UsageError otherwise:
 * a write would go to the session's throwaway memory, or (COPY) to another file,
 * never to FILE, which is opened read-only.
 */
async function checkOneStatement(db: Database, sql: string): Promise<void> {
  let type: StatementType;
  try {
    const extracted = await db.connection.extractStatements(sql);
    if (extracted.count !== 1)
      throw new UsageError(`SQL: expected one statement, got ${extracted.count}; run them one by one (e.g. denom query --db runs.duckdb "SELECT * FROM rate_grid")`);
    type = (await extracted.prepare(0)).statementType;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw queryError(e);
  }
  if (!READING.has(type))
    throw new UsageError(`SQL: denom query runs read-only SQL (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN), not ${StatementType[type] ?? "this statement"}; denom ingest adds runs, denom export writes files`);
}

function queryError(e: unknown): DataError {
  // a COPY error arrives wrapped as "cannot write <temporary file>"; the statement is what failed
  const message = duckdbMessage((e as Error).cause ?? e);
  const hint = /read-only/i.test(message) ? " (denom query reads only; denom ingest adds runs)" : "";
  return new DataError(`query: ${message}${hint}`);
}
