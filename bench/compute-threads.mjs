#!/usr/bin/env node
// The relations of a big input on one DuckDB thread against two (issue 20; never
// run by npm test). Ingests FILE once into a temporary session, as `denom report`
// does for an input past the disk threshold, then times the report's computation
// (its relations and named SELECTs, readReport) with `SET threads` 1 and 2
// alternated (or only those of THREADS, e.g. 2), ROUNDS times each: wall, CPU of
// the process, peak RSS. With --relations, each round instead creates the
// relations readReport reads one at a time in catalog order (Session.need, each
// committed on its own as in a temporary session), then runs readReport: every
// relation's own wall, CPU and the peak RSS while it ran, the costliest first.
// Run after `npm run build`:
//   node bench/compute-threads.mjs bench/out/attempts-1000mb.jsonl [ROUNDS] [THREADS] [--relations]
//   ROUNDS default 2, THREADS default 1,2
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const { openSession, Session } = await import(join(dist, "db", "session.js"));
const { queryCatalog } = await import(join(dist, "db", "queries.js"));
const { QUERIES_DIR } = await import(join(dist, "paths.js"));
const { ingest } = await import(join(dist, "ingest", "ingest.js"));
const { readReport } = await import(join(dist, "commands", "report.js"));
const { configureLineWorkers } = await import(join(dist, "ingest", "load", "parallel.js"));
configureLineWorkers(process.env); // DENOM_LINE_WORKERS and the rest, as the CLI reads them
const { CHART_SELECTS } = await import(join(dist, "commands", "report-charts.js"));

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const perRelation = process.argv.includes("--relations");
const file = args[0];
if (!file) {
  console.error("usage: node bench/compute-threads.mjs FILE [ROUNDS] [THREADS] [--relations]");
  process.exit(2);
}
const rounds = Number(args[1] ?? 2);
const threadCounts = (args[2] ?? "1,2").split(",").map(Number);
const defs = { statusMap: {}, thresholds: { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 } };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const t = performance.now();
const first = await openSession({ temporary: true, definitions: defs, load: (db) => ingest(db, [file], { stdin: process.stdin, onReject: () => {} }) });
console.log(`ingest ${((performance.now() - t) / 1000).toFixed(1)} s, CPU ${cpu().toFixed(1)} s, RSS ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MiB`);
let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), perRelation ? 20 : 200).unref();
const catalog = queryCatalog(QUERIES_DIR);

/** The relations readReport reads, with all they read, in catalog order (reference/ left out: constants). */
function reportRelations(session) {
  const wanted = new Set();
  const visit = (name) => {
    const relation = catalog.byName.get(name);
    if (!relation || wanted.has(name)) return;
    wanted.add(name);
    relation.reads.forEach(visit);
  };
  // readReport's SELECTs (report.ts reportSelects): select/report/ and select/meta/ but the charts'
  const selects = [...session.selectsIn("report"), ...session.selectsIn("meta")].filter((name) => !CHART_SELECTS.includes(name));
  for (const name of selects) catalog.selects.get(name).reads.forEach(visit);
  return catalog.relations.filter((r) => wanted.has(r.name) && r.layer !== "reference");
}

for (let r = 0; r < rounds; r++)
  for (const threads of threadCounts) {
    await first.db.run(`SET threads = ${threads}`);
    // a fresh Session over the same loaded tables: every relation created again (CREATE OR REPLACE)
    const session = new Session(first.db, catalog, first.loaded, new Set());
    peak = 0;
    const [t0, c0] = [performance.now(), cpu()];
    const costs = [];
    if (perRelation)
      for (const relation of reportRelations(session)) {
        const [t1, c1] = [performance.now(), cpu()];
        peak = process.memoryUsage.rss();
        await session.need([relation.name]);
        costs.push({
          name: `${relation.layer}/${relation.name}${relation.copied ? "" : " (view)"}`,
          wall: (performance.now() - t1) / 1000,
          cpu: cpu() - c1,
          peak: Math.max(peak, process.memoryUsage.rss()),
        });
      }
    const [t2, c2] = [performance.now(), cpu()];
    await readReport(session, defs);
    if (perRelation) {
      costs.push({ name: "the named SELECTs (readReport)", wall: (performance.now() - t2) / 1000, cpu: cpu() - c2, peak });
      console.log(`threads ${threads}:    wall     CPU  peak RSS  relation (its own cost, costliest first)`);
      for (const c of costs.sort((a, b) => b.wall - a.wall))
        if (c.wall >= 0.01) console.log(`${c.wall.toFixed(2).padStart(19)} ${c.cpu.toFixed(2).padStart(7)} ${mib(c.peak).padStart(9)}  ${c.name}`);
      peak = Math.max(...costs.map((c) => c.peak));
    }
    console.log(`threads ${threads}: wall ${((performance.now() - t0) / 1000).toFixed(1)} s, CPU ${(cpu() - c0).toFixed(1)} s, peak RSS ${mib(peak)}`);
  }
first.close();
