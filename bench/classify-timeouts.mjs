#!/usr/bin/env node
// Times the timeout classifier (queries/intermediate/attempt_facts.sql, attempt_timeout_cause.sql) on
// generated data: N timeout attempts (default 1,000,000) with 10 events each, written
// straight into the loader's tables inside DuckDB (range(), no per-row JavaScript), then
// the classifier's relations made as a command makes them (a session over a temporary
// file under its memory limit: each relation a table or view of its own, in catalog order),
// and one query over attempt_timeout_cause. Run by hand after `npm run build`:
//   node bench/classify-timeouts.mjs [ATTEMPTS]
// Not part of `npm test`. The five patterns are spread evenly (attempt_id % 5), so the
// expected count of each cause is N / 5; the script checks it and says so.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { DEFAULT_DEFINITIONS, openSession } from "../dist/db/session.js";

const attempts = Number(process.argv[2] ?? 1_000_000);
const EVENTS = 10;

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(2);
}

let t = performance.now();
const session = await openSession({ temporary: true, definitions: DEFAULT_DEFINITIONS, load: generate });
const db = session.db;
console.log(`generated ${attempts.toLocaleString("en")} timeout attempts, ${(attempts * EVENTS).toLocaleString("en")} events in ${seconds(t)} s`);

t = performance.now();
await session.need(["attempt_timeout_cause"]);
const made = seconds(t);
t = performance.now();
const rows = await db.all("SELECT timeout_cause, count(*) AS attempts FROM attempt_timeout_cause GROUP BY timeout_cause ORDER BY timeout_cause");
console.log(`classified them in ${made} s (the classifier's relations made), then ${seconds(t)} s (SELECT timeout_cause, count(*) FROM attempt_timeout_cause)`);
for (const r of rows) console.log(`  ${String(r.timeout_cause).padEnd(9)} ${r.attempts}`);
const wrong = rows.filter((r) => r.attempts !== attempts / 5);
console.log(wrong.length || rows.length !== 5 ? "UNEXPECTED: each cause should hold N/5 attempts" : "each cause holds N/5 attempts, as generated");

t = performance.now();
await session.need(["timeout_causes"]);
await db.all("SELECT * FROM timeout_causes ORDER BY cause_order");
console.log(`the report's timeouts-by-cause relation (through attempts_classified) in ${seconds(t)} s more`);
session.close();

/** The loader's tables filled in SQL: N attempts, EVENTS events each. */
async function generate(db) {
  // pattern = attempt_id % 5: 0 queue (submitted 120 s before the start of a 300 s budget),
  // 1 external (last event an llm_request still pending), 2 loop (one call repeated with
  // its results between), 3 sluggish (gaps doubling), 4 unknown (distinct calls, even gaps)
  await db.run(`
    INSERT INTO attempts BY NAME
    SELECT
      i AS attempt_id, 1 AS source_id, i AS line, 'canonical' AS format, 'h' || i AS line_hash,
      't' || i AS task_id, 0 AS trial, 1 AS attempt, 'timeout' AS raw_status,
      TIMESTAMPTZ '2025-06-02 09:00:00+00' + to_seconds(i % 86400) AS started_at,
      TIMESTAMPTZ '2025-06-02 09:00:00+00' + to_seconds(i % 86400 + 300) AS ended_at,
      TIMESTAMPTZ '2025-06-02 09:00:00+00' + to_seconds(i % 86400 - CASE WHEN i % 5 = 0 THEN 120 ELSE 0 END) AS submitted_at,
      300.0 AS timeout_limit_s, ${EVENTS} AS event_count, 0 AS naive_timestamps, 0 AS non_finite
    FROM range(1, ${attempts} + 1) AS r(i)`);
  await db.run(`
    INSERT INTO events
    SELECT
      i AS attempt_id,
      s AS seq,
      TIMESTAMPTZ '2025-06-02 09:00:00+00' + to_seconds(i % 86400 + CASE i % 5 WHEN 3 THEN 2 ^ (s / 2 + 1) ELSE 10 * s + 5 END) AS ts,
      CASE
        WHEN i % 5 = 1 AND s = ${EVENTS - 1} THEN 'llm_request'
        WHEN s % 2 = 0 THEN 'tool_call'
        ELSE 'tool_result'
      END AS type,
      CASE WHEN i % 5 = 1 AND s = ${EVENTS - 1} THEN 'chat' ELSE 'read_file' END AS name,
      CASE
        WHEN s % 2 = 1 THEN NULL
        WHEN i % 5 = 2 THEN '{"path":"notes.txt"}'
        ELSE '{"path":"f' || s || '.txt"}'
      END AS args,
      CASE WHEN i % 5 = 1 AND s = ${EVENTS - 1} THEN 'pending' END AS status
    FROM range(1, ${attempts} + 1) AS r(i), range(0, ${EVENTS}) AS q(s)`);
}
