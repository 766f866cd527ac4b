#!/usr/bin/env node
// denom's phases on a synthetic attempt log (bench/generate.mjs, default 1000 MB),
// in this process and in memory: reading + loading, computing the base layers,
// and the report queries, with MB/s and peak RSS. For profiling one phase
// (`node --cpu-prof bench/phases.mjs 200`); bench/ingest.mjs is the benchmark.
// With --relations, the relations of queries/ are instead created one at a time in
// catalog order (Session.need), so each figure is that relation's own cost: wall and
// CPU seconds of the process (DuckDB's threads included), the costliest first.
// --file FILE measures FILE instead of a generated log (e.g. the output of
// ../shared/bench/gen_attempts.mjs, several trials per task as real evaluations run).
// Not part of npm test. Run after `npm run build`:
//   node bench/phases.mjs 200  # 200 MB
//   node bench/phases.mjs 200 --relations
//   node bench/phases.mjs --file attempts.jsonl --relations
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
const { openSession } = await import(join(dist, "db", "session.js"));
const { queryCatalog } = await import(join(dist, "db", "queries.js"));
const { ingest } = await import(join(dist, "ingest", "ingest.js"));
const { readReport } = await import(join(dist, "commands", "report.js"));

const argv = process.argv.slice(2);
const fileAt = argv.indexOf("--file");
let file;
if (fileAt >= 0) {
  file = argv[fileAt + 1];
  if (!file) {
    console.error("--file needs a file name");
    process.exit(2);
  }
} else {
  const sizeMb = argv.find((a) => !a.startsWith("--")) ?? "1000";
  const gen = spawnSync(process.execPath, [join(here, "generate.mjs"), sizeMb], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (gen.status !== 0) process.exit(gen.status ?? 1);
  file = gen.stdout.trim();
}
const bytes = statSync(file).size;

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
const defs = { statusMap: {}, thresholds: { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 } };
const phases = [];
const time = async (name, fn) => {
  const t = process.hrtime.bigint();
  const r = await fn();
  phases.push([name, Number(process.hrtime.bigint() - t) / 1e9]);
  return r;
};

let rejected = 0;
let result;
const session = await openSession({
  definitions: defs,
  load: (db) => time("read + load", async () => (result = await ingest(db, [file], { stdin: process.stdin, onReject: () => rejected++ }))),
});
const intermediate = queryCatalog()
  .relations.filter((r) => r.layer === "staging" || r.layer === "intermediate")
  .map((r) => r.name);
if (process.argv.includes("--relations")) {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const costs = [];
  for (const r of queryCatalog().relations) {
    const [t, c] = [performance.now(), cpu()];
    await session.need([r.name]);
    costs.push([`${r.layer}/${r.name}`, (performance.now() - t) / 1000, cpu() - c]);
  }
  console.log("   wall     CPU  relation (its own cost, costliest first)");
  for (const [name, w, c] of costs.sort((a, b) => b[2] - a[2]).slice(0, 25)) console.log(`${w.toFixed(2).padStart(7)} ${c.toFixed(2).padStart(7)}  ${name}`);
} else await time("base layers", () => session.need(intermediate));
const report = await time("report queries", () => readReport(session, defs));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
session.close();

const total = phases.reduce((s, [, t]) => s + t, 0);
console.log(`input: ${file}`);
console.log(`       ${(bytes / 1e6).toFixed(0)} MB, ${report.accounting.lines} lines, ${result.attempts} attempts, ${rejected} rejected`);
for (const [name, t] of phases) console.log(`${name.padEnd(16)} ${t.toFixed(2).padStart(7)} s`);
console.log(
  `${"total".padEnd(16)} ${total.toFixed(2).padStart(7)} s   ${(bytes / 1e6 / total).toFixed(0)} MB/s   ${(total / (bytes / 1e9)).toFixed(1)} s per GB`,
);
console.log(`peak RSS         ${(peak / 1e6).toFixed(0)} MB`);
console.log(`check: final/total ${report.rates[4].successes}/${report.rates[4].count}`);
