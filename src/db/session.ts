/**
 * One DuckDB session over the SQL of queries/: the one place that says in
 * which order a session comes to be (docs/architecture.md).
 *
 *   1. schema        the loaded tables (src/db/schema.ts): created, or checked in a kept file
 *   2. ingest        the caller's `load` step appends the inputs (src/ingest/)
 *   3. definitions   the session variables the SQL reads: status map, thresholds, --expect, --by
 *   4. relations     queries/ in layer order (src/db/queries.ts): reference, staging, intermediate
 *   5. materialized  each staging and intermediate relation, right after it is created, copied
 *                    into a TEMP table of its name, so that what follows binds against a table
 *                    instead of expanding the chain down to the attempts again (those read
 *                    through on big inputs only in memory, when what they read is small:
 *                    COPY_WHEN_FEW_MAX_ROWS); or, in a session over a kept file, read from
 *                    the layer table `ingest --db` stored
 *   6. marts         the views commands read (and a harness's own), over those tables
 *
 * A session of inputs read into memory creates steps 4 to 6 on two connections
 * at once when the machine has a second core (Session.need): a relation starts
 * as soon as what it reads exists, on whichever connection is free. TEMP
 * objects are a connection's own, so there every relation is created in the
 * in-memory main catalog, which both connections see, each committed on its own.
 *
 * `ingest --db` (a writing session) keeps the evaluation of every relation
 * marked for it (src/db/layer-cache.ts) in the file, for the default
 * definitions; a reading session takes from it what its own definitions allow.
 * Commands receive the open session and read the marts; nothing here knows a
 * command or a harness.
 */
import { availableParallelism } from "node:os";
import { DenomError } from "../errors.js";
import { Database, sqlName, type Params } from "./database.js";
import { EmptyFacts } from "./empty-when.js";
import { DEFAULT_DEFINITIONS, dropKey, keptKeyMatches, keptRelations, layerTable, storeKey, usableLayers, type Definitions } from "./layer-cache.js";
import { queryCatalog, type Catalog, type NamedSelect, type Relation } from "./queries.js";
import { createTables, TABLES } from "./schema.js";
import type { Writable } from "./sandbox.js";
import { openStoredForReading, openStoredForWriting, STORED } from "./stored.js";

export { Database, TABLES, createTables };
export { DuckDBDataChunk } from "./duckdb.js";
export type { Params, Definitions, Writable };
export type { Column, SqlType } from "./schema.js";
import type { RowOf, SelectName } from "./rows.js";
import type { Row } from "./values.js";
export type { Cell, Row } from "./values.js";
export type { RowOf, SelectName } from "./rows.js";
export { sqlString } from "./database.js";
export { cellConverter } from "./values.js";
export { copyFormatOf, copyTo, extensionFormat, NEUTRALISED, quoteName, type CopiedColumn, type CopyFormat } from "./copy.js";
export { DEFAULT_DEFINITIONS } from "./layer-cache.js";
export { isLockedDown, isShowTables, lockDown, refusal, relationsRead } from "./sandbox.js";

/** How to open a session, and what to load into it. */
export interface SessionOptions<T> {
  /** a file kept by `denom ingest --db`: attached read-only, never written, the session locked down (sandbox.ts) */
  read?: string;
  /** with `read`: what the locked-down session may still write (an export being staged) */
  writable?: Writable;
  /** `denom ingest --db FILE`: FILE opened read-write; the inputs are added to it and its layers kept */
  write?: string;
  /** keep the tables in a temporary file with a memory limit (big inputs); in memory otherwise */
  temporary?: boolean;
  /** in memory, a DuckDB instance of the session's own (Database.open `own`): a session that will be locked down (`denom query`) */
  ownInstance?: boolean;
  /**
   * Create every relation of queries/ as a view up front (`denom query`, whose
   * SQL may name any of them, and a writing session); otherwise a relation is
   * created when a command first needs it (Session.need, Session.select).
   */
  views?: boolean;
  /**
   * Create every relation on this session's one connection, as TEMP objects
   * (compare: it puts TEMP tables of its own in place of side views, and sets
   * a session variable later). Always so when reading a kept file (`read`),
   * writing one (`write`), with `temporary` or `views`.
   */
  oneConnection?: boolean;
  /** the definitions the figures are computed under (a writing session: the defaults) */
  definitions: Definitions;
  /** step 2: appends the inputs to the tables; its result is the session's `loaded` */
  load?: (db: Database) => Promise<T>;
  /** told when the inputs are read and the figures are being computed (a progress line) */
  onComputing?: () => void;
}

