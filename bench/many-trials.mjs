#!/usr/bin/env node
// Many trials per task (issue 16; not part of npm test): T tasks x N trials each,
// reported by the built CLI in a child process; prints the time and the child's peak
// RSS. pass@k runs to k = N, and its bootstrap intervals are computed for a bounded set
// of k (queries/72_confidence.sql, boot_ks), so the peak stays flat as N grows.
// Run after `npm run build`:
//   node bench/many-trials.mjs            # 3 x 2000 and 3 x 8000
//   node bench/many-trials.mjs 3x500 10x4000
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shapes = (process.argv.slice(2).length ? process.argv.slice(2) : ["3x2000", "3x8000"]).map((s) => s.split("x").map(Number));
const dir = mkdtempSync(join(tmpdir(), "denom-bench-trials-"));
try {
  for (const [tasks, trials] of shapes) {
    const path = join(dir, `trials-${tasks}x${trials}.jsonl`);
    let text = "";
    for (let t = 0; t < tasks; t++)
      for (let k = 0; k < trials; k++)
        text +=
          JSON.stringify({ task_id: `task-${t}`, trial: k, status: k % 3 ? "success" : "failure", started_at: 1.7e9 + k, ended_at: 1.7e9 + k + 30 }) + "\n";
    writeFileSync(path, text);
    const r = spawnSync("/usr/bin/time", ["-f", "%e %M", process.execPath, join(here, "..", "dist", "bin.js"), "report", "--json", path], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    const [seconds, kib] = r.stderr.trim().split("\n").pop().split(" ").map(Number);
    const out = JSON.parse(r.stdout);
    const withCi = out.pass_at_k.filter((p) => p.pass_at_k_ci95 !== null).length;
    console.log(
      `${tasks} tasks x ${trials} trials: exit ${r.status}, ${seconds} s, peak RSS ${Math.round(kib / 1024)} MB, pass@k rows ${out.pass_at_k.length} (${withCi} with an interval)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
