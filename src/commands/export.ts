/**
 * `denom export INPUT... --out FILE --what trials|attempts|rates|rejects|timeouts`:
 * writes the rows of the views the report reads to CSV, Parquet or JSON (the
 * format from FILE's extension) through DuckDB COPY, and the meta block to
 * FILE.meta.json beside it, so whoever opens the file can recompute every
 * denominator. Nothing is computed here: the rows are the views' rows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../db/database.js";
import { DataError, UsageError } from "../errors.js";
import type { TextSink } from "../io.js";
import { copyFormatOf, copyTo, NEUTRALISED, type CopiedColumn, type CopyFormat } from "../render/copy.js";
import { renderJson } from "../render/json.js";
import { readMeta, type Meta, type ReportData } from "./report.js";
import { loadRuns, type RunsOptions } from "./runs.js";

/** What `--what` exports: trials (view trials), attempts (attempts_classified), rates (rate_intervals: the grid with ci95), rejects, timeouts (attempt_timeout_cause). */
export type ExportWhat = "trials" | "attempts" | "rates" | "rejects" | "timeouts";

export interface ExportOptions extends RunsOptions {
  /** the file to write, or `-` for `stdout`; its extension picks the format (.csv, .tsv, .parquet, .json, .jsonl/.ndjson) unless `outFormat` does */
  out: string;
  /** `--format`: the file's format, whatever its extension; null = from the extension (csv for `-`) */
  outFormat?: CopyFormat | null;
  /** where `-` writes the rows */
  stdout?: TextSink;
  what: ExportWhat;
  /** CSV: write formula-like text cells as they are instead of neutralising them */
  rawCsv: boolean;
}

/** What was written; FILE.meta.json holds `{export, meta, accounting}`. */
export interface ExportData {
  /** the file written, or `-` for stdout */
  file: string;
  /** FILE.meta.json; null when the rows went to stdout (no file beside them) */
  meta_file: string | null;
  what: ExportWhat;
  format: CopyFormat;
  rows: number;
  columns: CopiedColumn[];
  /** CSV only: how formula-like cells were written; null for other formats */
  csv_formulas: string | null;
  /** lines rejected while reading the inputs (or when they were ingested into --db) */
  rejected: number;
  /** sources that broke part-way (a truncated gzip or tar); --strict fails on these too */
  broken_sources: number;
}

/** The rows of one export: a query over the views, and the columns that order it. */
interface Selection {
  select: string;
  orderBy: string[];
}

/**
 * Columns of the attempt placed before the timeout cause's own columns; those
 * the view already has are not repeated (its evidence columns are still growing).
 */
const TIMEOUT_CONTEXT = ["run_id", "task_id", "trial", "attempt", "line", "fault", "timeout_limit_s", "duration_s", "queue_wait_s"];

async function selection(db: Database, what: ExportWhat): Promise<Selection> {
  switch (what) {
    case "trials":
      return { select: "SELECT * FROM trials", orderBy: ["run_key", "task_id", "trial"] };
    case "attempts":
      return {
        select: "SELECT s.name AS source, a.* FROM attempts_classified AS a JOIN sources AS s USING (source_id)",
        orderBy: ["run_key", "task_id", "trial", "attempt"],
      };
    case "rates":
      // the grid with its 95% interval (rate_intervals, scope 0 = every trial) as two number columns
      return {
        select: `SELECT basis, denominator, basis_order, step, successes, count, rate,
                        ci95[1] AS ci95_lo, ci95[2] AS ci95_hi, ci_method
                 FROM rate_intervals WHERE scope_id = 0`,
        orderBy: ["basis_order", "step"],
      };
    case "rejects":
      return { select: "SELECT s.name AS source, r.* FROM rejects AS r JOIN sources AS s USING (source_id)", orderBy: ["source_id", "line", "location"] };
    case "timeouts": {
      const own = new Set((await db.all("DESCRIBE attempt_timeout_cause")).map((r) => r.column_name as string));
      const context = TIMEOUT_CONTEXT.filter((c) => !own.has(c)).map((c) => `a.${c}, `).join("");
      return {
        select: `SELECT s.name AS source, ${context}c.*
                 FROM attempt_timeout_cause AS c
                 JOIN attempts_classified AS a USING (attempt_id)
                 JOIN sources AS s ON s.source_id = a.source_id`,
        orderBy: ["run_id", "task_id", "trial", "attempt"],
      };
    }
  }
}

/**
 * Loads the runs (or opens `--db`), writes the export and FILE.meta.json (or
 * the rows to stdout for `-`, without a meta file). Throws UsageError when the
 * extension names no format, or for Parquet to a terminal; DataError when an input cannot be read or a file cannot be written.
 */
export async function runExport(options: ExportOptions): Promise<ExportData> {
  const toStdout = options.out === "-";
  const format = options.outFormat ?? (toStdout ? "csv" : copyFormatOf(options.out));
  if (toStdout && format === "parquet" && options.stdout?.isTTY)
    throw new UsageError("--format parquet to a terminal: Parquet is binary; write it to a file with -o FILE.parquet, or pipe stdout");
  const { db } = await loadRuns(options);
  // stdout: DuckDB writes a temporary file, copied to stdout whole
  const temp = toStdout ? mkdtempSync(join(tmpdir(), "denom-export-")) : null;
  try {
    const path = temp ? join(temp, `rows.${format}`) : options.out;
    const written = await copyTo(db, { ...(await selection(db, options.what)), path, format, neutraliseFormulas: !options.rawCsv });
    if (temp) options.stdout?.write(format === "parquet" ? readFileSync(path) : readFileSync(path, "utf8"));
    const meta: Meta = await readMeta(db, options.thresholds, options.statusMap);
    const accounting = (await db.one("SELECT * FROM accounting")) as unknown as ReportData["accounting"];
    const exported = {
      file: options.out,
      what: options.what,
      format,
      rows: written.rows,
      columns: written.columns,
      csv_formulas: format !== "csv" && format !== "tsv" ? null : options.rawCsv ? "written as they are (--raw-csv)" : NEUTRALISED,
    };
    const metaFile = toStdout ? null : `${options.out}.meta.json`;
    if (metaFile) {
      try {
        writeFileSync(metaFile, renderJson({ export: exported, meta, accounting }));
      } catch (e) {
        throw new DataError(`cannot write ${metaFile}: ${(e as Error).message}`);
      }
    }
    return { ...exported, meta_file: metaFile, rejected: accounting.rejected, broken_sources: accounting.broken_sources };
  } finally {
    db.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}