/** A statement createConcurrently scheduled: a relation (by its name) or a named SELECT (`select/` and its readKey). */
interface Scheduled {
  name: string;
  reads: readonly string[];
  run: (db: Database) => Promise<void>;
  /** settles when the statement has ended (rejected with the session's failure when it never starts) */
  done: Promise<void>;
  settle: { resolve: () => void; reject: (e: unknown) => void };
  /** the longest chain of scheduled statements that wait for it, itself included */
  chain: number;
  running: boolean;
}

/**
 * An open session: the loaded tables, and the relations of queries/ as
 * commands need them. Close it when done.
 */
export class Session<T = unknown> {
  private readonly created = new Set<string>();
  /** the views read through on big inputs that this session copied into tables (copies) */
  private readonly copiedWhenFew = new Set<string>();
  /** the rows of the tables it created, for the Empty when lines of queries/ */
  private readonly empties: EmptyFacts;
  /**
   * rows of named SELECTs run by needFor (a session of helpers, whose loaded tables and
   * relations do not change once open), by readKey, given by select() every time
   */
  private readonly read = new Map<string, Row[]>();
  /** with helpers: the statements scheduled and not ended (waiting or running), by name (Scheduled.name) */
  private readonly pending = new Map<string, Scheduled>();
  /** with helpers: the connections not working through `pending` (createConcurrently sets them to work) */
  private idle: Database[] = [];
  /** the first statement of createConcurrently that failed: no statement starts after it */
  private failure: { error: unknown } | null = null;
  /** resolved whenever a scheduled statement ends (then replaced) */
  private changed: Promise<void>;
  private wake: () => void = () => {};

  constructor(
    readonly db: Database,
    private readonly catalog: Catalog,
    /** what `load` returned (undefined without one) */
    readonly loaded: T,
    /** kept layers of the attached file this session reads instead of computing them */
    private kept: ReadonlySet<string>,
    /**
     * further connections to the same in-memory instance, their session variables
     * set (openSession): need() creates relations on these and `db` at once
     */
    private readonly helpers: Database[] = [],
    /** the schema holding them: the attached file's, or (a writing session) the open file's own */
    private keptFrom: string = `${STORED}.main`,
    /**
     * a session in memory (no kept file, no temporary file, not every relation a view):
     * a view read through on big inputs (Relation.copiedWhenFew) is copied into a table
     * when what it reads is small (copies)
     */
    private readonly copyWhenFew = false,
  ) {
    this.idle = helpers.length ? [db, ...helpers] : [];
    this.changed = new Promise<void>((resolve) => (this.wake = resolve));
    this.empties = new EmptyFacts(catalog);
  }

  /**
   * Steps 4 to 6 for `names` (relations of queries/; loaded tables are there
   * already): creates each with everything it reads, each materialized into a
   * table right away unless its header says `Not materialized` (then a view; `on big
   * inputs`: a view unless what it reads is small, copies()),
   * or read from a kept layer. On one connection: in catalog order, TEMP
   * objects, in one transaction (under a memory limit each committed on its
   * own). With helpers: on every connection at once, in the main catalog
   * (createConcurrently). Throws DenomError naming the file whose statement
   * failed.
   */
  async need(names: Iterable<string>): Promise<void> {
    const wanted = this.missing(names);
    if (wanted.length === 0) return;
    if (this.helpers.length) return this.createConcurrently(wanted, []);
    const create = async () => {
      for (const relation of wanted) {
        if (this.kept.has(relation.name)) await this.readKept(relation);
        else await this.create(this.db, relation, "TEMP ");
        this.created.add(relation.name);
      }
    };
    // Under a memory limit (a big input) each relation commits on its own: tables left
    // uncommitted stay in DuckDB's transaction-local storage, slower to read and spilled
    // past the limit. The report of 1 GB of JSONL after its ingest: 11.6 -> 7.3 s wall,
    // 18.5 -> 13.2 s CPU, peak RSS 868 -> 722 MiB (docs/benchmarks.md).
    if (this.db.memoryLimited) await create();
    else await this.inTransaction(create);
  }

