/**
 * The sandbox of every session that reads a `--db` file, and of the SQL
 * `denom query` runs (issue 16). DuckDB can read and write any file the user
 * can, fetch URLs and install extensions; a session that runs SQL from a
 * command line, or reads a file someone else wrote, must do none of that:
 *  - `lockDown` shuts the session off from the file system and the network
 *    (enable_external_access = false; extensions neither autoloaded nor
 *    autoinstalled), except the session's own spill folder and the paths denom
 *    itself writes (an export being staged), and locks the configuration so no
 *    statement can undo it;
 *  - `refusal` judges a statement by what it does, from its text, without
 *    preparing it (preparing `EXPORT DATABASE` creates its folder): a query
 *    (SELECT, WITH, FROM, VALUES, TABLE, PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE,
 *    SHOW) and EXPLAIN [ANALYZE] of one read; anything else (COPY, EXPORT,
 *    ATTACH, INSTALL, LOAD, CALL, PRAGMA, SET, CHECKPOINT, CREATE, INSERT...)
 *    is refused before DuckDB sees it run.
 */
import type { Database } from "./database.js";
import { sqlString } from "./database.js";

/** What a locked session may still write: folders (a trailing `/` is added) and single files. */
export interface Writable {
  directories?: readonly string[];
  paths?: readonly string[];
}

/**
 * Applies the sandbox to `db`; afterwards no setting can change (lock_configuration).
 * Files already attached (the `--db` file, READ_ONLY) stay readable.
 */
export async function lockDown(db: Database, writable: Writable = {}): Promise<void> {
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

/** Statements that are queries whatever follows their first word. */
const READ_STATEMENTS = new Set(["PIVOT", "PIVOT_WIDER", "UNPIVOT", "PIVOT_LONGER", "SUMMARIZE", "DESCRIBE", "DESC", "SHOW"]);
/** Statements that start like a query but may hide a write (`WITH ... INSERT`): the parser has the last word. */
const QUERY_STATEMENTS = new Set(["SELECT", "WITH", "FROM", "VALUES", "TABLE"]);

/**
 * The statements of `sql` as its text separates them: semicolons outside
 * quotes ('...', "...", E'...' with backslash escapes, $tag$...$tag$) and
 * comments, empty pieces dropped. DuckDB's own count can be higher: it expands
 * a PIVOT whose values are not listed into a statement that first collects them.
 */
export function countStatements(sql: string): number {
  let count = 0;
  let piece = false;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === ";") {
      if (piece) count++;
      piece = false;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? sql.length : nl;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 1;
      continue;
    }
    piece = true;
    if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? "") && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? "");
      for (i++; i < sql.length; i++) {
        if (escapes && sql[i] === "\\") i++;
        else if (sql[i] === c) {
          if (sql[i + 1] === c) i++;
          else break;
        }
      }
      continue;
    }
    if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        i = end < 0 ? sql.length : end + tag.length - 1;
      }
    }
  }
  return count + (piece ? 1 : 0);
}

/**
 * `sql` (one statement) without its leading comments, blanks and opening
 * parentheses, and its first word in upper case.
 */
function firstWord(sql: string): { word: string; rest: string } {
  let s = sql;
  for (;;) {
    const t = s.replace(/^[\s(]+/, "");
    if (t.startsWith("--")) s = t.slice(t.indexOf("\n") < 0 ? t.length : t.indexOf("\n") + 1);
    else if (t.startsWith("/*")) s = t.slice(t.indexOf("*/") < 0 ? t.length : t.indexOf("*/") + 2);
    else {
      s = t;
      break;
    }
  }
  const m = /^[A-Za-z_]+/.exec(s);
  return { word: (m?.[0] ?? "").toUpperCase(), rest: s.slice(m?.[0].length ?? 0) };
}

/**
 * Why `sql` (one statement) may not run in `denom query`, in words (`COPY`,
 * `EXPLAIN ANALYZE COPY`, `a WITH that writes`), or null when it only reads.
 * Reads the text and DuckDB's parser (json_serialize_sql, which parses and
 * never binds or runs); never prepares the statement.
 */
export async function refusal(db: Database, sql: string): Promise<string | null> {
  if (countStatements(sql) > 1) return "several statements";
  let { word, rest } = firstWord(sql);
  const said: string[] = [];
  while (word === "EXPLAIN") {
    said.push("EXPLAIN");
    ({ word, rest } = firstWord(rest));
    if (word === "ANALYZE" || word === "ANALYSE") {
      said.push("ANALYZE");
      ({ word, rest } = firstWord(rest));
    }
  }
  const name = [...said, word || "(no statement)"].join(" ");
  if (READ_STATEMENTS.has(word)) return null;
  if (!QUERY_STATEMENTS.has(word)) return name;
  // the query itself, as the parser reads it: only a SELECT serializes
  const query = sql.slice(sql.length - rest.length - word.length);
  const row = await db.one("SELECT json_serialize_sql($query::VARCHAR) AS tree", { query });
  const tree = JSON.parse(String(row?.tree ?? "{}")) as { error?: boolean; error_message?: string };
  if (tree.error && /only select statements/i.test(tree.error_message ?? "")) return `a ${word} that is not a query (it writes or changes the session)`;
  return null;
}
