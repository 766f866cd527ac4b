#!/usr/bin/env node
// What the process benchmarks share (bench/ingest.mjs, bench/vs-duckdb.mjs import it;
// it runs nothing itself):
//   generate(...flags)  bench/generate.mjs with these flags: the path of the log it wrote or kept
//   referenceLog(lines, seed)  bench/reference/gen_attempts.mjs's log of that many lines, written
//                       to bench/out/ once and kept: the input the ratios are taken on
//   nativeBaseline(file)  bench/reference/native_baseline.mjs on FILE, measured, with its final/total
//   measure(cmd, argv)  cmd under /usr/bin/time: wall s, CPU s (user + system), peak RSS MiB, stdout
//   finalTotal(stdout)  final/total of a `denom report --json`, and its accounting
//   JQ_STRICT           the jq baseline: final successes / trials of a JSONL log
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

// the latest attempt of each (run, task, trial) decides; lines that are not JSON are skipped
export const JQ_STRICT =
  '[inputs | fromjson? | objects | select(.task_id != null) | [.run_id // "", (.task_id | tostring), .trial // 0, .attempt // 1, .status]] ' +
  '| group_by(.[0:3]) | map(max_by(.[3])[4]) | "\\(map(select(. == "success")) | length)/\\(length)"';

/** Runs bench/generate.mjs with `flags`; returns the path it prints. */
export function generate(...flags) {
  return execFileSync(process.execPath, [join(here, "generate.mjs"), ...flags], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/**
 * The reference generator's log of `lines` lines and `seed` (several trials per task,
 * retries, events, timeouts, errors; 1,400,000 lines with seed 7 are about 1 GB):
 * bench/out/gen-attempts-<lines>-seed<seed>.jsonl, written once and kept. Returns its path.
 */
export function referenceLog(lines = 1_400_000, seed = 7) {
  const out = join(here, "out");
  const file = join(out, `gen-attempts-${lines}-seed${seed}.jsonl`);
  if (!existsSync(file)) {
    mkdirSync(out, { recursive: true });
    // written under another name first: a run stopped halfway leaves no log that looks whole
    const partial = `${file}.partial`;
    execFileSync(process.execPath, [join(here, "reference", "gen_attempts.mjs"), "--lines", String(lines), "--seed", String(seed), "--out", partial], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    renameSync(partial, file);
  }
  return file;
}

/**
 * The reference native baseline (bench/reference/native_baseline.mjs: DuckDB's own
 * read_json into typed attempts and events tables, the rate grid in plain SQL) on
 * `file`, measured as measure() does, with `check` its final/total as "successes/trials".
 * Run from the project's root: the baseline borrows its @duckdb/node-api through the cwd.
 */
export function nativeBaseline(file) {
  const r = measure(process.execPath, [join(here, "reference", "native_baseline.mjs"), file], { cwd: join(here, "..") });
  const grid = JSON.parse(r.stdout).grid;
  return { ...r, check: `${grid.final_ok}/${grid.n}` };
}

let scratch = null;
/** The folder /usr/bin/time writes its figures in: one per process, removed at exit. */
function timeFile() {
  if (!scratch) {
    scratch = mkdtempSync(join(tmpdir(), "denom-bench-time-"));
    process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
  }
  return join(scratch, "time.txt");
}

/** Runs `cmd argv` under /usr/bin/time: `{ wall, cpu, rssMb, stdout }` (seconds, seconds, MiB). Throws on a non-zero exit, with the end of its stderr. */
export function measure(cmd, argv, options = {}) {
  const stats = timeFile();
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", "-o", stats, cmd, ...argv], {
    ...options,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")}: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const [wall, user, sys, kb] = readFileSync(stats, "utf8").trim().split("\n").pop().split(" ").map(Number);
  return { wall, cpu: user + sys, rssMb: kb / 1024, stdout: r.stdout };
}

/** final/total of a `denom report --json` output as "successes/count", and the report's accounting. */
export function finalTotal(stdout) {
  const report = JSON.parse(stdout);
  const final = report.rates.find((r) => r.basis === "final" && r.denominator === "total");
  return { check: `${final.successes}/${final.count}`, accounting: report.accounting };
}