  /**
   * Steps 4 to 6 at once for what the named SELECTs `names` read: one transaction
   * for all of them instead of one per select() (a tenth of a small report's CPU;
   * under a memory limit, one per relation: need()).
   * For a command about to run them; select() then finds their relations created.
   * With helpers, those of them that take no parameters, or whose parameters
   * `params` gives (by name), run too, each as soon as what it reads exists,
   * beside the relations still being created; select() then returns the rows so
   * read when called with the same parameters (a SELECT read so once is not read again).
   * Throws as need(), and DenomError for a name with no file.
   */
  async needFor(names: Iterable<string>, params: Readonly<Record<string, Params>> = {}): Promise<void> {
    const queries: NamedSelect[] = [];
    for (const name of names) {
      const query = this.catalog.selects.get(name);
      if (!query) throw new DenomError(`queries/select/${name}.sql: no such file`);
      queries.push(query);
    }
    const reads = queries.flatMap((q) => q.reads);
    if (!this.helpers.length) return this.need(reads);
    await this.createConcurrently(
      this.missing(reads),
      queries.flatMap((q) => {
        const given = params[q.name];
        return (given || !PARAMETER.test(q.sql)) && !this.read.has(readKey(q.name, given)) ? [{ query: q, params: given }] : [];
      }),
    );
  }

  /**
   * needFor(names, params) started and not awaited: with helpers, the relations
   * and SELECTs of a command begin beside what is asked for next (openRuns: the
   * notices'), which then waits only for its own statements. A failure is kept
   * for the needFor or select() that comes to it. Without helpers, nothing.
   */
  prefetch(names: Iterable<string>, params?: Readonly<Record<string, Params>>): void {
    if (this.helpers.length) this.needFor(names, params).catch(() => {});
  }

  /** The names of the named SELECTs in `queries/select/<folder>/` (e.g. `report/status_counts`), sorted. */
  selectsIn(folder: string): string[] {
    return [...this.catalog.selects.keys()].filter((name) => name.startsWith(`${folder}/`)).sort();
  }

  /**
   * Runs the named SELECT `queries/select/<name>.sql` (e.g. `report/status_counts`)
   * with `params` bound to its `$name` parameters, after creating what it reads.
   */
  async select<N extends SelectName>(name: N, params?: Params): Promise<RowOf<N>[]> {
    const query = this.catalog.selects.get(name);
    if (!query) throw new DenomError(`queries/select/${name}.sql: no such file`);
    const key = readKey(name, params);
    await this.pending.get(`select/${key}`)?.done.catch(() => {});
    let rows = this.read.get(key);
    if (!rows) {
      await this.need(query.reads);
      // `db` may still be running a statement of a prefetch: one statement at a time on a connection
      await this.quiet();
      rows = await runSelect(this.db, query, params);
    }
    // the one place a row gets its type: SELECT_ROWS, checked against DESCRIBE (test/select-rows.test.ts)
    return rows as RowOf<N>[];
  }

  /**
   * select(name, params), its rows handed to `visit` a chunk (at most 2,048) at a
   * time and never held together (Database.each): for a SELECT of millions of
   * rows. Not read ahead by needFor, nor kept. Throws as select().
   */
  async selectEach<N extends SelectName>(name: N, params: Params | undefined, visit: (rows: RowOf<N>[]) => void): Promise<void> {
    const query = this.catalog.selects.get(name);
    if (!query) throw new DenomError(`queries/select/${name}.sql: no such file`);
    await this.need(query.reads);
    await this.quiet();
    try {
      await this.db.each(query.sql, params, visit as (rows: Row[]) => void);
    } catch (e) {
      throw new DenomError(`queries/select/${query.name}.sql: ${(e as Error).message}`);
    }
  }

  /** The first row of select(name); throws DenomError when the query gave none (each of these gives one). */
  async selectOne<N extends SelectName>(name: N, params?: Params): Promise<RowOf<N>> {
    const row = (await this.select(name, params))[0];
    if (!row) throw new DenomError(`queries/select/${name}.sql: no row`);
    return row;
  }

