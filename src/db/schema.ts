/**
 * The tables denom loads (docs/architecture.md): `sources`, `attempts`, `events`,
 * `rejects`, `run_metadata`, `run_logs`, `owed_trials`, `skipped_files`, `duplicate_keys` and `masked_secrets`, with their
 * columns in order. This is the one declaration of them: CREATE TABLE, the
 * check of a kept `--db` file and the loader's appenders all come from it
 * (src/ingest/load/loader.ts checks at load that the attempts columns follow the
 * canonical record's fields, src/formats/canonical-record.ts).
 */
import type { Database } from "./database.js";

export type SqlType = "VARCHAR" | "BIGINT" | "INTEGER" | "DOUBLE" | "BOOLEAN" | "TIMESTAMPTZ";

export interface Column {
  name: string;
  type: SqlType;
}

const c = (name: string, type: SqlType): Column => ({ name, type });

/** Every table denom loads, with its columns in order. */
export const TABLES: Record<string, Column[]> = {
  sources: [
    c("source_id", "INTEGER"),
    c("name", "VARCHAR"),
    c("sha256", "VARCHAR"),
    c("bytes", "BIGINT"),
    c("format", "VARCHAR"),
    c("physical_lines", "BIGINT"),
    c("lines", "BIGINT"),
    c("records", "BIGINT"),
    c("blank", "BIGINT"),
    c("rejected", "BIGINT"),
    c("attempts", "BIGINT"),
    c("non_finite", "BIGINT"),
    c("problem", "VARCHAR"),
    c("loaded_at", "TIMESTAMPTZ"),
    c("adapter", "VARCHAR"),
  ],
  attempts: [
    c("attempt_id", "BIGINT"),
    c("source_id", "INTEGER"),
    c("line", "BIGINT"),
    c("location", "VARCHAR"),
    c("format", "VARCHAR"),
    c("line_hash", "VARCHAR"),
    // the canonical fields, in ATTEMPT_FIELDS order (`status` kept as written: raw_status)
    c("run_id", "VARCHAR"),
    c("task_id", "VARCHAR"),
    c("trial", "INTEGER"),
    c("attempt", "INTEGER"),
    c("raw_status", "VARCHAR"),
    c("status_detail", "VARCHAR"),
    c("fault", "VARCHAR"),
    c("submitted_at", "TIMESTAMPTZ"),
    c("started_at", "TIMESTAMPTZ"),
    c("ended_at", "TIMESTAMPTZ"),
    c("timeout_limit_s", "DOUBLE"),
    c("last_event", "VARCHAR"),
    c("last_event_ts", "TIMESTAMPTZ"),
    c("repeated_tool_calls", "INTEGER"),
    c("llm_tokens", "BIGINT"),
    c("tool_call_count", "INTEGER"),
    c("cost_usd", "DOUBLE"),
    c("score", "DOUBLE"),
    c("resolved", "BOOLEAN"),
    c("constraint_ok", "BOOLEAN"),
    c("grader_error", "VARCHAR"),
    c("error_message", "VARCHAR"),
    c("agent", "VARCHAR"),
    c("model", "VARCHAR"),
    c("category", "VARCHAR"),
    c("difficulty", "VARCHAR"),
    c("event_count", "INTEGER"),
    c("naive_timestamps", "INTEGER"),
    c("non_finite", "INTEGER"),
    c("extra", "VARCHAR"),
    // canonical fields added after kept files were written (FieldSpec.late, in ATTEMPT_FIELDS order): a file gains them (stored.ts)
    c("waiting_s", "DOUBLE"),
    c("invocation", "VARCHAR"),
  ],
  events: [
    c("attempt_id", "BIGINT"),
    c("seq", "INTEGER"),
    c("ts", "TIMESTAMPTZ"),
    c("type", "VARCHAR"),
    c("name", "VARCHAR"),
    c("args", "VARCHAR"),
    c("status", "VARCHAR"),
  ],
  rejects: [c("source_id", "INTEGER"), c("line", "BIGINT"), c("location", "VARCHAR"), c("reason", "VARCHAR"), c("excerpt", "VARCHAR")],
  run_metadata: [c("source_id", "INTEGER"), c("run_id", "VARCHAR"), c("agent", "VARCHAR"), c("model", "VARCHAR"), c("concurrency", "INTEGER")],
  // a harness log's own account of its run (formats/types.ts RunLog, read from its header), one row per log
  run_logs: [
    c("source_id", "INTEGER"),
    c("run_id", "VARCHAR"),
    c("invocation", "VARCHAR"),
    c("task", "VARCHAR"),
    c("model", "VARCHAR"),
    c("status", "VARCHAR"),
    c("error_message", "VARCHAR"),
    c("total_samples", "BIGINT"),
    c("completed_samples", "BIGINT"),
    c("incomplete", "BOOLEAN"),
    c("owed_trials", "BIGINT"),
    c("dict_score_trials", "BIGINT"),
    c("score_keys", "VARCHAR"),
    c("detail", "VARCHAR"),
  ],
  // the trials a run owes (formats/types.ts OwedTrials); those with no attempt enter total as missing.
  // One row: a trial of a task (`trial`), or `trials` of a task (0..trials-1), or (task_id null) of the
  // run in all. promised_by: who said so, `run_log` (a log's own header: its sample ids x epochs)
  // or `run_metadata` (a run's description: a trial count, or tasks x trials per task).
  // trials and promised_by came after kept files were written (stored.ts LATE_COLUMNS)
  owed_trials: [
    c("source_id", "INTEGER"),
    c("run_id", "VARCHAR"),
    c("task_id", "VARCHAR"),
    c("trial", "INTEGER"),
    c("trials", "BIGINT"),
    c("promised_by", "VARCHAR"),
  ],
  // top_keys: a JSON list of the top-level keys of a side file no format reads (null for other skips)
  skipped_files: [c("name", "VARCHAR"), c("reason", "VARCHAR"), c("top_keys", "VARCHAR")],
  // keys written twice in one JSON object: one row per repeat; the last value was read, as JSON.parse does
  duplicate_keys: [c("source_id", "INTEGER"), c("line", "BIGINT"), c("location", "VARCHAR"), c("key", "VARCHAR")],
  // secrets masked at ingest (secrets.ts): one row per line (or source name) and kind; the secrets themselves are never stored
  masked_secrets: [c("source_id", "INTEGER"), c("line", "BIGINT"), c("location", "VARCHAR"), c("kind", "VARCHAR"), c("secrets", "INTEGER")],
};

/**
 * Creates the tables (all, or the ones named) when missing (a `--db` file keeps
 * them between runs): one script of CREATE statements, one round trip to DuckDB.
 */
export async function createTables(db: Database, tables: readonly string[] = Object.keys(TABLES)): Promise<void> {
  if (tables.length === 0) return;
  await db.run(tables.map((table) => `CREATE TABLE IF NOT EXISTS ${table} (${TABLES[table].map((col) => `${col.name} ${col.type}`).join(", ")});`).join("\n"));
}
