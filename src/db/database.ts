/**
 * The DuckDB instance behind every command: in memory by default, or a
 * `.duckdb` file (`--db`). Time zone pinned to UTC (DESIGN section 6).
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { DataError } from "../errors.js";
import { cellConverter, type Row } from "./values.js";

/** Values bound to `$name` parameters of a query. */
export type Params = Record<string, string | number | boolean | null>;

export interface OpenOptions {
  /** a `.duckdb` file; in memory when absent */
  path?: string;
  readOnly?: boolean;
}

export class Database {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    readonly path: string | null,
  ) {}

  /** Opens (or creates) the database. Throws DataError when the file cannot be opened. */
  static async open(options: OpenOptions = {}): Promise<Database> {
    const config: Record<string, string> = {};
    if (options.readOnly) config.access_mode = "READ_ONLY";
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(options.path ?? ":memory:", config);
    } catch (e) {
      throw new DataError(`cannot open database ${options.path}: ${(e as Error).message}`);
    }
    const connection = await instance.connect();
    await pinUtc(connection);
    return new Database(instance, connection, options.path ?? null);
  }

  /** Runs a statement that returns no rows. */
  async run(sql: string, params?: Params): Promise<void> {
    await this.connection.run(sql, params as never);
  }

  /** Runs a query and returns its rows converted by the one conversion policy (values.ts). */
  async all(sql: string, params?: Params): Promise<Row[]> {
    const reader = await this.connection.runAndReadAll(sql, params as never);
    return reader.convertRowObjects(cellConverter) as Row[];
  }

  /** First row of a query, or null. */
  async one(sql: string, params?: Params): Promise<Row | null> {
    return (await this.all(sql, params))[0] ?? null;
  }

  /** Sets a session variable read by the views through `getvariable(name)`. */
  async setVariable(name: string, sqlLiteral: string): Promise<void> {
    await this.connection.run(`SET VARIABLE ${name} = ${sqlLiteral}`);
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/**
 * Pins the session to UTC. Setting TimeZone needs DuckDB's ICU extension; the
 * bundled build runs without it (and cannot autoload it offline), and without
 * ICU every TIMESTAMPTZ is already computed and shown in UTC. Either way the
 * session ends up in UTC; anything else is an error.
 */
async function pinUtc(connection: DuckDBConnection): Promise<void> {
  try {
    await connection.run("SET TimeZone = 'UTC'");
  } catch {
    const reader = await connection.runAndReadAll("SELECT current_setting('TimeZone') AS tz");
    const tz = String(reader.getRowObjects()[0]?.tz ?? "");
    if (!["UTC", "Etc/UTC", "GMT"].includes(tz)) throw new DataError(`DuckDB session time zone is ${tz}, not UTC, and cannot be set`);
  }
}

/** Quotes a string as a SQL literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