  /**
   * Steps 4 to 6 for every relation, each as a view of its name in the main schema
   * (SessionOptions.views). A writing session (`write`) whose file's layers are not
   * current (for `definitions`, the ones it computes under) stores each kept
   * layer; returns whether it did. Storing the layers of at most
   * COPY_WHEN_FEW_MAX_ROWS attempts, it copies each relation read through on big
   * inputs (`Not materialized on big inputs`) into a TEMP table of its name while it
   * stores, as a report on so few attempts copies them (Session.copies): the layers
   * after it read the copy instead of computing the view again in each (seed-100:
   * `ingest --db` 2.0 -> 1.5 s, the same file; docs/benchmarks.md). The file's views
   * stay views: a TEMP object is this connection's only, dropped at the end. (Copying
   * every mart a report copies as well ran out of memory storing a real folder of 332
   * sources.)
   */
  async createViews(write: boolean, definitions: Definitions = DEFAULT_DEFINITIONS): Promise<boolean> {
    const storing = write ? !(await keptKeyMatches(this.db, this.catalog, definitions)) : false;
    if (write && !storing) {
      // the file's layers are current: its views bind against them, not down to the attempts
      this.kept = new Set(keptRelations(this.catalog));
      this.keptFrom = "main";
    }
    const few = storing && (await attemptCount(this.db)) <= COPY_WHEN_FEW_MAX_ROWS;
    const copiedWhileStoring: string[] = [];
    const create = async (relation: Relation) => {
      await createRelation(this.db, relation.sql, relation);
      if (this.kept.has(relation.name)) await this.readKept(relation);
      else if (storing && relation.kept) {
        await this.db.run(`CREATE OR REPLACE TABLE ${layerTable(relation.name)} AS SELECT * FROM main.${relation.name}`);
        await this.db.run(`CREATE OR REPLACE TEMP VIEW ${relation.name} AS SELECT * FROM main.${layerTable(relation.name)}`);
      } else if ((relation.materialized && !write) || (few && relation.copiedWhenFew)) {
        await this.db.run(`CREATE OR REPLACE TEMP TABLE ${relation.name} AS SELECT * FROM main.${relation.name}`);
        if (write) copiedWhileStoring.push(relation.name);
      }
      this.created.add(relation.name);
    };
    // Storing, the layers commit a few at a time (storingBatches), as need() commits each
    // relation under a memory limit: in one transaction every layer stayed in DuckDB's
    // transaction-local storage until the end (2.17 GB of JSONL: peak RSS 1,064-1,076 ->
    // 954-969 MiB; docs/benchmarks.md). So the old key goes first, in a commit
    // of its own, and the new one with the last layers: a file whose ingest stopped in
    // between (Ctrl-C, a kill, a full disk) holds layers without a key, which no reader
    // takes (usableLayers) and the next ingest stores again.
    const batches = storing ? storingBatches(this.catalog.relations) : [this.catalog.relations];
    if (storing) await dropKey(this.db);
    for (const [i, batch] of batches.entries())
      await this.inTransaction(async () => {
        for (const relation of batch) await create(relation);
        if (storing && i === batches.length - 1) await storeKey(this.db, this.catalog, definitions);
      });
    // one transaction for the drops: one commit instead of one per kept layer
    if (write)
      await this.inTransaction(async () => {
        for (const relation of this.catalog.relations) if (relation.kept) await this.db.run(`DROP VIEW IF EXISTS temp.main.${relation.name}`);
        for (const name of copiedWhileStoring) await this.db.run(`DROP TABLE temp.main.${name}`);
      });
    return storing;
  }

  /** The names of every relation of queries/, created or not, as a query names them. */
  relationNames(): string[] {
    return this.catalog.relations.map((r) => r.name);
  }

  /** Closes the connections; with a statement of a prefetch still running, once it has ended. */
  close(): void {
    const close = () => {
      for (const helper of this.helpers) helper.close();
      this.db.close();
    };
    if (this.pending.size === 0) close();
    else void this.quiet().then(close);
  }

  /** The relations not created yet that `names` need, with everything they read, in catalog order. */
  private missing(names: Iterable<string>): Relation[] {
    const wanted = new Set<string>();
    const visit = (name: string) => {
      if (wanted.has(name) || this.created.has(name)) return;
      const relation = this.catalog.byName.get(name);
      if (!relation) return;
      wanted.add(name);
      // a kept layer is read from the file: what it reads is not needed for it
      if (!this.kept.has(name)) for (const read of relation.reads) visit(read);
    };
    for (const name of names) visit(name);
    return this.catalog.relations.filter((r) => wanted.has(r.name));
  }

