/**
 * The DuckDB instance behind every command: in memory for small inputs, or
 * a `.duckdb` file: `--db`, or a temporary one for big inputs, removed at
 * close. A file-backed session gets a memory limit and a spill folder, so its
 * peak memory does not grow with the input. Time zone pinned to UTC (docs/metrics.md).
 *
 * An in-memory session is a database of its own attached to one instance the
 * process shares (Database.attach), not an instance of its own, unless it asks
 * for one (`own`: a session locked down, sandbox.ts).
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
  /**
   * In memory, an instance of this session's own instead of a database attached to
   * the process's shared one: for a session that will be locked down (sandbox.ts
   * lockDown changes settings of the whole instance, and for good)
   */
  own?: boolean;
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

/**
 * Why an in-memory session is a database attached to one instance the process
 * shares: making and destroying an instance, and touching its memory afresh, is
 * about a quarter of a small report's CPU in a process that runs many (the tests
 * run about 1,100 commands in-process: seed-100's `report --json` in one process,
 * 543-578 -> 393-429 ms of CPU; the suite 1,184 -> 1,050 s; docs/benchmarks.md). Each
 * session has its own catalog (`USE` on its connections), its own connections,
 * TEMP objects and session variables; what the sessions share are the
 * instance's settings: the threads (the figures do not depend on them) and
 * DISABLED_OPTIMIZERS, the same for every session. A session that locks itself
 * down opens an instance of its own (OpenOptions.own). Never destroyed: the
 * process's end frees it.
 */
let shared: Promise<DuckDBInstance> | null = null;
/** The attached databases made so far: each session's catalog is named `session_N`. */
let attachments = 0;
/** The detaching of the databases of closed sessions, awaited by the next open(). */
let detaching: Promise<void> = Promise.resolve();
/** In a process that ends with its command: the database of the session closed last, left attached. */
let leftAttached: string | null = null;

/** Settles when the database of every session closed so far is detached (the next open() awaits the same). */
export function detached(): Promise<void> {
  return detaching;
}

/** The process's shared in-memory instance, made on first use. */
function sharedInstance(): Promise<DuckDBInstance> {
  shared ??= DuckDBInstance.create(":memory:", { disabled_optimizers: DISABLED_OPTIMIZERS });
  return shared;
}

/**
 * Detaches the database `name` from the shared instance, after what is detaching
 * already, on a connection of its own (the session's are closed). An error leaves
 * the database attached: its memory is then freed at the process's end.
 */
function detach(name: string): void {
  detaching = detaching.then(async () => {
    const connection = await (await sharedInstance()).connect();
    try {
      await connection.run(`DETACH DATABASE IF EXISTS ${name}`);
    } catch {
      // still some connection's default catalog: it stays attached
    } finally {
      connection.closeSync();
    }
  });
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
    /** false for a further connection (connect()): closing it leaves the instance (and the session's database) open */
    private readonly ownsInstance = true,
    /** the session's catalog on the process's shared instance (`session_N`); null with an instance of its own */
    readonly attached: string | null = null,
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
    if (leftAttached) detach(leftAttached);
    leftAttached = null;
    const plain = !options.path && !options.temporary && !options.bounded && !options.readOnly && !options.threads && !options.own;
    if (ahead) {
      const opened = ahead;
      ahead = null;
      if (plain) return opened;
      void opened.then(
        (db) => db.close(),
        () => {},
      );
    }
    await detaching;
    if (plain) return Database.attach();
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

  /** An in-memory session: a new database attached to the process's shared instance, its connection's default catalog. */
  private static async attach(): Promise<Database> {
    const instance = await sharedInstance();
    const name = `session_${++attachments}`;
    const connection = await instance.connect();
    try {
      await connection.run(`ATTACH ':memory:' AS ${name}`);
      await connection.run(`USE ${name}`);
      await pinUtc(connection);
    } catch (e) {
      connection.closeSync();
      detach(name);
      throw e;
    }
    return new Database(instance, connection, null, null, true, name);
  }

  /**
   * A further connection to the same instance (with the same default catalog),
   * pinned to UTC: it sees the tables of every attached database, but has its
   * own session variables, TEMP objects and transaction, and its statements run
   * beside this one's (node-api runs each on a thread of libuv's pool). Close it
   * before this one.
   */
  async connect(): Promise<Database> {
    const connection = await this.instance.connect();
    try {
      if (this.attached) await connection.run(`USE ${this.attached}`);
      await pinUtc(connection);
    } catch (e) {
      connection.closeSync();
      throw e;
    }
    return new Database(this.instance, connection, this.path, null, false, this.attached);
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
   * database, spill files). An in-memory session's database is detached from
   * the shared instance (before the next open() goes on). In a process that ends
   * with its command (scratch.ts leaveTeardownToProcessEnd), what is in memory
   * is left to the process's end instead: the session's database stays attached,
   * or an instance of its own is kept, until the next open() or that end;
   * destroying an instance costs 20-25 ms of a small report's 0.8 s (DuckDB frees
   * every block, then hands its allocators' pages back to the system) on the
   * command's way out, where the process's end frees it at once; at most one
   * database or instance is so kept (docs/benchmarks.md).
   */
  close(): void {
    this.forget();
    this.connection.closeSync();
    if (!this.ownsInstance) return;
    if (this.attached) {
      // the shared instance stays; the session's database goes, or is left to the process's end
      if (teardownLeftToProcessEnd()) leftAttached = this.attached;
      else detach(this.attached);
      return;
    }
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
