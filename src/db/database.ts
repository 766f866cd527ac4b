/**
 * The DuckDB instance behind every command: in memory for small inputs, or
 * a `.duckdb` file: `--db`, or a temporary one for big inputs, removed at
 * close. A file-backed session gets a memory limit and a spill folder, so its
 * peak memory does not grow with the input. Time zone pinned to UTC (docs/metrics.md).
 */
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { DuckDBInstance } from "./duckdb.js";
import { DataError } from "../errors.js";
import { makeScratch, onEnd, removeScratch, teardownLeftToProcessEnd } from "../scratch.js";
import { cellConverter, type Row } from "./values.js";

/** Values bound to `$name` parameters of a query. */
export type Params = Record<string, string | number | boolean | null>;

export interface OpenOptions {
  /** a `.duckdb` file; in memory when absent */
  path?: string;
  readOnly?: boolean;
  /**
   * Keep the tables in a temporary `.duckdb` file (in a fresh folder under the
   * OS temp folder, removed by `close`) instead of memory; ignored with `path`.
   */
  temporary?: boolean;
  /** in memory, but with FILE_MEMORY_LIMIT and a spill folder (reading a kept `--db` file) */
  bounded?: boolean;
  /** DuckDB worker threads; its default (one per core) when absent */
  threads?: number;
}

/**
 * DuckDB's memory limits: data beyond them lives in the file or spills to the
 * session's temp folder. DuckDB's process holds about 300 MB more than its
 * limit at its peaks (Node's heap, about 50 MB once the input is read, and
 * allocations DuckDB does not count against the limit, e.g. a hash
 * aggregate's strings), so `report` on a big input stays under 1 GB of RSS in
 * all (TEMPORARY_MEMORY_LIMIT; 1 GB of JSONL: 758 MiB, where 1 GB of limit
 * gave 1,516 MiB, for about 12% more CPU: the materialized relations spill),
 * and a `--db` session (writing or reading a kept file) too (FILE_MEMORY_LIMIT).
 * Measured in docs/benchmarks.md.
 */
export const TEMPORARY_MEMORY_LIMIT = "400MB";
export const FILE_MEMORY_LIMIT = "600MB";

/**
 * DuckDB optimizers off in every session. `common_subplan` copies a part of a
 * plan that a statement reads more than once into a temporary result: on a big
 * input, where attempts_classified is read through rather than copied, that
 * part is every kept attempt's row (trials reads it three times), and the copy
 * spills past the memory limit: trials over 14 M attempts took 104.7 s with it,
 * 66.5 s without (docs/benchmarks.md). No figure depends on it: an optimizer
 * changes how a result is computed, not the result.
 */
export const DISABLED_OPTIMIZERS = "common_subplan";

/** The in-memory database Database.openAhead started, until an open() takes or closes it. */
let ahead: Promise<Database> | null = null;

/**
 * The in-memory instance closed last in a process that ends with its command
 * (scratch.ts leaveTeardownToProcessEnd): destroyed when the next database
 * opens, or freed by the process's end (Database.close).
 */
let retired: DuckDBInstance | null = null;

/** Destroys the instance kept by the last close (if any) and keeps `next` in its place. */
function retire(next: DuckDBInstance | null): void {
  retired?.closeSync();
  retired = next;
}

