#!/usr/bin/env node
// Writes a synthetic attempt log of about SIZE_MB megabytes (default 1000) to
// bench/out/attempts-<size>mb.jsonl: canonical attempts with 3-10 events each,
// retries, timeouts, a few bad lines. Deterministic (seeded), so runs compare.
import { createWriteStream, mkdirSync, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const sizeMb = Number(process.argv[2] ?? 1000);
const out = join(dirname(fileURLToPath(import.meta.url)), "out", `attempts-${sizeMb}mb.jsonl`);
if (existsSync(out) && statSync(out).size >= sizeMb * 1e6) {
  console.log(out);
  process.exit(0);
}
mkdirSync(dirname(out), { recursive: true });

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const statuses = ["success", "success", "success", "failure", "timeout", "error"];
const tools = ["read_file", "search", "edit", "run_tests", "open"];
const t0 = Date.parse("2025-04-01T08:00:00Z");

const w = createWriteStream(out);
let written = 0;
let task = 0;
while (written < sizeMb * 1e6) {
  task++;
  const attempts = rand() < 0.2 ? 2 : 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const start = t0 + task * 1000 + attempt * 400_000;
    const n = 3 + Math.floor(rand() * 8);
    const events = [];
    for (let i = 0; i < n; i++) {
      events.push({
        ts: new Date(start + i * 7000 + Math.floor(rand() * 3000)).toISOString(),
        type: i % 2 ? "tool_result" : "tool_call",
        name: tools[Math.floor(rand() * tools.length)],
        args: { path: `src/file_${Math.floor(rand() * 50)}.py`, line: Math.floor(rand() * 400) },
      });
    }
    const status = statuses[Math.floor(rand() * statuses.length)];
    const rec = {
      run_id: "bench",
      task_id: `task-${task}`,
      trial: 0,
      attempt,
      status,
      submitted_at: new Date(start - 2000).toISOString(),
      started_at: new Date(start).toISOString(),
      ended_at: new Date(start + n * 7000 + 5000).toISOString(),
      timeout_limit_s: 300,
      llm_tokens: Math.floor(rand() * 40000),
      tool_call_count: Math.ceil(n / 2),
      cost_usd: Math.round(rand() * 1000) / 10000,
      error_message: status === "failure" ? "assertion failed: expected 3, got 4" : null,
      events,
    };
    let line = JSON.stringify(rec);
    if (task % 100_000 === 0) line = line.slice(0, 40); // a truncated line now and then
    line += "\n";
    written += Buffer.byteLength(line);
    if (!w.write(line)) await new Promise((r) => w.once("drain", r));
  }
}
w.end();
await new Promise((r) => w.once("finish", r));
console.log(out);
