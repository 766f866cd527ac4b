/**
 * The sandbox of every session that reads a `--db` file, and of the SQL
 * `denom query` runs. DuckDB can read and write any file the user
 * can, fetch URLs and install extensions; a session that runs SQL from a
 * command line, or reads a file someone else wrote, must do none of that:
 *  - `lockDown` shuts the session off from the file system and the network
 *    (enable_external_access = false; extensions neither autoloaded nor
 *    autoinstalled), except the session's own spill folder and the paths denom
 *    itself writes (an export being staged), and locks the configuration so no
 *    statement can undo it;
 *  - `refusal` judges a statement by DuckDB's own parse of it, never by a scan
 *    of its text and never by preparing it (preparing `EXPORT DATABASE` creates
 *    its folder): DuckDB's parser must find exactly one statement, and that
 *    statement must be a query (json_serialize_sql serializes SELECT nodes
 *    only: SELECT, WITH, FROM, VALUES, TABLE, PIVOT, UNPIVOT, SUMMARIZE,
 *    DESCRIBE, SHOW parse as one); anything else (COPY, EXPORT, ATTACH, DETACH,
 *    INSTALL, LOAD, CALL, PRAGMA, SET, CHECKPOINT, CREATE, INSERT, EXPLAIN...)
 *    is refused before DuckDB binds it. The parse tree is then walked: every
 *    table it names must be one of the session's relations (or a CTE of the
 *    query), every table function one of a few generators, and no function may
 *    read the session's settings or state (current_setting, duckdb_settings(),
 *    duckdb_databases, pg_settings... reveal the temp folder, the db path and
 *    the writable paths) or be a macro defined outside DuckDB itself.
 */
import type { Database } from "./database.js";
import { DenomError } from "../errors.js";
import { sqlString } from "./database.js";

/** What a locked session may still write: folders (a trailing `/` is added) and single files. */
export interface Writable {
  directories?: readonly string[];
  paths?: readonly string[];
}

/**
 * Applies the sandbox to `db`; afterwards no setting can change (lock_configuration).
 * Files already attached (the `--db` file, READ_ONLY) stay readable. The settings
 * are the whole instance's: `db` must have one of its own (Database.open `own`,
 * or on disk), never a database attached to the process's shared one, which
 * other sessions use; throws DenomError when it has not.
 */
export async function lockDown(db: Database, writable: Writable = {}): Promise<void> {
  if (db.attached) throw new DenomError("a session to be locked down shares its DuckDB instance; it needs one of its own (Database.open own)");
  const dirs = [db.scratch, ...(writable.directories ?? [])].filter((d): d is string => Boolean(d)).map((d) => (d.endsWith("/") ? d : `${d}/`));
  const list = (items: readonly string[]) => `[${items.map(sqlString).join(", ")}]`;
  if (dirs.length) await db.run(`SET allowed_directories = ${list(dirs)}`);
  if (writable.paths?.length) await db.run(`SET allowed_paths = ${list(writable.paths)}`);
  await db.run("SET enable_external_access = false");
  await db.run("SET autoload_known_extensions = false");
  await db.run("SET autoinstall_known_extensions = false");
  await db.run("SET lock_configuration = true");
}

/** True when `db` is locked down already (lockDown ran). */
export async function isLockedDown(db: Database): Promise<boolean> {
  const row = await db.one("SELECT current_setting('lock_configuration') AS locked");
  return row?.locked === true;
}

/**
 * Table functions a query may call: generators of rows that read nothing but
 * their arguments. Every other one (read_*, glob, query(), duckdb_settings(),
 * checkpoint(), pragma_*...) reads a file, the catalog or the session, or runs SQL.
 */
const TABLE_FUNCTIONS = new Set(["range", "generate_series", "unnest", "json_each", "json_tree", "repeat", "repeat_row"]);
/** Scalar functions that read or change the session's settings or state. */
const SESSION_FUNCTIONS = new Set(["current_setting", "getvariable", "setseed", "nextval", "currval", "write_log", "json_execute_serialized_sql"]);
/** Catalogs and schemas a table may be named in: the session's own and the attached --db file's. */
const CATALOGS = new Set(["", "memory", "stored"]);
const SCHEMAS = new Set(["", "main"]);