  /**
   * Creates `relations` (in catalog order, none kept) and runs `queries` on `db`
   * and the helpers at once, each relation in the main catalog, each statement
   * committed on its own, beside the statements other calls scheduled before
   * (prefetch) and not ended: those among `relations` are awaited, not made again.
   * A connection that is free takes, of the statements whose reads exist, the one
   * with the longest chain of statements still to come after it (ties: in the
   * order they were scheduled: relations in catalog order, then the queries). A
   * query's rows wait in `read` for select(). Returns once its statements have
   * ended; throws the DenomError of the first statement that failed (then starts
   * no more), once no statement is running.
   */
  private async createConcurrently(relations: Relation[], queries: { query: NamedSelect; params?: Params }[]): Promise<void> {
    const mine: Scheduled[] = [];
    const add = (name: string, reads: readonly string[], run: (db: Database) => Promise<void>) => {
      const known = this.pending.get(name);
      if (known) return void mine.push(known);
      let settle!: { resolve: () => void; reject: (e: unknown) => void };
      const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      done.catch(() => {}); // awaited by its needFor, which may be gone (a prefetch)
      const job: Scheduled = { name, reads, run, done, settle, chain: 1, running: false };
      this.pending.set(name, job);
      mine.push(job);
    };
    for (const r of relations)
      add(r.name, r.reads, async (db) => {
        await this.create(db, r, "");
        this.created.add(r.name);
      });
    for (const { query, params } of queries) {
      const key = readKey(query.name, params);
      add(`select/${key}`, query.reads, async (db) => void this.read.set(key, await runSelect(db, query, params)));
    }
    if (this.failure) this.failAll();
    // the longest chain of statements that wait for each, itself included; a statement is
    // scheduled after what it reads (missing() is in catalog order), so reversed, readers come first
    const jobs = [...this.pending.values()];
    for (const job of [...jobs].reverse()) job.chain = Math.max(0, ...jobs.filter((o) => o.reads.includes(job.name)).map((o) => o.chain)) + 1;
    for (const db of this.idle.splice(0)) void this.work(db);
    const ended = await Promise.allSettled(mine.map((j) => j.done));
    if (ended.some((e) => e.status === "rejected")) {
      await this.quiet();
      throw this.failure!.error;
    }
  }

  /** One connection working through `pending` until none of it waits for a connection. */
  private async work(db: Database): Promise<void> {
    for (;;) {
      if (this.failure) break;
      let best: Scheduled | undefined;
      let waiting = false;
      for (const job of this.pending.values()) {
        if (job.running) continue;
        waiting = true;
        if (job.reads.every((read) => !this.pending.has(read)) && (!best || job.chain > best.chain)) best = job;
      }
      if (!waiting) break;
      if (!best) {
        if (![...this.pending.values()].some((j) => j.running)) {
          // cannot be (each reads only relations before it), but never wait for nothing
          this.failure ??= { error: new DenomError(`queries/: ${[...this.pending.keys()].join(", ")} read relations never created`) };
          this.failAll();
          break;
        }
        // a relation another connection is creating comes first
        await this.changed;
        continue;
      }
      best.running = true;
      try {
        await best.run(db);
        this.pending.delete(best.name);
        best.settle.resolve();
      } catch (e) {
        this.failure ??= { error: e };
        this.pending.delete(best.name);
        best.settle.reject(e);
        this.failAll();
      } finally {
        this.signal();
      }
    }
    this.idle.push(db);
  }

  /** Wakes whatever awaits `changed`, and makes the next one. */
  private signal(): void {
    const woken = this.wake;
    this.changed = new Promise<void>((resolve) => (this.wake = resolve));
    woken();
  }

  /** After a failure: every scheduled statement not running ends with it, unstarted. */
  private failAll(): void {
    for (const job of [...this.pending.values()])
      if (!job.running) {
        this.pending.delete(job.name);
        job.settle.reject(this.failure!.error);
      }
    this.signal();
  }

  /** Resolves once no scheduled statement is running or waiting. */
  private async quiet(): Promise<void> {
    while (this.pending.size > 0) await this.changed;
  }

