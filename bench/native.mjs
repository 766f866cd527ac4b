#!/usr/bin/env node
// The native baseline of the ingest bench (issue 8): what a skilled user does by
// hand with DuckDB alone. Loads FILE (JSONL, or .jsonl.gz: read_json reads gzip
// itself) with `read_json` into typed `attempts` and `events` tables of denom's
// layout, then runs the same views (queries/*.sql, loaded as src/db/queries.ts
// does), computes the same base layers and the report queries. Bad lines are
// skipped with `ignore_errors` (counted by nobody: the baseline promises less).
// Prints one JSON line: attempts, events, final/total. Run after `npm run build`:
//   node bench/native.mjs FILE
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const { openSession, sqlString } = await import(join(dist, "db", "session.js"));
const { readReport } = await import(join(dist, "commands", "report.js"));

const file = process.argv[2];
const defs = { statusMap: {}, thresholds: { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 } };
let n;
// the session's ingest step, done by DuckDB's own read_json instead of denom's reader
const session = await openSession({ definitions: defs, load: async (db) => {

// timestamps read as text and cast explicitly (PERF-NOTES: auto-detection drops offsets)
const columns = `{run_id: 'VARCHAR', task_id: 'VARCHAR', trial: 'INTEGER', attempt: 'INTEGER', status: 'VARCHAR',
  submitted_at: 'VARCHAR', started_at: 'VARCHAR', ended_at: 'VARCHAR', timeout_limit_s: 'DOUBLE',
  llm_tokens: 'BIGINT', tool_call_count: 'INTEGER', cost_usd: 'DOUBLE', error_message: 'VARCHAR',
  events: 'STRUCT(ts VARCHAR, type VARCHAR, name VARCHAR, args JSON, status VARCHAR)[]'}`;
await db.run(`CREATE TEMP TABLE raw AS
  SELECT row_number() OVER () AS attempt_id, *
  FROM read_json(${sqlString(file)}, format = 'newline_delimited', ignore_errors = true, columns = ${columns})
  WHERE task_id IS NOT NULL`);
await db.run(`INSERT INTO attempts BY NAME
  SELECT attempt_id, 1 AS source_id, attempt_id AS line, 'canonical' AS format, run_id, task_id,
    coalesce(trial, 0) AS trial, coalesce(attempt, 1) AS attempt, status AS raw_status,
    submitted_at::TIMESTAMPTZ AS submitted_at, started_at::TIMESTAMPTZ AS started_at, ended_at::TIMESTAMPTZ AS ended_at,
    timeout_limit_s, llm_tokens, tool_call_count, cost_usd, error_message,
    len(events) AS event_count, 0 AS naive_timestamps, 0 AS non_finite
  FROM raw`);
await db.run(`INSERT INTO events BY NAME
  SELECT attempt_id, seq, e.ts::TIMESTAMPTZ AS ts, e.type, e.name, e.args::VARCHAR AS args, e.status
  FROM (SELECT attempt_id, generate_subscripts(events, 1) - 1 AS seq, unnest(events) AS e FROM raw)`);
await db.run("DROP TABLE raw");
n = await db.one("SELECT (SELECT count(*) FROM attempts) AS attempts, (SELECT count(*) FROM events) AS events");
await db.run(`INSERT INTO sources (source_id, name, format, physical_lines, lines, records, blank, rejected, attempts, non_finite)
  VALUES (1, ${sqlString(file)}, 'jsonl', ${n.attempts}, ${n.attempts}, ${n.attempts}, 0, 0, ${n.attempts}, 0)`);
} });
const report = await readReport(session, defs);
session.close();
const final = report.rates.find((r) => r.basis === "final" && r.denominator === "total");
console.log(JSON.stringify({ attempts: n.attempts, events: n.events, final_total: `${final.successes}/${final.count}` }));
