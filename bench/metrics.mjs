#!/usr/bin/env node
// Times the metric views of issue 5 on synthetic multi-trial runs (run by hand, after
// `npm run build`; never by `npm test`):
//   node bench/metrics.mjs [TASKS=2000] [TRIALS=5]
// Writes TASKS x TRIALS trials (a fifth retried once, with times, tokens, cost and
// llm_call events) into a temporary file, loads it, and prints the wall time of each
// query the report runs for the metrics, the bootstrap (figure_intervals) above all.
// Figures are noisy on a shared machine: compare ratios measured in one run.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRuns } from "../dist/ingest/runs.js";
import { DEFAULT_THRESHOLDS } from "../dist/definitions.js";

const tasks = Number(process.argv[2] ?? 2000);
const trials = Number(process.argv[3] ?? 5);
let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const lines = [];
let t0 = Date.parse("2025-03-01T00:00:00Z") / 1000;
for (let t = 0; t < tasks; t++)
  for (let k = 1; k <= trials; k++) {
    const attempts = rnd() < 0.2 ? 2 : 1;
    for (let a = 1; a <= attempts; a++) {
      const status = a < attempts ? "timeout" : ["success", "failure", "timeout", "aborted"][Math.floor(rnd() * rnd() * 4)];
      const d = Math.floor(rnd() * 600) + 5;
      t0 += 3;
      lines.push(
        JSON.stringify({
          task_id: `task-${t}`,
          trial: k,
          attempt: a,
          status,
          agent: t % 3 ? "A" : "B",
          started_at: new Date(t0 * 1000).toISOString(),
          ended_at: new Date((t0 + d) * 1000).toISOString(),
          llm_tokens: Math.floor(rnd() * 50000),
          tool_call_count: Math.floor(rnd() * 30),
          cost_usd: Math.round(rnd() * 100) / 100,
          events: [{ ts: new Date(t0 * 1000).toISOString(), type: "llm_call", status: rnd() < 0.1 ? "timeout" : "ok" }],
        }),
      );
    }
  }
const dir = mkdtempSync(join(tmpdir(), "denom-bench-"));
const file = join(dir, "runs.jsonl");
writeFileSync(file, lines.join("\n") + "\n");
console.log(`${tasks} tasks x ${trials} trials = ${lines.length} attempts`);

for (const by of [null, "agent"]) {
  let start = Date.now();
  const session = await openRuns({ inputs: [file], statusMap: {}, thresholds: DEFAULT_THRESHOLDS, stdin: process.stdin, by });
  const db = session.db;
  console.log(`--by ${by ?? "(none)"}: load ${Date.now() - start} ms`);
  for (const view of ["rate_grid", "figure_intervals", "efficiency", "duration_by_status", "call_outcomes", "trial_inventory"]) {
    start = Date.now();
    await session.need([view]);
    const rows = await db.all(`SELECT * FROM ${view}`);
    console.log(`  ${view.padEnd(20)} ${String(Date.now() - start).padStart(7)} ms  ${rows.length} rows`);
  }
  db.close();
}
rmSync(dir, { recursive: true });