  /**
   * Whether `relation` (a view of queries/) becomes a table: a copied one always; one
   * read through on big inputs (Relation.copiedWhenFew) in a session that copies such
   * views (copyWhenFew) when every relation and loaded table it reads is a table of at
   * most COPY_WHEN_FEW_MAX_ROWS rows (macros and reference/ aside), counted on `db`
   * now that they exist. So a view over another that stayed a view stays one too, and
   * a few attempts with many trials owed (`--expect-count 300000`: missing_trials)
   * keep the trials' views read through.
   */
  private async copies(db: Database, relation: Relation): Promise<boolean> {
    if (relation.copied) return true;
    if (!this.copyWhenFew || !relation.copiedWhenFew) return false;
    const counted: string[] = [];
    for (const name of relation.reads) {
      const read = this.catalog.byName.get(name);
      if (read && (read.kind === "macro" || read.layer === "reference")) continue;
      const table = read ? read.copied || this.copiedWhenFew.has(name) : Object.hasOwn(TABLES, name);
      if (!table) return false;
      counted.push(`SELECT count(*) AS n FROM ${sqlName(name)}`);
    }
    let largest = 0;
    try {
      if (counted.length) largest = Number((await db.one(`SELECT max(n) AS n FROM (${counted.join(" UNION ALL ")})`))?.n ?? 0);
    } catch (e) {
      throw new DenomError(`queries/${relation.path}: ${(e as Error).message}`);
    }
    if (largest > COPY_WHEN_FEW_MAX_ROWS) return false;
    this.copiedWhenFew.add(relation.name);
    return true;
  }

  /**
   * Creates `relation` on `db` ("TEMP " objects are the connection's own): a table when
   * copies() says so, made empty without computing it when one of its Empty when lines
   * holds (EmptyFacts), its rows noted; else a view.
   */
  private async create(db: Database, relation: Relation, scope: "TEMP " | ""): Promise<void> {
    const table = await this.copies(db, relation);
    const empty = table && (await this.empties.holds(db, relation));
    const rows = await createRelation(db, relationSql(relation, scope, table, empty), relation, table);
    if (rows !== null) this.empties.created(relation.name, rows);
  }

  private async readKept(relation: Relation): Promise<void> {
    // evaluated by ingest under these very definitions: read, not recomputed
    await this.db.run(`CREATE OR REPLACE TEMP VIEW ${relation.name} AS SELECT * FROM ${this.keptFrom}.${layerTable(relation.name)}`);
  }

  private async inTransaction(work: () => Promise<void>): Promise<void> {
    await this.db.run("BEGIN TRANSACTION");
    try {
      await work();
      await this.db.run("COMMIT");
    } catch (e) {
      await this.db.run("ROLLBACK");
      throw e;
    }
  }
}

/**
 * The transactions a writing session that stores its layers creates `relations`
 * in (catalog order): one ending at each staging or intermediate layer it keeps
 * (the big tables: layer_stg_attempts alone is the attempts again), and the
 * rest (the marts, a block or two each) in the last, which also writes the key.
 * One per relation cost a small ingest about 0.1 s more (seed-100: 86 commits).
 */
function storingBatches(relations: readonly Relation[]): Relation[][] {
  const batches: Relation[][] = [[]];
  for (const relation of relations) {
    batches[batches.length - 1].push(relation);
    if (relation.kept && relation.materialized) batches.push([]);
  }
  return batches;
}

const VIEW_HEAD = /^create or replace view (\w+) as/m;

/**
 * The statement that creates `relation`: a view of queries/ as a table (`table`:
 * Session.copies) or a view, `scope` "TEMP " (one connection's own) or "" (the
 * main catalog every connection sees); a macro or table as written.
 */
function relationSql(relation: Relation, scope: "TEMP " | "", table: boolean, empty = false): string {
  if (relation.kind !== "view") return relation.sql;
  if (empty) {
    // its columns and their types as DuckDB binds the view, no row computed
    const table = relation.sql.replace(VIEW_HEAD, `create or replace ${scope}TABLE $1 as select * from (`);
    return `${table.trimEnd().replace(/;$/, "")}\n) limit 0`;
  }
  return relation.sql.replace(VIEW_HEAD, `create or replace ${scope}${table ? "TABLE" : "VIEW"} $1 as`);
}

/**
 * Opens a session: steps 1 to 3, and with `views` 4 to 6 for every relation.
 * Throws DataError when a kept file cannot be read, what `load` throws, and
 * DenomError naming the file of queries/ whose statement failed. Nothing is
 * left open on a throw.
 */