export class Database {
  /** unregisters the interrupt that stops this connection's statement on a signal (scratch.ts onEnd) */
  private readonly forget: () => void;

  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    readonly path: string | null,
    /** a folder this session created (temporary database, spill files), removed by close; null in memory */
    readonly scratch: string | null,
    /** false for a further connection (connect()): closing it leaves the instance open */
    private readonly ownsInstance = true,
  ) {
    // on SIGINT, SIGTERM or SIGHUP a running statement is interrupted, so the process can end at once
    this.forget = onEnd(() => this.connection.interrupt());
  }

  /**
   * Whether DuckDB holds this session's data under a memory limit and spills past it
   * (a file, or `bounded`; the connection open() made): TEMPORARY_MEMORY_LIMIT, FILE_MEMORY_LIMIT.
   */
  get memoryLimited(): boolean {
    return this.scratch !== null;
  }

  /**
   * Starts opening an in-memory database now (its instance is made on a thread
   * of libuv's pool while the caller goes on), for the next open() of one with
   * no other option, with `prepare` (e.g. the schema's tables) run on it first;
   * another open() closes it unused. For src/bin.ts, before the rest of denom loads.
   */
  static openAhead(prepare?: (db: Database) => Promise<void>): void {
    ahead ??= Database.open().then(async (db) => {
      try {
        await prepare?.(db);
      } catch (e) {
        db.close();
        throw e;
      }
      return db;
    });
    ahead.catch(() => {}); // open() rethrows it to the session that takes it
  }

  /**
   * Opens (or creates) the database: `path`, a temporary file (`temporary`),
   * or memory. Throws DataError when the file cannot be opened.
   */
  static async open(options: OpenOptions = {}): Promise<Database> {
    retire(null);
    if (ahead) {
      const opened = ahead;
      ahead = null;
      if (!options.path && !options.temporary && !options.bounded && !options.readOnly && !options.threads) return opened;
      void opened.then(
        (db) => db.close(),
        () => {},
      );
    }
    const config: Record<string, string> = { disabled_optimizers: DISABLED_OPTIMIZERS };
    if (options.readOnly) config.access_mode = "READ_ONLY";
    // removed by close, on SIGINT and SIGTERM, or by the next denom when this process is killed (scratch.ts)
    const scratch = options.path || options.temporary || options.bounded ? makeScratch() : null;
    const path = options.path ?? (options.temporary ? join(scratch!, "runs.duckdb") : ":memory:");
    if (options.threads) config.threads = String(options.threads);
    if (scratch) {
      config.memory_limit = options.temporary && !options.path ? TEMPORARY_MEMORY_LIMIT : FILE_MEMORY_LIMIT;
      config.temp_directory = scratch;
      // jemalloc's background threads hand freed memory back to the system as it goes; without
      // them DuckDB's process kept about 250 MB more at its peaks (1 GB of JSONL, same limit)
      config.allocator_background_threads = "true";
    }
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, config);
    } catch (e) {
      if (scratch) removeScratch(scratch);
      throw new DataError(`cannot open database ${options.path}: ${(e as Error).message}`);
    }
    const connection = await instance.connect();
    await pinUtc(connection);
    return new Database(instance, connection, options.path ?? null, scratch);
  }

  /**
   * A further connection to the same instance, pinned to UTC: it sees the
   * tables of every attached database, but has its own session variables,
   * TEMP objects and transaction, and its statements run beside this one's
   * (node-api runs each on a thread of libuv's pool). Close it before this one.
   */
  async connect(): Promise<Database> {
    const connection = await this.instance.connect();
    try {
      await pinUtc(connection);
    } catch (e) {
      connection.closeSync();
      throw e;
    }
    return new Database(this.instance, connection, this.path, null, false);
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

  /**
   * Runs a query and hands its rows to `visit` one data chunk at a time (at most
   * 2,048 rows, converted as all() converts them), in the query's order. Neither
   * DuckDB nor this process holds the whole result: for the selects whose rows
   * run into the millions (a lake's unpaired task names), where all() would hold
   * every row as an object at once.
   */
  async each(sql: string, params: Params | undefined, visit: (rows: Row[]) => void): Promise<void> {
    const result = await this.connection.stream(sql, params as never);
    const names = result.deduplicatedColumnNames();
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return;
      const rows: Row[] = [];
      for (let i = 0; i < chunk.rowCount; i++) {
        const row: Row = {};
        chunk.visitRowValues(i, (value, _, column, type) => (row[names[column]!] = cellConverter(value, type, cellConverter)));
        rows.push(row);
      }
      visit(rows);
    }
  }

  /** First row of a query, or null. */
  async one(sql: string, params?: Params): Promise<Row | null> {
    return (await this.all(sql, params))[0] ?? null;
  }

  /** Sets a session variable read by the views through `getvariable(name)`. */
  async setVariable(name: string, sqlLiteral: string): Promise<void> {
    await this.connection.run(`SET VARIABLE ${name} = ${sqlLiteral}`);
  }

  /**
   * Closes the session and removes what it created on disk (a temporary
   * database, spill files). In a process that ends with its command
   * (scratch.ts leaveTeardownToProcessEnd), an in-memory instance is not
   * destroyed but kept until the next open() or the process's end: destroying
   * it costs 20-25 ms of a small report's 0.8 s (DuckDB frees every block, then
   * hands its allocators' pages back to the system) on the command's way out,
   * where the process's end frees it at once; at most one instance is so kept
   * (docs/benchmarks.md).
   */
  close(): void {
    this.forget();
    this.connection.closeSync();
    if (!this.ownsInstance) return;
    // no scratch folder: in memory, nothing on disk to close or remove
    if (teardownLeftToProcessEnd() && this.scratch === null) retire(this.instance);
    else this.instance.closeSync();
    if (this.scratch) removeScratch(this.scratch);
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

/** Quotes a name as a SQL identifier: `runs-2025`, `full` (a keyword), `x'y` and `a"b` all stay one name. */
export function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a string as a SQL literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
