#!/usr/bin/env node
// `denom report FILE` against the floor (bench/floor.mjs: Node + a DuckDB
// instance + read_json of FILE + a count), the two run in alternation so that
// both see the same machine load; wall time of each whole process, median of
// ROUNDS runs (default 9) after one warm-up of each. Inputs: samples/seed-100.jsonl
// and, when ../shared is there, the Terminal-Bench orchestrator results.json of
// 400 trials. Goals (issue 19): seed-100 at most 2x the floor, Terminal-Bench
// within 2.5x. Not part of npm test. Run after `npm run build`:
//   node bench/report-speed.mjs [ROUNDS] [BIN]
// BIN: another build's dist/bin.js to measure instead (e.g. ../main/dist/bin.js, before a change).
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Number(process.argv[2] ?? 9);
const bin = process.argv[3] ?? join(root, "dist", "bin.js");
const inputs = [
  { name: "seed-100 (130 lines)", file: join(root, "samples", "seed-100.jsonl"), goal: 2 },
  {
    name: "Terminal-Bench orchestrator (400 trials)",
    file: join(root, "..", "shared", "data", "real", "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet", "results.json"),
    goal: 2.5,
  },
].filter((i) => existsSync(i.file));

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
const floorArgs = (file) => [join(root, "bench", "floor.mjs"), file];
const reportArgs = (file) => [bin, "report", file];

for (const input of inputs) {
  seconds(floorArgs(input.file));
  seconds(reportArgs(input.file));
  const floor = [];
  const report = [];
  for (let i = 0; i < rounds; i++) {
    floor.push(seconds(floorArgs(input.file)));
    report.push(seconds(reportArgs(input.file)));
  }
  const wall = (xs) => median(xs.map((x) => x.wall));
  const cpu = (xs) => median(xs.map((x) => x.cpu));
  const ratio = wall(report) / wall(floor);
  console.log(
    `${input.name}: floor ${wall(floor).toFixed(3)} s, report ${wall(report).toFixed(3)} s, ` +
      `${ratio.toFixed(2)}x the floor (goal <= ${input.goal}x: ${ratio <= input.goal ? "met" : "NOT met"}); ` +
      `CPU ${cpu(floor).toFixed(2)} s and ${cpu(report).toFixed(2)} s, ${(cpu(report) / cpu(floor)).toFixed(2)}x; median of ${rounds}`,
  );
}
