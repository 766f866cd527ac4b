#!/usr/bin/env node
// The big-input ratio: `denom report FILE --json` against the reference native
// baseline (bench/reference/native_baseline.mjs: DuckDB's own read_json into typed
// attempts and events tables, then the rate grid in plain SQL) on the reference
// generator's log (bench/reference/gen_attempts.mjs: several trials per task,
// retries, events, timeouts, errors). Never run by npm test. Run from the project's
// root after `npm run build`:
//   node bench/vs-native.mjs [--lines N] [--seed S] [--rounds R] [--bin BIN] [--file FILE]
//     --lines   lines of the generated log (default 1,400,000: about 1 GB; 140,000: 100 MB)
//     --seed    its seed (default 7)
//     --rounds  runs of each contender, in alternation (default 2); the best of each counts
//     --bin     another build's dist/bin.js as the denom contender (e.g. ../main/dist/bin.js)
//     --file    an attempt log of your own instead of the generated one
// The log is written to bench/out/gen-attempts-<N>-seed<S>.jsonl and kept for the next
// run. Each run: wall, CPU (user + system) and peak RSS through /usr/bin/time, the load
// average after it, and final/total, which both contenders must agree on.
// Goals: denom within 2x of the baseline, peak RSS at most 1 GB.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { statSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { finalTotal, measure, nativeBaseline, referenceLog } from "./timed.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const rounds = Number(opt("--rounds", 2));
const bin = opt("--bin", join(here, "..", "dist", "bin.js"));
const file = opt("--file", null) ?? referenceLog(Number(opt("--lines", 1_400_000)), Number(opt("--seed", 7)));
const mb = statSync(file).size / 1e6;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const contenders = {
  denom: () => {
    const r = measure(process.execPath, [bin, "report", file, "--json"]);
    return { ...r, check: finalTotal(r.stdout).check };
  },
  native: () => nativeBaseline(file),
};

console.log(`denom vs the native baseline: ${new Date().toISOString()}, input ${file} (${mb.toFixed(0)} MB), ${rounds} rounds, load ${load()}`);
const runs = { denom: [], native: [] };
for (let i = 1; i <= rounds; i++) {
  for (const name of Object.keys(contenders)) {
    const r = contenders[name]();
    runs[name].push(r);
    console.log(
      `${name} #${i}`.padEnd(10),
      `${r.wall.toFixed(2).padStart(7)} s  CPU ${r.cpu.toFixed(2).padStart(7)} s  ${(mb / r.wall).toFixed(0).padStart(4)} MB/s  peak ${r.rssMb.toFixed(0).padStart(5)} MiB  final/total ${r.check}  load ${load()}`,
    );
  }
}
const best = (name, key) => Math.min(...runs[name].map((r) => r[key]));
const peak = (name) => Math.max(...runs[name].map((r) => r.rssMb));
const checks = new Set([...runs.denom, ...runs.native].map((r) => r.check));
const ratio = best("denom", "wall") / best("native", "wall");
console.log(
  `best of ${rounds}: denom ${best("denom", "wall").toFixed(2)} s (CPU ${best("denom", "cpu").toFixed(2)} s), native ${best("native", "wall").toFixed(2)} s (CPU ${best("native", "cpu").toFixed(2)} s): ` +
    `denom at ${ratio.toFixed(2)}x the baseline's wall time (goal <= 2x: ${ratio <= 2 ? "met" : "NOT met"}), CPU ${(best("denom", "cpu") / best("native", "cpu")).toFixed(2)}x; ` +
    `peak RSS denom ${peak("denom").toFixed(0)} MiB (goal <= 1024: ${peak("denom") <= 1024 ? "met" : "NOT met"}), native ${peak("native").toFixed(0)} MiB; ` +
    (checks.size === 1 ? "final/total agree" : `final/total DIFFER: ${[...checks].join(" ")}`) +
    `; load ${load()}`,
);
