#!/usr/bin/env node
// The plain DuckDB contender of bench/vs-duckdb.mjs (issue 20): what a skilled
// user types with DuckDB alone, nothing of denom. `read_json` loads FILE (JSONL,
// or .jsonl.gz: read_json reads gzip itself) into typed `attempts` and `events`
// tables (timestamps read as text and cast, PERF-NOTES), then the rate grid in
// plain SQL: each trial's first and final attempt (lowest and highest attempt
// number), successes over total, valid (no invalid status), attributable (no
// error) and completable (no timeout either), on both bases. Bad lines are
// skipped silently (`ignore_errors`): the baseline accounts for nothing.
// Prints one JSON line: attempts, events, final/total and the grid. Run:
//   node bench/plain-duckdb.mjs FILE [--threads N]
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { DuckDBInstance } from "@duckdb/node-api";

const args = process.argv.slice(2);
const file = args[0];
const threads = args.includes("--threads") ? args[args.indexOf("--threads") + 1] : undefined;
const instance = await DuckDBInstance.create(":memory:", threads ? { threads } : {});
const db = await instance.connect();
const all = async (sql, values) => (await db.runAndReadAll(sql, values)).getRowObjectsJson();

await db.run("SET TimeZone = 'UTC'");
await db.run(
  `CREATE TABLE raw AS
  SELECT row_number() OVER () AS attempt_id, *
  FROM read_json($file, format = 'newline_delimited', ignore_errors = true, columns = {
    run_id: 'VARCHAR', task_id: 'VARCHAR', trial: 'INTEGER', attempt: 'INTEGER', status: 'VARCHAR',
    submitted_at: 'VARCHAR', started_at: 'VARCHAR', ended_at: 'VARCHAR', timeout_limit_s: 'DOUBLE',
    llm_tokens: 'BIGINT', tool_call_count: 'INTEGER', cost_usd: 'DOUBLE', error_message: 'VARCHAR',
    events: 'STRUCT(ts VARCHAR, type VARCHAR, name VARCHAR, args JSON, status VARCHAR)[]'})
  WHERE task_id IS NOT NULL`,
  { file },
);
await db.run(`CREATE TABLE attempts AS
  SELECT * EXCLUDE (events, submitted_at, started_at, ended_at),
    submitted_at::TIMESTAMPTZ AS submitted_at, started_at::TIMESTAMPTZ AS started_at, ended_at::TIMESTAMPTZ AS ended_at
  FROM raw`);
await db.run(`CREATE TABLE events AS
  SELECT attempt_id, generate_subscripts(events, 1) - 1 AS seq, e.ts::TIMESTAMPTZ AS ts, e.type, e.name, e.args::VARCHAR AS args, e.status
  FROM (SELECT attempt_id, events, unnest(events) AS e FROM raw)`);
await db.run("DROP TABLE raw");
const [counts] = await all("SELECT (SELECT count(*) FROM attempts) AS attempts, (SELECT count(*) FROM events) AS events");
const grid = await all(`
  WITH trials AS (
    SELECT run_id, task_id, trial,
      arg_min(status, attempt) AS first_status, arg_max(status, attempt) AS final_status
    FROM attempts GROUP BY ALL
  ), by_basis AS (
    SELECT 'first' AS basis, first_status AS status FROM trials
    UNION ALL SELECT 'final', final_status FROM trials
  )
  SELECT basis,
    count(*) FILTER (status = 'success') AS successes,
    count(*) AS total,
    count(*) FILTER (status <> 'invalid') AS valid,
    count(*) FILTER (status NOT IN ('invalid', 'error')) AS attributable,
    count(*) FILTER (status NOT IN ('invalid', 'error', 'timeout')) AS completable
  FROM by_basis GROUP BY basis ORDER BY basis DESC`);
const final = grid.find((r) => r.basis === "final");
console.log(JSON.stringify({ attempts: counts.attempts, events: counts.events, final_total: `${final.successes}/${final.total}`, grid }));
