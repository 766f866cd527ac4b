#!/usr/bin/env node
// What each relation of queries/ costs at scale (issue 20): loads FILE (or the
// synthetic log of SIZE_MB, bench/generate.mjs) in this process, then creates the
// relations one at a time in catalog order (Session.need), so each figure is that
// relation's own cost: wall and CPU seconds of the process (DuckDB's threads
// included), the costliest first, then the report queries on top. Not part of npm
// test. Run after `npm run build`:
//   node bench/relations.mjs [SIZE_MB | FILE] [--top N]
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
const { openSession } = await import(join(dist, "db", "session.js"));
const { queryCatalog } = await import(join(dist, "db", "queries.js"));
const { ingest } = await import(join(dist, "ingest", "ingest.js"));
const { readReport } = await import(join(dist, "commands", "report.js"));

const args = process.argv.slice(2);
const top = Number(args.includes("--top") ? args[args.indexOf("--top") + 1] : 25);
const input = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--top") ?? "200";
const file = existsSync(input) ? input : execFileSync(process.execPath, [join(here, "generate.mjs"), input], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
const defs = { statusMap: {}, thresholds: { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 } };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let t = performance.now();
let c = cpu();
const session = await openSession({ definitions: defs, load: (db) => ingest(db, [file], { stdin: process.stdin, onReject: () => {} }) });
console.log(`read + load ${((performance.now() - t) / 1000).toFixed(2)} s, CPU ${(cpu() - c).toFixed(2)} s (${file})`);
const times = [];
for (const r of queryCatalog().relations) {
  t = performance.now();
  c = cpu();
  await session.need([r.name]);
  times.push([`${r.layer}/${r.name}`, (performance.now() - t) / 1000, cpu() - c]);
}
times.sort((a, b) => b[2] - a[2]);
console.log("   wall     CPU  relation");
for (const [name, w, cc] of times.slice(0, top)) console.log(`${w.toFixed(2).padStart(7)} ${cc.toFixed(2).padStart(7)}  ${name}`);
const sum = (i) => times.reduce((s, x) => s + x[i], 0).toFixed(2);
console.log(`${sum(1).padStart(7)} ${sum(2).padStart(7)}  all ${times.length} relations`);
t = performance.now();
c = cpu();
await readReport(session, defs);
console.log(`${((performance.now() - t) / 1000).toFixed(2).padStart(7)} ${(cpu() - c).toFixed(2).padStart(7)}  report queries on top`);
session.close();
