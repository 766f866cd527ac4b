#!/usr/bin/env node
// The two task-clustered intervals on one attempt log, in one process: the bootstrap
// (queries/marts/confidence/bootstrap_intervals.sql) and the analytic cluster-robust
// interval (clustered_intervals.sql), each run on every scope whatever its task count
// (clustered_from_tasks set to 10^12, then 0), in alternation ROUNDS times (A B A B):
// wall and CPU seconds of each SELECT, and how far apart their bounds lie, in
// percentage points and in standard errors, beside the bootstrap with another seed
// (how far the bootstrap lies from itself). Not part of npm test. Run after `npm run build`:
//   node bench/intervals.mjs FILE [--rounds N] [--threads N]
// e.g. FILE from `node bench/reference/gen_attempts.mjs --lines 140000 --seed 7 --out FILE`
// (39,618 tasks, 2 trials each). --threads: DuckDB threads (default 1, as a report of
// up to 2 M attempts computes).
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { openSession } = await import(join(root, "dist", "db", "session.js"));
const { ingest } = await import(join(root, "dist", "ingest", "ingest.js"));
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const file = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
if (!file) {
  console.error("usage: node bench/intervals.mjs FILE [--rounds N] [--threads N]");
  process.exit(2);
}
const rounds = Number(opt("--rounds", 3));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const defs = { statusMap: {}, thresholds: { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 } };
const session = await openSession({ definitions: defs, load: (db) => ingest(db, [file], { stdin: process.stdin, onReject: () => {} }) });
await session.db.run(`SET threads = ${Number(opt("--threads", 1))}`);
await session.need(["rate_membership", "pass_at_k_by_task", "confidence_settings"]);
const tasks = (await session.db.all("SELECT count(*) AS n FROM pass_at_k_by_task WHERE k = 1 AND scope_id = 0"))[0].n;

// the view's SELECT with the settings given inline: the threshold (and the seed) varied
const select = (name, threshold, seed = 20250312) =>
  readFileSync(join(root, "queries", "marts", "confidence", `${name}.sql`), "utf8")
    .replace(/^--.*$/gm, "")
    .replace(/create or replace view \w+ as/, "")
    .replaceAll("from confidence_settings", `from (select level, z, resamples, ${seed} as seed, ${threshold} as clustered_from_tasks from confidence_settings)`)
    .replace(/;\s*$/, "");
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
async function timed(sql) {
  const [t, c] = [performance.now(), cpu()];
  const rows = await session.db.all(sql);
  return { rows, wall: (performance.now() - t) / 1000, cpu: cpu() - c };
}

console.log(`${file}: ${tasks} tasks in the overall scope; ${rounds} rounds, load ${load()}`);
let boot;
let clustered;
for (let i = 1; i <= rounds; i++) {
  boot = await timed(select("bootstrap_intervals", 1e12));
  clustered = await timed(select("clustered_intervals", 0));
  console.log(
    `#${i} bootstrap ${boot.wall.toFixed(2)} s (CPU ${boot.cpu.toFixed(2)} s), clustered ${clustered.wall.toFixed(3)} s (CPU ${clustered.cpu.toFixed(3)} s); load ${load()}`,
  );
}
const other = await timed(select("bootstrap_intervals", 1e12, 7));

const key = (r) => [r.scope_id, r.figure, r.basis, r.denominator, r.k].join("/");
function apart(a, b) {
  const byKey = new Map(b.map((r) => [key(r), r]));
  let figures = 0;
  let printedApart = 0;
  let maxPoints = 0;
  let maxSe = 0;
  const pct = (x) => (x * 100).toFixed(1);
  for (const r of a) {
    const s = byKey.get(key(r));
    if (!s || r.lo === null || s.lo === null) continue;
    figures++;
    const d = Math.max(Math.abs(r.lo - s.lo), Math.abs(r.hi - s.hi));
    maxPoints = Math.max(maxPoints, d * 100);
    // the standard error of the figure, from the width of the bootstrap's 95% interval
    if (r.hi > r.lo) maxSe = Math.max(maxSe, d / ((r.hi - r.lo) / 3.92));
    if (pct(r.lo) !== pct(s.lo) || pct(r.hi) !== pct(s.hi)) printedApart++;
  }
  return `${figures} figures, ${printedApart} with a bound printed differently ([lo, hi] in percent, one decimal), largest distance ${maxPoints.toFixed(3)} points = ${maxSe.toFixed(2)} SE`;
}
console.log(`clustered vs bootstrap: ${apart(boot.rows, clustered.rows)}`);
console.log(`bootstrap seed 7 vs bootstrap: ${apart(boot.rows, other.rows)}`);
session.close();
