/**
 * `denom export INPUT... --out FILE --what trials|attempts|rates|rejects|timeouts`:
 * writes the rows of the views the report reads to CSV, Parquet or JSON (the
 * format from FILE's extension) through DuckDB COPY, and the meta block to
 * FILE.meta.json beside it, so whoever opens the file can recompute every
 * denominator. Nothing is computed here: the rows are the views' rows.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Database, Session } from "../db/session.js";
import { UsageError } from "../errors.js";
import { commit, discard, stage, type Staged } from "../render/atomic.js";
import { removeScratch, scratchBeside } from "../scratch.js";
import { copyFormatOf, copyTo, NEUTRALISED, type CopiedColumn, type CopyFormat } from "../db/session.js";
import { renderJson } from "../render/json.js";
import { readMeta, type Meta, type ReportData } from "./report.js";
import type { RunsOptions } from "../ingest/runs.js";

/** What `--what` exports: trials (view trials), attempts (attempts_classified), rates (rate_intervals: the grid with ci95), rejects, timeouts (attempt_timeout_cause). */
export type ExportWhat = "trials" | "attempts" | "rates" | "rejects" | "timeouts";

export interface ExportOptions extends RunsOptions {
  /** the file to write; its extension picks the format (.csv, .parquet, .json, .jsonl/.ndjson) */
  out: string;
  what: ExportWhat;
  /** CSV: write formula-like text cells as they are instead of neutralising them */
  rawCsv: boolean;
  /**
   * Where the data is written before it is renamed onto `out` (exportStaging);
   * a session over `--db` must have been opened with it `writable`.
   */
  temporary?: string;
}

/**
 * The options with the temporary path the data will be written to (beside
 * `out`, so the rename onto it is atomic) and that path made `writable` for a
 * locked-down `--db` session (src/db/sandbox.ts). Call before opening the session.
 */
export function exportStaging<T extends ExportOptions>(options: T): T {
  const temporary = scratchBeside(options.out);
  return { ...options, temporary, writable: { paths: [temporary] } };
}

/** What was written; FILE.meta.json holds `{export, meta, accounting}`. */
export interface ExportData {
  file: string;
  meta_file: string;
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

/** The relations each export reads (created in the session before its COPY). */
const EXPORT_READS: Record<ExportWhat, string[]> = {
  trials: ["trials"],
  attempts: ["attempts_classified"],
  rates: ["rate_intervals"],
  rejects: [],
  timeouts: ["attempt_timeout_cause", "attempts_classified"],
};

async function selection(session: Session, what: ExportWhat): Promise<Selection> {
  await session.need(EXPORT_READS[what]);
  const db: Database = session.db;
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
 * The format `--out` names. Throws UsageError when the extension names no
 * format or FILE is one of the inputs; called before anything is read.
 */
export function exportFormat(options: Pick<ExportOptions, "out" | "inputs" | "db">): CopyFormat {
  const format = copyFormatOf(options.out);
  const target = resolve(options.out);
  if ([...options.inputs, options.db ?? ""].some((input) => input !== "-" && input !== "" && resolve(input) === target))
    throw new UsageError(`--out ${options.out}: that is an input; name another file`);
  return format;
}

/**
 * Writes the export and FILE.meta.json from an open session, each first to a
 * temporary file beside it, both renamed into place only once both are whole:
 * a failed write leaves no partial file and an older export as it was. Throws
 * as exportFormat does, DataError naming the file when one cannot be written.
 */
export async function runExport(session: Session, options: ExportOptions): Promise<ExportData> {
  const format = exportFormat(options);
  const staged: Staged<unknown>[] = [];
  const temporary = options.temporary ?? scratchBeside(options.out);
  try {
    return await writeExport(session, options, format, temporary, staged);
  } finally {
    discard(staged);
    removeScratch(temporary);
  }
}

async function writeExport(session: Session, options: ExportOptions, format: CopyFormat, temporary: string, staged: Staged<unknown>[]): Promise<ExportData> {
  const db = session.db;
  const data = await stage(options.out, async (path) => copyTo(db, { ...(await selection(session, options.what)), path, format, neutraliseFormulas: !options.rawCsv }), temporary);
  staged.push(data);
  const written = data.result;
  const meta: Meta = await readMeta(session, options.thresholds, options.statusMap);
  const accounting: ReportData["accounting"] = await session.selectOne("meta/accounting");
  const exported = {
    file: options.out,
    what: options.what,
    format,
    rows: written.rows,
    columns: written.columns,
    csv_formulas: format !== "csv" ? null : options.rawCsv ? "written as they are (--raw-csv)" : NEUTRALISED,
  };
  const metaFile = `${options.out}.meta.json`;
  staged.push(await stage(metaFile, (path) => writeFileSync(path, renderJson({ export: exported, meta, accounting }))));
  commit(staged.splice(0));
  return { ...exported, meta_file: metaFile, rejected: accounting.rejected, broken_sources: accounting.broken_sources };
}
