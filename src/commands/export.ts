/**
 * `denom export INPUT... [-o FILE|-] [--what ROWS] [--by FIELD]`: writes the rows
 * or figures of the views the report reads (EXPORT_WHAT) to CSV, TSV, Parquet or
 * JSON (the format from --format or FILE's extension) through DuckDB COPY, and
 * the meta block to FILE.meta.json beside it, so whoever opens the file can
 * recompute every denominator. Nothing is computed here: the rows are the views'
 * rows, without denom's internal columns.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Database, Session } from "../db/session.js";
import { copyFormatOf, copyTo, extensionFormat, NEUTRALISED, quoteName, type CopiedColumn, type CopyFormat } from "../db/session.js";
import { UsageError } from "../errors.js";
import type { RunsOptions } from "../ingest/runs.js";
import type { TextSink } from "../io.js";
import { commit, discard, stage, type Staged } from "../atomic.js";
import { makeScratch, removeScratch, scratchBeside } from "../scratch.js";
import { renderJson } from "../json.js";
import { groupingOf, readMeta, type Meta, type ReportData } from "./report.js";
import type { ExportWhat, GroupKey } from "../definitions.js";

export type { ExportWhat };

/** The figures `--by` splits (the rows of trials, attempts, ... carry run_id, agent, model themselves). */
const FIGURES: readonly ExportWhat[] = ["rates", "pass_at_k", "durations", "efficiency", "per_success", "per_call", "timeout_causes"];

export interface ExportOptions extends RunsOptions {
  /** the file to write, or `-` for `stdout`; its extension picks the format (.csv, .tsv, .parquet, .json, .jsonl/.ndjson) unless `outFormat` does */
  out: string;
  /** `--format`: the file's format, whatever its extension; null = from the extension (csv for `-`) */
  outFormat?: CopyFormat | null;
  /** where `-` writes the rows */
  stdout?: TextSink;
  what: ExportWhat;
  /** `--by`: the figures once per value of this field, the value in a first column named after it */
  by?: GroupKey | null;
  /** CSV: write formula-like text cells as they are instead of neutralising them */
  rawCsv: boolean;
  /** `--excel`: CSV/TSV for a spreadsheet: a UTF-8 byte order mark first (CRLF line ends as always) */
  excel?: boolean;
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
  if (options.out === "-") return options; // stdout: nothing to rename
  const temporary = scratchBeside(options.out);
  return { ...options, temporary, writable: { paths: [temporary] } };
}

