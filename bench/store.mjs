#!/usr/bin/env node
// Times the commands of issue 6 on a synthetic input, by hand (never by npm test):
//   npm run build && node bench/store.mjs [ATTEMPTS]      default 200000
// Prints wall seconds per step, and checks that `report --db` prints the same
// JSON as `report` on the input. Compare ratios from one run: the machine is shared.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin.js");
const attempts = Number(process.argv[2] ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), "denom-bench-store-"));
const input = join(dir, "runs.jsonl");
const db = join(dir, "runs.duckdb");

// 20 runs of tasks; statuses and messages vary, some messages start with "=" (neutralised in CSV)
const statuses = ["success", "success", "success", "success", "failure", "timeout", "error"];
const lines = [];
for (let i = 0; i < attempts; i++) {
  const status = statuses[(i * 7919) % statuses.length];
  const start = 1_700_000_000 + (i % 10_000);
  lines.push(
    JSON.stringify({
      run_id: `r${i % 20}`,
      task_id: `t${Math.floor(i / 20)}`,
      status,
      started_at: start,
      ended_at: start + 10 + ((i * 31) % 290),
      timeout_limit_s: 300,
      llm_tokens: 100 + ((i * 13) % 9000),
      error_message: status === "success" ? null : `=oops, "quoted" ${i}`,
    }),
  );
}
writeFileSync(input, `${lines.join("\n")}\n`);

function step(label, args, stdoutFile) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  const s = ((performance.now() - t0) / 1000).toFixed(2);
  if (r.status !== 0) throw new Error(`${label}: exit ${r.status}\n${r.stderr}`);
  console.log(`${label.padEnd(38)} ${s.padStart(7)} s`);
  return r.stdout;
}

console.log(`input: ${attempts} attempts, ${(statSync(input).size / 1e6).toFixed(1)} MB`);
const direct = step("report INPUT --json", ["report", input, "--json"]);
step("ingest INPUT --db (new)", ["ingest", input, "--db", db]);
step("ingest INPUT --db (known: hash only)", ["ingest", input, "--db", db]);
const stored = step("report --db --json", ["report", "--db", db, "--json"]);
step("export --db attempts .csv", ["export", "--db", db, "--out", join(dir, "attempts.csv"), "--what", "attempts"]);
step("export --db trials .parquet", ["export", "--db", db, "--out", join(dir, "trials.parquet")]);
step("query --db count(*) trials", ["query", "--db", db, "SELECT count(*) FROM trials"]);
console.log(`report --db equals report INPUT: ${stored === direct}`);
console.log(`database file: ${(statSync(db).size / 1e6).toFixed(1)} MB`);
rmSync(dir, { recursive: true, force: true });
