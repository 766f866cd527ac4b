#!/usr/bin/env node
// Times `denom audit` against `denom report` on generated attempts (run by hand, never by
// npm test): node bench/audit.mjs [ATTEMPTS=240000]. Build first (npm run build).
// The input is deterministic: 5 runs, 20% of trials retried once, every status class present.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = Number(process.argv[2] ?? 240000);
const statuses = ["success", "failure", "timeout", "aborted", "invalid", "weird"];
let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const lines = [];
const perRun = Math.ceil(target / 5 / 1.2);
for (let run = 0; run < 5 && lines.length < target; run++) {
  for (let t = 0; t < perRun && lines.length < target; t++) {
    const attempts = random() < 0.2 ? 2 : 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const status = statuses[Math.floor(random() * random() * statuses.length)];
      lines.push(
        JSON.stringify({
          run_id: `r${run}`,
          task_id: `t${t}`,
          trial: run % 2,
          attempt,
          status,
          score: status === "timeout" && random() < 0.3 ? 1 : undefined,
          started_at: "2025-01-01T00:00:00Z",
          ended_at: "2025-01-01T00:01:00Z",
          timeout_limit_s: 300,
        }),
      );
    }
  }
}
const dir = mkdtempSync(join(tmpdir(), "denom-bench-"));
const file = join(dir, "attempts.jsonl");
writeFileSync(file, lines.join("\n") + "\n");
console.log(`${lines.length} attempts, ${(Buffer.byteLength(lines.join("\n")) / 1e6).toFixed(1)} MB`);

for (const args of [
  ["report", file, "--json"],
  ["audit", file, "--claim", "50%", "--json"],
]) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(root, "dist", "bin.js"), ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`denom ${args[0]}: ${seconds.toFixed(1)} s, exit ${r.status}`);
}
rmSync(dir, { recursive: true, force: true });