/** What was written; FILE.meta.json holds `{export, meta, accounting}`. */
export interface ExportData {
  /** the file written, or `-` for stdout */
  file: string;
  /** FILE.meta.json; null when the rows went to stdout (no file beside them) */
  meta_file: string | null;
  what: ExportWhat;
  /**
   * the `--by` key the figures are split by; without --by, `identity` when the inputs hold
   * several agents, models or benchmarks (view run_groups: one row set per group, the group
   * named in a first column `group`); else null
   */
  by: GroupKey | "identity" | null;
  format: CopyFormat;
  /** `--excel`: a UTF-8 byte order mark first */
  excel: boolean;
  rows: number;
  columns: CopiedColumn[];
  /** CSV only: how formula-like cells were written; null for other formats */
  csv_formulas: string | null;
  /** lines read, records parsed and blank lines: the accounting view (no record = nothing to export, exit 1) */
  lines: number;
  records: number;
  blank: number;
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

/**
 * denom's own bookkeeping, left out of the trials and attempts rows: row ids, the
 * keys it groups and joins by (run_key is run_id with '' for none; run_id is
 * exported as written), the lower-cased status, the duplicate marks (these views
 * hold kept attempts only).
 */
const INTERNAL_COLUMNS = {
  attempts: ["attempt_id", "source_id", "line_hash", "run_key", "status_key", "is_kept", "duplicate_kind", "has_grader_error"],
  trials: ["run_key", "first_attempt_id", "final_attempt_id"],
};

/** `* EXCLUDE (...)` of the columns a view has among `internal` (a column a view stops having is no error). */
async function allBut(db: Database, relation: string, internal: string[], alias: string): Promise<string> {
  const has = new Set((await db.all(`DESCRIBE ${relation}`)).map((r) => r.column_name as string));
  const drop = internal.filter((c) => has.has(c)).map(quoteName);
  return drop.length ? `${alias}.* EXCLUDE (${drop.join(", ")})` : `${alias}.*`;
}

/** The relations each export reads (created in the session before its COPY). */
const EXPORT_READS: Record<ExportWhat, string[]> = {
  trials: ["trials"],
  attempts: ["attempts_classified"],
  rejects: [],
  timeouts: ["attempt_timeout_cause", "attempts_classified"],
  rates: ["rate_intervals", "trial_scopes"],
  pass_at_k: ["pass_at_k_intervals", "trial_scopes"],
  durations: ["efficiency", "duration_by_status", "trial_scopes"],
  efficiency: ["efficiency", "trial_scopes"],
  per_success: ["per_success", "trial_scopes"],
  per_call: ["call_outcomes", "trial_scopes"],
  timeout_causes: ["scoped_timeout_causes", "trial_scopes"],
};

async function selection(session: Session, what: ExportWhat, by: GroupKey | "identity" | null): Promise<Selection> {
  await session.need(EXPORT_READS[what]);
  const db: Database = session.db;
  // figures: scope 0 is every trial; with --by (or identity groups), scopes 1..n are the groups, named in a first column
  const scope = by ? `t.group_value AS ${quoteName(by === "identity" ? "group" : by)}, ` : "";
  const scoped = (view: string, columns: string, orderBy: string[]): Selection => ({
    select: `SELECT ${scope}${columns} FROM ${view} AS f JOIN trial_scopes AS t USING (scope_id) WHERE ${by ? "t.is_group" : "f.scope_id = 0"}`,
    orderBy: by ? ["scope_id", ...orderBy] : orderBy,
  });
  switch (what) {
    case "trials":
      return { select: `SELECT ${await allBut(db, "trials", INTERNAL_COLUMNS.trials, "t")} FROM trials AS t`, orderBy: ["run_id", "task_id", "trial"] };
    case "attempts":
      return {
        select: `SELECT s.name AS source, ${await allBut(db, "attempts_classified", INTERNAL_COLUMNS.attempts, "a")} FROM attempts_classified AS a JOIN sources AS s USING (source_id)`,
        orderBy: ["run_id", "task_id", "trial", "attempt"],
      };
    case "rejects":
      return {
        select: "SELECT s.name AS source, r.* EXCLUDE (source_id), r.source_id FROM rejects AS r JOIN sources AS s USING (source_id)",
        orderBy: ["source_id", "line", "location"],
      };
    case "timeouts": {
      const own = new Set((await db.all("DESCRIBE attempt_timeout_cause")).map((r) => r.column_name as string));
      const context = TIMEOUT_CONTEXT.filter((c) => !own.has(c))
        .map((c) => `a.${c}, `)
        .join("");
      return {
        select: `SELECT s.name AS source, ${context}c.* EXCLUDE (attempt_id, cause_order)
                 FROM attempt_timeout_cause AS c
                 JOIN attempts_classified AS a USING (attempt_id)
                 JOIN sources AS s ON s.source_id = a.source_id`,
        orderBy: ["run_id", "task_id", "trial", "attempt"],
      };
    }
    case "rates":
      // the grid with its 95% interval as two number columns
      return scoped(
        "rate_intervals",
        "f.scope_id, f.basis_order, f.step, f.basis, f.denominator, f.successes, f.count, f.rate, f.ci95[1] AS ci95_lo, f.ci95[2] AS ci95_hi, f.ci_method",
        ["basis_order", "step"],
      );
    case "pass_at_k":
      return scoped(
        "pass_at_k_intervals",
        `f.scope_id, f.k, f.pass_at_k, f.pass_at_k_ci95[1] AS pass_at_k_ci95_lo, f.pass_at_k_ci95[2] AS pass_at_k_ci95_hi,
         f.pass_hat_k, f.pass_hat_k_ci95[1] AS pass_hat_k_ci95_lo, f.pass_hat_k_ci95[2] AS pass_hat_k_ci95_hi, f.tasks, f.skipped, f.ci_method`,
        ["k"],
      );
    case "durations": {
      // over all attempts first (status 'all', view efficiency), then per attempt status
      const figures = "timed_attempts, duration_mean AS mean_s, duration_p50 AS p50_s, duration_p95 AS p95_s, duration_max AS max_s";
      return scoped(
        `(SELECT scope_id, 0 AS status_order, 'all' AS status, attempts, ${figures} FROM efficiency
          UNION ALL BY NAME
          SELECT scope_id, 1 AS status_order, status, attempts, ${figures} FROM duration_by_status)`,
        "f.scope_id, f.status_order, f.status, f.attempts, f.timed_attempts, f.mean_s, f.p50_s, f.p95_s, f.max_s",
        ["status_order", "status"],
      );
    }
    case "efficiency":
      return scoped("efficiency", "f.*", []);
    case "per_success": {
      // each interval as two number columns, as the rates' are
      const ci = (f: string) => `f.${f}_ci95[1] AS ${f}_ci95_lo, f.${f}_ci95[2] AS ${f}_ci95_hi`;
      return scoped(
        "per_success",
        `f.scope_id, f.step, f.denominator, f.tasks, f.trials, f.successes, f.attempts,
         f.cost_usd, f.cost_missing_attempts, f.cost_per_success_usd, ${ci("cost_per_success_usd")}, f.cost_lower_bound,
         f.llm_tokens, f.llm_tokens_missing_attempts, f.llm_tokens_per_success, ${ci("llm_tokens_per_success")}, f.llm_tokens_lower_bound,
         f.agent_time_s, f.untimed_attempts, f.agent_time_per_success_s, ${ci("agent_time_per_success_s")}, f.agent_time_lower_bound`,
        ["step"],
      );
    }
    case "per_call":
      return scoped("call_outcomes", "f.scope_id, f.type, f.status, f.calls, f.share", ["type", "status"]);
    case "timeout_causes":
      return scoped("scoped_timeout_causes", "f.scope_id, f.cause_order, f.timeout_cause, f.attempts, f.share", ["cause_order"]);
  }
}

/** Columns that only order the rows of a figure: dropped from the file (DuckDB COPY sorts by them first). */
const ORDER_ONLY = ["scope_id", "basis_order", "step", "status_order", "cause_order"];

/**
 * The format of the export, and checks made before anything is read: `--format`
 * or the extension of `--out` (CSV for stdout); FILE not one of the inputs;
 * `--by` only with figures; `--excel` only with CSV or TSV; no Parquet to a
 * terminal. Throws UsageError.
 */
export function exportFormat(options: Pick<ExportOptions, "out" | "outFormat" | "inputs" | "db" | "by" | "what" | "excel" | "stdout">): CopyFormat {
  const toStdout = options.out === "-";
  const format = options.outFormat ?? (toStdout ? "csv" : copyFormatOf(options.out));
  const named = toStdout ? null : extensionFormat(options.out);
  // a file named for one format never holds another in silence; an extension no format has is the user's choice
  if (options.outFormat && named !== null && named !== options.outFormat)
    throw new UsageError(
      `--format ${options.outFormat} -o ${options.out}: the file's name says ${named}; name it for ${options.outFormat}, or leave --format out`,
    );
  const target = resolve(options.out);
  if (!toStdout && [...options.inputs, options.db ?? ""].some((input) => input !== "-" && input !== "" && resolve(input) === target))
    throw new UsageError(`--out ${options.out}: that is an input; name another file`);
  if (options.by && !FIGURES.includes(options.what))
    throw new UsageError(
      `--by ${options.by} splits the figures (${FIGURES.join(", ")}); the rows of --what ${options.what} carry run_id, agent, model and category themselves`,
    );
  if (options.excel && format !== "csv" && format !== "tsv") throw new UsageError(`--excel writes CSV or TSV for a spreadsheet; ${format} is neither`);
  if (toStdout && format === "parquet" && options.stdout?.isTTY)
    throw new UsageError("--format parquet to a terminal: Parquet is binary; write it to a file with -o FILE.parquet, or pipe stdout");
  return format;
}

/**
 * Writes the export and FILE.meta.json from an open session, each first to a
 * temporary file beside it, both renamed into place only once both are whole:
 * a failed write leaves no partial file and an older export as it was. With
 * `-`, the rows go to stdout and no meta file is written. Throws as
 * exportFormat does, DataError naming the file when one cannot be written.
 */
export async function runExport(session: Session, options: ExportOptions): Promise<ExportData> {
  const format = exportFormat(options);
  if (options.out === "-") {
    // stdout: DuckDB writes a temporary file, copied to stdout whole
    const temp = makeScratch("export-");
    try {
      return await writeExport(session, options, format, join(temp, `rows.${format}`), null);
    } finally {
      removeScratch(temp);
    }
  }
  const staged: Staged<unknown>[] = [];
  const temporary = options.temporary ?? scratchBeside(options.out);
  try {
    return await writeExport(session, options, format, temporary, staged);
  } finally {
    discard(staged);
    removeScratch(temporary);
  }
}

/** Writes the rows (to `temporary`, staged onto `out`; or, `staged` null, to `temporary` then stdout) and the meta file. */
async function writeExport(
  session: Session,
  options: ExportOptions,
  format: CopyFormat,
  temporary: string,
  staged: Staged<unknown>[] | null,
): Promise<ExportData> {
  // without --by, figures of inputs that hold several agents, models or benchmarks are per identity group
  const groups = FIGURES.includes(options.what) ? (await session.select("report/trial_scopes")).filter((s) => s.scope_id !== 0).length : 0;
  const by: ExportData["by"] = options.by ?? (groups ? "identity" : null);
  const rows = async (path: string) => {
    const written = await copyTo(session.db, {
      ...(await selection(session, options.what, by)),
      drop: ORDER_ONLY,
      path,
      format,
      neutraliseFormulas: !options.rawCsv,
    });
    // a byte order mark tells a spreadsheet the file is UTF-8 (without it, Excel guesses the local code page)
    if (options.excel) writeFileSync(path, Buffer.concat([Buffer.from(UTF8_BOM), readFileSync(path)]));
    return written;
  };
  let written: Awaited<ReturnType<typeof rows>>;
  if (staged) {
    const data = await stage(options.out, rows, temporary);
    staged.push(data);
    written = data.result;
  } else {
    written = await rows(temporary);
    options.stdout?.write(format === "parquet" ? readFileSync(temporary) : readFileSync(temporary, "utf8"));
  }
  const meta: Meta = await readMeta(session, options.thresholds, options.statusMap, options.successThreshold ?? null, options.excludedTasks ?? null);
  meta.grouping = groupingOf(meta.pooling, by, groups, Boolean(options.pool));
  const accounting: ReportData["accounting"] = await session.selectOne("meta/accounting");
  const exported = {
    file: options.out,
    what: options.what,
    by,
    format,
    excel: Boolean(options.excel),
    rows: written.rows,
    columns: written.columns,
    csv_formulas: format !== "csv" && format !== "tsv" ? null : options.rawCsv ? "written as they are (--raw-csv)" : NEUTRALISED,
  };
  const metaFile = staged ? `${options.out}.meta.json` : null;
  if (staged && metaFile) {
    staged.push(await stage(metaFile, (path) => writeFileSync(path, renderJson({ export: exported, meta, accounting }))));
    commit(staged.splice(0));
  }
  const { lines, records, blank, rejected, broken_sources } = accounting;
  return { ...exported, meta_file: metaFile, lines, records, blank, rejected, broken_sources };
}

/** The UTF-8 byte order mark, EF BB BF. */
const UTF8_BOM = "\ufeff";
