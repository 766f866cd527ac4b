/**
 * The file renderer: CSV, Parquet and JSON written by DuckDB's own COPY, so
 * quoting, encoding and number formatting are DuckDB's (RFC 4180 CSV in UTF-8,
 * CRLF between records, a header row; numbers as numbers, a rate as 0.875).
 */
import { extname } from "node:path";
import { sqlString, type Database } from "./database.js";
import { DataError, UsageError, duckdbMessage } from "../errors.js";

export type CopyFormat = "csv" | "tsv" | "parquet" | "json" | "jsonl";

const FORMAT_BY_EXTENSION: Record<string, CopyFormat> = {
  ".csv": "csv",
  ".tsv": "tsv",
  ".parquet": "parquet",
  ".json": "json",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
};

/** DuckDB COPY options per format: `.json` is one array, `.jsonl` one object per line. */
const COPY_OPTIONS: Record<CopyFormat, string> = {
  csv: "FORMAT csv, HEADER true, NEW_LINE '\\r\\n'",
  tsv: "FORMAT csv, HEADER true, DELIMITER '\\t', NEW_LINE '\\r\\n'",
  parquet: "FORMAT parquet",
  json: "FORMAT json, ARRAY true",
  jsonl: "FORMAT json",
};

/**
 * First characters that make a spreadsheet run a cell as a formula (OWASP "CSV
 * injection"): `=`, `+`, `-`, `@`, tab, carriage return.
 */
const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r"];

/** How a neutralised cell reads, for the meta file and the help. */
export const NEUTRALISED =
  "text cells starting with = + - @ tab or carriage return are prefixed with an apostrophe (') so a spreadsheet shows them as text, plain numbers such as -5 or -2.5e3 excepted; --raw-csv writes them as they are";

/** The format a file's extension names (.csv, .tsv, .parquet, .json, .jsonl, .ndjson, any case), or null for another extension. */
export function extensionFormat(path: string): CopyFormat | null {
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

/** The format named by a file's extension. Throws UsageError naming `flag` for any other extension. */
export function copyFormatOf(path: string, flag = "--out"): CopyFormat {
  const ext = extname(path).toLowerCase();
  const format = FORMAT_BY_EXTENSION[ext];
  if (!format)
    throw new UsageError(
      `${flag} ${path}: cannot tell the format from "${ext || "(no extension)"}"; name the file .csv, .tsv, .parquet, .json or .jsonl, or give --format`,
    );
  return format;
}

/** A column of a written file, with its DuckDB type (BIGINT, DOUBLE, VARCHAR, TIMESTAMP WITH TIME ZONE, ...). */
export interface CopiedColumn {
  name: string;
  type: string;
}

export interface CopyRequest {
  /** one query (a SELECT, `FROM view`, ...); its own ORDER BY is kept when `orderBy` is absent */
  select: string;
  /** output columns to sort by; they order the raw values, before neutralising */
  orderBy?: string[];
  /** output columns left out of the file (sort keys and ids); names the query lacks are ignored */
  drop?: readonly string[];
  path: string;
  format: CopyFormat;
  /** CSV and TSV only: prefix formula-like text cells with an apostrophe (see NEUTRALISED) */
  neutraliseFormulas: boolean;
}

/**
 * A plain number as text (`-5`, `+3`, `-2.5e3`, `.5`): a spreadsheet reads it as
 * that number and runs nothing, so it is never neutralised.
 */
const PLAIN_NUMBER = "^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$";

/** The type a TIMESTAMP WITH TIME ZONE column has in a text file. */
const ISO_TEXT = "VARCHAR (ISO 8601 UTC)";

/**
 * Writes the rows of `select` to `path` with DuckDB COPY (an existing file is
 * replaced) and returns the row count and the columns written. Neutralising
 * happens in SQL, on VARCHAR columns only, so numbers stay numbers. Outside
 * Parquet (which keeps the type), a TIMESTAMP WITH TIME ZONE is written in ISO
 * 8601 UTC: `2025-04-01T08:00:01Z`, with microseconds when it has any
 * (`...01.250000Z`). Throws DataError when the file cannot be written.
 */
export async function copyTo(db: Database, request: CopyRequest): Promise<{ rows: number; columns: CopiedColumn[] }> {
  // newlines around the query so a trailing `-- comment` cannot swallow the parenthesis
  const from = `(\n${request.select}\n) AS copied`;
  const described = (await db.all(`DESCRIBE SELECT * FROM ${from}`)).map((r) => ({ name: r.column_name as string, type: r.column_type as string }));
  const drop = described.filter((c) => request.drop?.includes(c.name)).map((c) => c.name);
  const columns = described.filter((c) => !drop.includes(c.name));
  const text = request.format !== "parquet";
  const replaced: string[] = [];
  if ((request.format === "csv" || request.format === "tsv") && request.neutraliseFormulas)
    for (const c of columns.filter((c) => c.type === "VARCHAR")) replaced.push(`${neutralised(c.name)} AS ${quoteName(c.name)}`);
  if (text) for (const c of columns.filter((c) => c.type === "TIMESTAMP WITH TIME ZONE")) replaced.push(`${isoUtc(c.name)} AS ${quoteName(c.name)}`);
  const exclude = drop.length ? ` EXCLUDE (${drop.map(quoteName).join(", ")})` : "";
  const replace = replaced.length ? ` REPLACE (${replaced.join(", ")})` : "";
  // qualified names in ORDER BY bind to the rows before EXCLUDE and REPLACE, so neutralising never reorders them
  const order = request.orderBy?.length ? ` ORDER BY ${request.orderBy.map((c) => `copied.${quoteName(c)}`).join(", ")}` : "";
  // the path is a bound parameter: a quote or semicolon in a file name cannot change the statement
  const sql = `COPY (SELECT *${exclude}${replace} FROM ${from}${order}) TO $path (${COPY_OPTIONS[request.format]})`;
  let rows: number;
  try {
    rows = Number((await db.one(sql, { path: request.path }))?.Count ?? 0);
  } catch (e) {
    throw new DataError(`cannot write ${request.path}: ${duckdbMessage(e)}`, { cause: e });
  }
  return { rows, columns: columns.map((c) => (text && c.type === "TIMESTAMP WITH TIME ZONE" ? { ...c, type: ISO_TEXT } : c)) };
}

function neutralised(name: string): string {
  const column = `copied.${quoteName(name)}`;
  const starts = FORMULA_STARTS.map((ch) => (ch === "\t" ? "chr(9)" : ch === "\r" ? "chr(13)" : sqlString(ch))).join(", ");
  return `CASE WHEN left(${column}, 1) IN (${starts}) AND NOT regexp_matches(${column}, ${sqlString(PLAIN_NUMBER)}) THEN '''' || ${column} ELSE ${column} END`;
}

/** A TIMESTAMP WITH TIME ZONE column as ISO 8601 text in UTC, microseconds only when there are any. */
function isoUtc(name: string): string {
  const utc = `timezone('UTC', copied.${quoteName(name)})`;
  return `CASE WHEN microsecond(${utc}) % 1000000 = 0 THEN strftime(${utc}, '%Y-%m-%dT%H:%M:%SZ') ELSE strftime(${utc}, '%Y-%m-%dT%H:%M:%S.%fZ') END`;
}

/** Quotes an identifier for SQL. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
