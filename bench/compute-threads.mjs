#!/usr/bin/env node
// The relations of a big input on one DuckDB thread against two (issue 20; never
// run by npm test). Ingests FILE once into a temporary session, as `denom report`
// does for an input past the disk threshold, then times the report's computation
// (its relations and named SELECTs, readReport) with `SET threads` 1 and 2
// alternated, ROUNDS times each: wall, CPU of the process, peak RSS. Run after
// `npm run build`:
//   node bench/compute-threads.mjs bench/out/attempts-1000mb.jsonl [ROUNDS]   default 2
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const { openSession, Session } = await import(join(dist, "db", "session.js"));
const { queryCatalog, QUERIES_DIR } = await import(join(dist, "db", "queries.js"));
const { ingest } = await import(join(dist, "ingest", "ingest.js"));
const { readReport } = await import(join(dist, "commands", "report.js"));
const { configureLineWorkers } = await import(join(dist, "ingest", "parallel.js"));
configureLineWorkers(process.env); // DENOM_LINE_WORKERS and the rest, as the CLI reads them

const file = process.argv[2];
if (!file) {
  console.error("usage: node bench/compute-threads.mjs FILE [ROUNDS]");
  process.exit(2);
}
const rounds = Number(process.argv[3] ?? 2);
const defs = { statusMap: {}, thresholds: { queueShare: 0.25, loopMin: 5, sluggishRatio: 2 } };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const t = performance.now();
const first = await openSession({ temporary: true, definitions: defs, load: (db) => ingest(db, [file], { stdin: process.stdin, onReject: () => {} }) });
console.log(`ingest ${((performance.now() - t) / 1000).toFixed(1)} s, CPU ${cpu().toFixed(1)} s, RSS ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MiB`);
let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 200).unref();
const catalog = queryCatalog(QUERIES_DIR);
for (let r = 0; r < rounds; r++)
  for (const threads of [1, 2]) {
    await first.db.run(`SET threads = ${threads}`);
    // a fresh Session over the same loaded tables: every relation created again (CREATE OR REPLACE)
    const session = new Session(first.db, catalog, first.loaded, new Set());
    peak = 0;
    const [t0, c0] = [performance.now(), cpu()];
    await readReport(session, defs);
    console.log(`threads ${threads}: wall ${((performance.now() - t0) / 1000).toFixed(1)} s, CPU ${(cpu() - c0).toFixed(1)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`);
  }
first.close();