export async function openSession<T>(options: SessionOptions<T>): Promise<Session<T>> {
  const catalog = queryCatalog();
  // 1. schema (a kept file's is checked, and what it lacks added)
  const db = options.read
    ? await openStoredForReading(options.read, options.writable)
    : options.write
      ? await openStoredForWriting(options.write)
      : await Database.open({ temporary: options.temporary, own: options.ownInstance });
  const helpers: Database[] = [];
  // the second connection and its session variables, made while the inputs are read
  const helper =
    !options.read && !options.write && !options.temporary && !options.views && !options.oneConnection && availableParallelism() > 1
      ? db.connect().then(async (h) => {
          helpers.push(h);
          // session variables are a connection's own
          await setDefinitions(h, options.definitions);
        })
      : null;
  // handled here too: it may fail while the inputs are still being read (awaited below either way)
  helper?.catch(() => {});
  try {
    if (!options.read && !options.write) await createTables(db);
    // 2. ingest
    const loaded = (await options.load?.(db)) as T;
    await helper;
    // 3. definitions, and the threads the relations are computed on
    await setDefinitions(db, options.definitions);
    const inMemory = !options.read && !options.write && !options.temporary;
    if (inMemory) await setComputeThreads(db);
    options.onComputing?.();
    const kept = options.read ? await usableLayers(db, catalog, STORED, options.definitions) : new Set<string>();
    const session = new Session(db, catalog, loaded, kept, helpers, undefined, inMemory && !options.views);
    if (options.views || options.write) await session.createViews(Boolean(options.write), options.definitions);
    return session;
  } catch (e) {
    // never close the instance under a connection still being made
    await helper?.catch(() => {});
    for (const h of helpers) h.close();
    db.close();
    throw e;
  }
}

/**
 * Loaded attempts up to which a session in memory computes its relations on one
 * DuckDB thread, whatever it loaded on. The layers are many statements over a few
 * row groups each: on two threads they cost about 45% more CPU for 190,924
 * attempts (200 MB, bench/phases.mjs), and such a session has a second connection
 * for the second core (Session.need). A session over a temporary file (a big
 * input, runs.ts needsDisk) keeps one connection and computes on every core: the
 * report of 1 GB of JSONL (954,125 attempts) took 23.5 s on one thread and 16.0 s
 * on two, for 12% more CPU (idle machine, docs/benchmarks.md).
 */
export const ONE_THREAD_MAX_ATTEMPTS = 2_000_000;

/**
 * Rows up to which every relation a view read through on big inputs reads (`--
 * Not materialized on big inputs`) lets a session in memory copy that view into
 * a table, as it copies the other relations (Session.copies): each such view has
 * several readers (stg_attempts twelve), and on a small input planning the view
 * again in every reader costs more than the copy. seed-100's report: 1.40 ->
 * 1.02 s of CPU, the same output; from about 20,000 attempts on the copy costs
 * as much CPU as it saves, and memory (100 MB of gen_attempts logs: +300 MB
 * peak). Measured in docs/benchmarks.md.
 */
export const COPY_WHEN_FEW_MAX_ROWS = 20_000;

/**
 * Step 3, in memory: one thread for computing up to ONE_THREAD_MAX_ATTEMPTS attempts,
 * DuckDB's default (one per core) past them; the figures do not depend on the threads.
 * The setting is the instance's: an in-memory session shares it with the process's
 * other sessions (Database.attach), so it is set either way.
 */
async function setComputeThreads(db: Database): Promise<void> {
  await db.run((await attemptCount(db)) <= ONE_THREAD_MAX_ATTEMPTS ? "SET threads = 1" : "RESET threads");
}

/** How many attempts `db`'s session has loaded. */
async function attemptCount(db: Database): Promise<number> {
  return Number((await db.one("SELECT count(*) AS n FROM attempts"))?.n ?? 0);
}

/** A `$name` parameter in a named SELECT: needFor leaves such a query to select(), unless given its values. */
const PARAMETER = /\$[A-Za-z_]/;

/** The key of a named SELECT's rows read with `params` (Session.read). */
function readKey(name: string, params?: Params): string {
  return params ? `${name} ${JSON.stringify(params)}` : name;
}

/** Runs a named SELECT with `params`; a failure names its file. */
async function runSelect(db: Database, query: NamedSelect, params?: Params): Promise<Row[]> {
  try {
    return await db.all(query.sql, params);
  } catch (e) {
    throw new DenomError(`queries/select/${query.name}.sql: ${(e as Error).message}`);
  }
}