/** What a query's parse tree names, gathered by `walk`. */
interface Named {
  tables: { catalog: string; schema: string; name: string }[];
  tableFunctions: string[];
  functions: string[];
  ctes: string[];
  /** a SHOW (or DESCRIBE) of no one relation: SHOW TABLES, SHOW ALL TABLES, a bare DESCRIBE */
  listsAll?: boolean;
}

/** Gathers every table, table function, function and CTE name of a json_serialize_sql tree. */
function walk(node: unknown, into: Named): Named {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, into);
    return into;
  }
  if (node === null || typeof node !== "object") return into;
  const o = node as Record<string, unknown>;
  if (o.type === "BASE_TABLE")
    into.tables.push({ catalog: String(o.catalog_name ?? ""), schema: String(o.schema_name ?? ""), name: String(o.table_name ?? "") });
  if (o.type === "TABLE_FUNCTION") {
    const fn = (o.function ?? {}) as Record<string, unknown>;
    into.tableFunctions.push(String(fn.function_name ?? ""));
    walk(fn.children, into);
    for (const [k, v] of Object.entries(o)) if (k !== "function") walk(v, into);
    return into;
  }
  if (o.type === "SHOW_REF" && (o.query === null || o.query === undefined)) into.listsAll = true;
  if (typeof o.function_name === "string") into.functions.push(o.function_name);
  const ctes = (o.cte_map as { map?: { key?: string }[] } | undefined)?.map;
  if (Array.isArray(ctes)) for (const c of ctes) if (typeof c.key === "string") into.ctes.push(c.key);
  for (const v of Object.values(o)) walk(v, into);
  return into;
}

/**
 * The first words of `sql`, read past comments (nested, as DuckDB nests them),
 * blanks and parentheses: for naming a refused statement in the message only.
 * No decision reads them; what runs is decided from DuckDB's parse.
 */
export function leadingWords(sql: string, count = 3): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < sql.length && words.length < count) {
    const c = sql[i];
    if (/[\s(]/.test(c)) i++;
    else if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      let depth = 0;
      for (; i < sql.length; i++) {
        if (sql[i] === "/" && sql[i + 1] === "*") depth++, i++;
        else if (sql[i] === "*" && sql[i + 1] === "/") {
          i++;
          if (--depth === 0) break;
        }
      }
      i++;
    } else {
      const m = /^[A-Za-z_]+/.exec(sql.slice(i, i + 64));
      if (!m) break;
      words.push(m[0].toUpperCase());
      i += m[0].length;
    }
  }
  return words;
}

/** The statement a refused text holds, in words: `COPY`, `EXPLAIN ANALYZE COPY`. */
function statementName(sql: string): string {
  const words = leadingWords(sql, 4);
  const name: string[] = [];
  for (const w of words) {
    name.push(w);
    if (w !== "EXPLAIN" && w !== "ANALYZE" && w !== "ANALYSE") break;
  }
  const first = name[name.length - 1] ?? "";
  if (["SELECT", "WITH", "FROM", "VALUES", "TABLE"].includes(first) && name.length === 1)
    return `a ${first} that is not a query (it writes or changes the session)`;
  return name.join(" ") || "(no statement)";
}

/**
 * True when `sql` is `SHOW TABLES` (its parse: a SHOW_REF of "tables",
 * unqualified). DuckDB lists each relation once per database of the search
 * path, and a --db session has its views both in memory and in the stored
 * file, so the caller lists each name once. The SQL is a bound value.
 */
