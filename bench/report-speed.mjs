#!/usr/bin/env node
// `denom report FILE` against the floors, all run in alternation (floor, reference
// floor, report, then again) so that they see the same machine load; wall time of
// each whole process, median of ROUNDS runs (default 9) after one warm-up of each,
// and CPU time (user + system, through /usr/bin/time).
//   floor            bench/floor.mjs: Node + DuckDB's bindings + read_json of FILE + a count
//   reference floor  bench/reference/floor.mjs, the floor the goals are stated against
//                    (JSONL only: for a JSON document the line says n/a)
// Inputs: samples/seed-100.jsonl and the Terminal-Bench orchestrator results.json of
// 400 trials, from ../shared/data/real/terminal-bench-1 when that folder is there (the
// script says so when it is not). Goals: seed-100 at most 2x the floor, Terminal-Bench
// at most 2.5x. Not part of npm test. Run from the project's root after `npm run build`:
//   node bench/report-speed.mjs [ROUNDS] [BIN]
// BIN: another build's dist/bin.js to measure instead (e.g. ../main/dist/bin.js, before a change).
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Number(process.argv[2] ?? 9);
const bin = process.argv[3] ?? join(root, "dist", "bin.js");
const terminalBench = join(root, "..", "shared", "data", "real", "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet", "results.json");
const inputs = [
  { name: "seed-100 (130 lines)", file: join(root, "samples", "seed-100.jsonl"), goal: 2, jsonl: true },
  { name: "Terminal-Bench orchestrator (400 trials)", file: terminalBench, goal: 2.5, jsonl: false },
].filter((i) => existsSync(i.file) || console.log(`${i.name}: ${i.file} is not there, skipped`));

// CPU seconds (user + system) too, through /usr/bin/time when it is there: on a loaded
// machine they move much less than the wall time
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

function seconds(args) {
  const start = process.hrtime.bigint();
  const [command, argv] = TIME ? [TIME, ["-f", "cpu %U %S", process.execPath, ...args]] : [process.execPath, args];
  const r = spawnSync(command, argv, { cwd: root, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { wall: Number(process.hrtime.bigint() - start) / 1e9, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const contenders = (input) => ({
  floor: [join(root, "bench", "floor.mjs"), input.file],
  ...(input.jsonl ? { reference: [join(root, "bench", "reference", "floor.mjs"), input.file] } : {}),
  report: [bin, "report", input.file],
});

console.log(`load ${load()} at the start; ${rounds} rounds`);
for (const input of inputs) {
  const runs = Object.entries(contenders(input));
  for (const [, args] of runs) seconds(args);
  const times = Object.fromEntries(runs.map(([name]) => [name, []]));
  for (let i = 0; i < rounds; i++) for (const [name, args] of runs) times[name].push(seconds(args));
  const wall = (name) => median(times[name].map((x) => x.wall));
  const cpu = (name) => median(times[name].map((x) => x.cpu));
  const against = (name) =>
    times[name]
      ? `${(wall("report") / wall(name)).toFixed(2)}x ${name === "floor" ? "the floor" : "the reference floor"} (CPU ${(cpu("report") / cpu(name)).toFixed(2)}x, goal <= ${input.goal}x: ${wall("report") / wall(name) <= input.goal ? "met" : "NOT met"})`
      : "the reference floor n/a (it reads JSONL only)";
  console.log(
    `${input.name}: floor ${wall("floor").toFixed(3)} s (CPU ${cpu("floor").toFixed(2)} s), ` +
      (times.reference ? `reference floor ${wall("reference").toFixed(3)} s (CPU ${cpu("reference").toFixed(2)} s), ` : "") +
      `report ${wall("report").toFixed(3)} s (CPU ${cpu("report").toFixed(2)} s); ` +
      `${against("floor")}; ${against("reference")}; median of ${rounds}; load ${load()}`,
  );
}