/** Runs the statement of one file of queries/; a failure names the file. Returns the rows of a `table` made (CREATE TABLE AS reports them), else null. */
async function createRelation(db: Database, sql: string, relation: Relation, table = false): Promise<number | null> {
  try {
    if (table) return Number((await db.one(sql))?.Count);
    await db.run(sql);
    return null;
  } catch (e) {
    throw new DenomError(`queries/${relation.path}: ${(e as Error).message}`);
  }
}

/**
 * Step 3: the session variables the SQL reads through getvariable(): status_map
 * (the --status-map pairs), queue_share, loop_min, sluggish_ratio (the
 * classifier thresholds), expected_tasks / expected_count (--expect,
 * --expect-count), excluded_tasks (--exclude-tasks: the ids; NULL: no validated denominator), group_by (--by; NULL: no groups, only the overall scope) and
 * reruns (the --rerun-of pairs, {rerun, original} run_ids; empty by default),
 * recognise_reruns (false under --run-per-file: no re-run recognised on its own),
 * pool (true under --pool: no identity groups, view run_groups),
 * success_threshold (--success-threshold X, a DOUBLE; NULL: each format's declared rule).
 */
export async function setDefinitions(db: Database, defs: Definitions): Promise<void> {
  // text from the user (status names, task ids of --expect) travels as a bound parameter,
  // never inside the SQL: a quote, semicolon or newline in it cannot change the statement
  const pairs = Object.entries(defs.statusMap).map(([key, value]) => ({ key, value }));
  await db.run(
    `SET VARIABLE status_map = map_from_entries(CAST(from_json($pairs, '[{"key":"VARCHAR","value":"VARCHAR"}]') AS STRUCT(key VARCHAR, value VARCHAR)[]))`,
    { pairs: JSON.stringify(pairs) },
  );
  // the thresholds and the count are numbers parsed by definitions.ts, written as numeric literals
  await db.setVariable("queue_share", String(defs.thresholds.queueShare));
  await db.setVariable("loop_min", String(defs.thresholds.loopMin));
  await db.setVariable("sluggish_ratio", String(defs.thresholds.sluggishRatio));
  const tasks = defs.expectation?.tasks;
  await db.run(`SET VARIABLE expected_tasks = CAST(from_json($tasks::VARCHAR, '["VARCHAR"]') AS VARCHAR[])`, { tasks: tasks ? JSON.stringify(tasks) : null });
  await db.setVariable("expected_count", defs.expectation?.count ? String(defs.expectation.count) : "NULL::BIGINT");
  const excluded = defs.excludedTasks?.tasks.map((t) => t.task_id);
  await db.run(`SET VARIABLE excluded_tasks = CAST(from_json($tasks::VARCHAR, '["VARCHAR"]') AS VARCHAR[])`, {
    tasks: excluded ? JSON.stringify(excluded) : null,
  });
  await db.run("SET VARIABLE group_by = $by::VARCHAR", { by: defs.by ?? null });
  await db.run(
    `SET VARIABLE reruns = CAST(from_json($pairs::VARCHAR, '[{"rerun":"VARCHAR","original":"VARCHAR"}]') AS STRUCT(rerun VARCHAR, original VARCHAR)[])`,
    {
      pairs: JSON.stringify(defs.reruns ?? []),
    },
  );
  await db.setVariable("recognise_reruns", defs.runPerFile ? "false" : "true");
  await db.setVariable("pool", defs.pool ? "true" : "false");
  // a number parsed by definitions.ts (parseSuccessThreshold), written as a numeric literal
  await db.setVariable("success_threshold", defs.successThreshold == null ? "NULL::DOUBLE" : `${defs.successThreshold}::DOUBLE`);
  // --floor: the floor's own cells (counts) and its tasks, read in a session of their own
  await db.run(
    `SET VARIABLE floor_cells = CAST(from_json($cells::VARCHAR, '[{"basis":"VARCHAR","denominator":"VARCHAR","successes":"BIGINT","count":"BIGINT"}]') AS STRUCT(basis VARCHAR, denominator VARCHAR, successes BIGINT, count BIGINT)[])`,
    { cells: defs.floor ? JSON.stringify(defs.floor.cells) : null },
  );
  await db.run(`SET VARIABLE floor_tasks = CAST(from_json($tasks::VARCHAR, '["VARCHAR"]') AS VARCHAR[])`, {
    tasks: defs.floor ? JSON.stringify(defs.floor.tasks) : null,
  });
}
