#!/usr/bin/env node
// Issue 20: reading + loading one JSONL file in this process (into an in-memory
// DuckDB, no relations computed), in this thread and through 1 and 2 line
// workers (src/ingest/load/parallel.ts), in alternation: wall seconds, CPU seconds
// of the process (every thread), the main thread's busy share (event-loop
// utilization), each thread's CPU seconds (Linux /proc) and peak RSS. Not part of npm test. Run after `npm run build`:
//   node bench/line-workers.mjs FILE [--rounds N] [--modes 0,1,2]
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i === -1 ? dflt : args[i + 1];
};

if (args[0] === "--child") {
  const dist = join(here, "..", "dist");
  const { configureLineWorkers } = await import(join(dist, "ingest", "load", "parallel.js"));
  const { ingest } = await import(join(dist, "ingest", "ingest.js"));
  configureLineWorkers({ DENOM_LINE_WORKERS: args[2], DENOM_LINE_WORKER_MIN_BYTES: "0" });
  const { Database } = await import(join(dist, "db", "database.js"));
  let peak = 0;
  // CPU seconds of each thread of this process (Linux: /proc/self/task/TID/stat utime + stime), the last seen of each
  const threads = new Map();
  const tick = (await import("node:child_process")).execSync("getconf CLK_TCK").toString().trim();
  const { readdirSync, readFileSync } = await import("node:fs");
  const sample = () => {
    for (const tid of readdirSync("/proc/self/task")) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
        const close = stat.lastIndexOf(")");
        const name = stat.slice(stat.indexOf("(") + 1, close);
        const f = stat.slice(close + 2).split(" ");
        threads.set(tid, { name, cpu: (Number(f[11]) + Number(f[12])) / Number(tick) });
      } catch {}
    }
  };
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    sample();
  }, 100);
  const db = await Database.open({});
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await ingest(db, [args[1]], { stdin: process.stdin });
  const wall = (performance.now() - t) / 1000;
  const c = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(elu).utilization;
  clearInterval(sampler);
  sample();
  // the main thread's task id is the process id; the others, the busiest first (the line workers; DuckDB's and libuv's threads)
  const main = threads.get(String(process.pid))?.cpu ?? 0;
  const others = [...threads]
    .filter(([tid]) => tid !== String(process.pid))
    .map(([, t]) => t.cpu)
    .filter((c) => c >= 0.05)
    .sort((a, b) => b - a);
  const byName = [main, ...others].map((c) => Math.round(c * 100) / 100);
  console.log(
    JSON.stringify({
      wall,
      cpu: (c.user + c.system) / 1e6,
      busy,
      peak: Math.max(peak, process.memoryUsage.rss()) / 2 ** 20,
      records: r.records,
      attempts: r.attempts,
      threads: byName,
    }),
  );
  process.exit(0);
}

const file = args.find((a) => !a.startsWith("--") && !/^[\d,]+$/.test(a));
const rounds = Number(opt("--rounds", "1"));
const modes = opt("--modes", "0,1,2").split(",");
const rows = [];
for (let i = 0; i < rounds; i++)
  for (const m of modes) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", file, m], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    const o = JSON.parse(r.stdout.trim().split("\n").pop());
    rows.push({ m, ...o });
    console.log(
      `workers ${m}: wall ${o.wall.toFixed(2)} s  CPU ${o.cpu.toFixed(2)} s  main busy ${(o.busy * 100).toFixed(0)}%  peak ${o.peak.toFixed(0)} MiB  (${o.records} records)  thread CPU s main ${o.threads[0]}, others ${o.threads.slice(1).join(" ")}`,
    );
  }