export async function isShowTables(db: Database, sql: string): Promise<boolean> {
  const row = await db.one("SELECT json_serialize_sql($query::VARCHAR) AS tree", { query: sql });
  const tree = JSON.parse(String(row?.tree ?? "{}")) as { error?: boolean; statements?: { node?: { from_table?: Record<string, unknown> } }[] };
  const from = tree.error ? undefined : tree.statements?.[0]?.node?.from_table;
  return from?.type === "SHOW_REF" && from.show_type === "SHOW_UNQUALIFIED" && from.table_name === '"tables"';
}

/**
 * The relations one query reads, from DuckDB's parse of it (json_serialize_sql:
 * neither binds nor runs): the names of the tables it names, lower case, or
 * null when it may read any relation of the session (it lists them, as SHOW
 * TABLES does, or names one with its catalog or schema, which only a
 * relation created under its name in the session's own schema answers). The
 * SQL is a bound value. Throws DuckDB's parser error when `sql` does not parse.
 */
export async function relationsRead(db: Database, sql: string): Promise<string[] | null> {
  const row = await db.one("SELECT json_serialize_sql($query::VARCHAR) AS tree", { query: sql });
  const tree = JSON.parse(String(row?.tree ?? "{}")) as { error?: boolean; statements?: unknown[] };
  if (tree.error) return null;
  const named = walk(tree.statements, { tables: [], tableFunctions: [], functions: [], ctes: [] });
  if (named.listsAll || named.tables.some((t) => t.catalog || t.schema)) return null;
  return [...new Set(named.tables.map((t) => t.name.toLowerCase()))];
}

/**
 * Why `sql` may not run in `denom query`, in words (`COPY`, `2 statements`,
 * `the table function read_text()`, `duckdb_databases (...)`), or null when it
 * is one read-only query. `relations` are the names a query may read (the
 * session's tables and views, lower case); without it (a bare session before
 * --db is read) table names are left to the binder and checked again later.
 * Decides from DuckDB's parser only (extractStatements, json_serialize_sql:
 * both parse and neither binds nor runs). Throws DuckDB's parser error when
 * `sql` does not parse.
 */
export async function refusal(db: Database, sql: string, relations?: ReadonlySet<string>): Promise<string | null> {
  const statements = (await db.connection.extractStatements(sql)).count;
  if (statements !== 1) return statements === 0 ? "an empty statement" : `${statements} statements`;
  const row = await db.one("SELECT json_serialize_sql($query::VARCHAR) AS tree", { query: sql });
  const tree = JSON.parse(String(row?.tree ?? "{}")) as { error?: boolean; error_message?: string; statements?: unknown[] };
  if (tree.error) return statementName(sql);
  const named = walk(tree.statements, { tables: [], tableFunctions: [], functions: [], ctes: [] });
  const fn = named.tableFunctions.find((f) => !TABLE_FUNCTIONS.has(f.toLowerCase()));
  if (fn !== undefined) return `the table function ${fn}() (a query reads the stored tables and views; ${[...TABLE_FUNCTIONS].join(", ")} generate rows)`;
  const session = named.functions.find((f) => SESSION_FUNCTIONS.has(f.toLowerCase()));
  if (session !== undefined) return `${session}(), which reads or changes the session's state`;
  const ctes = new Set(named.ctes.map((c) => c.toLowerCase()));
  for (const t of named.tables) {
    const known = relations === undefined || relations.has(t.name.toLowerCase()) || ctes.has(t.name.toLowerCase());
    if (!CATALOGS.has(t.catalog.toLowerCase()) || !SCHEMAS.has(t.schema.toLowerCase()) || !known)
      return `${[t.catalog, t.schema, t.name].filter(Boolean).join(".")} (a query reads the stored tables and denom's views: denom query --db FILE --schema lists them)`;
  }
  if (named.functions.length) {
    const own = await db.all(
      `SELECT DISTINCT function_name FROM duckdb_functions() WHERE NOT internal AND list_contains(from_json($names::VARCHAR, '["VARCHAR"]'), function_name)`,
      {
        names: JSON.stringify([...new Set(named.functions)]),
      },
    );
    if (own.length) return `${String(own[0].function_name)}(), a macro not defined by DuckDB`;
  }
  return null;
}
