#!/usr/bin/env node
// Lakes (docs/lake.md), by hand (never by npm test):
//   npm run build && node bench/lake.mjs [--lines L] [--files F] [--procs 1,2,4] [--seed 7] [--keep]
//                                        [--no-raw] [--timeout S]
// Generates L lines with bench/reference/gen_attempts.mjs (--seed, default 7; L default 20000),
// splits them into F files (default 8, whole lines, tasks never cut), then for each process
// count P ingests the files into a fresh lake with P `denom ingest --lake` processes at once
// (file i to process i mod P) and times it (wall); then times `denom report DIR` over the
// last lake (wall and peak RSS from /usr/bin/time -v) and checks that its output equals
// `denom report FILES...` (--no-raw: not, for inputs whose raw report takes too long;
// --timeout S: stop `report DIR` after S seconds and say so), and times DuckDB alone over the
// lake's Parquet (the plain grid, the events by type): what reading the rows costs. Compare
// ratios from one run.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawn, spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "bin.js");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const lines = Number(arg("lines", "20000"));
const files = Number(arg("files", "8"));
const procs = arg("procs", "1,2,4").split(",").map(Number);
const seed = arg("seed", "7");
const raw = !process.argv.includes("--no-raw");
const timeout = Number(arg("timeout", "0")) * 1000 || undefined;
const dir = mkdtempSync(join(tmpdir(), "denom-bench-lake-"));

/** Splits the generated JSONL into `files` parts at task boundaries (a trial's attempts stay together). */
async function split(input) {
  const parts = Array.from({ length: files }, (_, i) => join(dir, `part-${String(i).padStart(3, "0")}.jsonl`));
  const outs = parts.map((p) => createWriteStream(p));
  const per = Math.ceil(lines / files);
  let n = 0;
  let part = 0;
  let task = null;
  for await (const line of createInterface({ input: createReadStream(input) })) {
    if (!line) continue;
    const id = line.slice(0, 40).match(/"task_id":"([^"]+)"/)?.[1] ?? null;
    if (n >= per * (part + 1) && id !== task && part < files - 1) part++;
    task = id;
    outs[part].write(`${line}\n`);
    n++;
  }
  await Promise.all(outs.map((o) => new Promise((resolve) => o.end(resolve))));
  return parts;
}

/** `denom ARGS` as a child process; resolves with its exit code and stderr. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

/** Wall seconds and peak RSS (MiB) of `denom ARGS` under /usr/bin/time -v, and its stdout. */
function timed(args) {
  const hasTime = existsSync("/usr/bin/time");
  const t0 = performance.now();
  const r = hasTime
    ? spawnSync("/usr/bin/time", ["-v", process.execPath, bin, ...args], { encoding: "utf8", maxBuffer: 1 << 30, timeout, killSignal: "SIGINT" })
    : spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", maxBuffer: 1 << 30, timeout, killSignal: "SIGINT" });
  const wall = (performance.now() - t0) / 1000;
  const rss = Number(r.stderr.match(/Maximum resident set size \(kbytes\): (\d+)/)?.[1] ?? Number.NaN) / 1024;
  const cpu = r.stderr.match(/User time \(seconds\): ([\d.]+)\n\s*System time \(seconds\): ([\d.]+)/);
  // a failure's own lines (/usr/bin/time's report aside), so that a run that ends badly says why
  if (r.status !== 0)
    process.stderr.write(
      `${r.stderr
        .split("\n")
        .filter((l) => !/^\t|Command (exited|terminated)/.test(l))
        .slice(-20)
        .join("\n")}\n`,
    );
  return { wall, rss, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN, stdout: r.stdout, code: r.status ?? r.signal };
}

/**
 * DuckDB alone over the lake's Parquet files, in this process: the plain grid (each trial's
 * first and final attempt by attempt number, then the counts) and the events grouped by type
 * and attempt. What reading the rows costs, beside what `report DIR` computes from them.
 */
async function duckdbAlone(lake) {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const t0 = performance.now();
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  const grid = await c.runAndReadAll(
    `with t as (
       select run_id, task_id, trial, arg_min(raw_status, attempt) as first_status, arg_max(raw_status, attempt) as final_status
       from read_parquet($attempts, hive_partitioning = true) group by all)
     select count(*) as trials, count(*) filter (where final_status = 'success') as final_ok from t`,
    { attempts: join(lake, "attempts", "**", "*.parquet") },
  );
  const t1 = performance.now();
  const events = await c.runAndReadAll(
    "select sum(n) as events, count(*) as groups from (select source_sha256, attempt_id, type, count(*) as n from read_parquet($events, hive_partitioning = true) group by all)",
    { events: join(lake, "events", "**", "*.parquet") },
  );
  const t2 = performance.now();
  c.closeSync();
  db.closeSync();
  const [g] = grid.getRowObjectsJson();
  const [e] = events.getRowObjectsJson();
  console.log("DuckDB alone: the plain grid".padEnd(34), `${((t1 - t0) / 1000).toFixed(2).padStart(7)} s  final ${g.final_ok}/${g.trials} trials`);
  console.log(
    "DuckDB alone: events by type".padEnd(34),
    `${((t2 - t1) / 1000).toFixed(2).padStart(7)} s  ${e.events} events in ${e.groups} (attempt, type) groups`,
  );
}

const generated = join(dir, "all.jsonl");
const gen = spawnSync(process.execPath, [join(here, "reference", "gen_attempts.mjs"), "--lines", String(lines), "--seed", seed, "--out", generated]);
if (gen.status !== 0) throw new Error(`gen_attempts.mjs: ${gen.stderr}`);
const parts = await split(generated);
rmSync(generated);
const bytes = parts.reduce((n, p) => n + statSync(p).size, 0);
console.log(`input: ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB in ${files} files`);

let lake = null;
let oneWall = null;
for (const p of procs) {
  lake = join(dir, `lake-${p}`);
  const t0 = performance.now();
  const ended = await Promise.all(Array.from({ length: p }, (_, i) => run(["ingest", ...parts.filter((_, j) => j % p === i), "--lake", lake, "--quiet"])));
  const wall = (performance.now() - t0) / 1000;
  for (const e of ended) if (e.code !== 0) throw new Error(`ingest --lake: exit ${e.code}\n${e.stderr}`);
  oneWall ??= wall;
  console.log(
    `ingest --lake, ${p} process${p === 1 ? "" : "es"}`.padEnd(34),
    `${wall.toFixed(2).padStart(7)} s  (x${(oneWall / wall).toFixed(2)} of 1 process)`,
  );
}
const du = spawnSync("du", ["-sb", lake], { encoding: "utf8" }).stdout.split("\t")[0];
console.log(`lake: ${(Number(du) / 1e6).toFixed(1)} MB`);
const show = (name, r) =>
  console.log(name.padEnd(34), `${r.wall.toFixed(2).padStart(7)} s  CPU ${r.cpu.toFixed(1)} s  peak RSS ${r.rss.toFixed(0)} MiB  exit ${r.code}`);
const fromLake = timed(["report", lake]);
show("report DIR", fromLake);
await duckdbAlone(lake);
if (raw) {
  const fromRaw = timed(["report", ...parts]);
  show("report FILES (raw)", fromRaw);
  console.log(`report DIR equals report FILES: ${fromLake.stdout === fromRaw.stdout}`);
}
if (process.argv.includes("--keep")) console.log(`kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
