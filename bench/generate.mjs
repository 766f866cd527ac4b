#!/usr/bin/env node
// Writes a synthetic attempt log to bench/out/ and prints its path: canonical
// attempts with events, retries, timeouts and a truncated line every 100,000
// tasks. Deterministic (seeded), so runs compare. Kept files are reused.
//   node bench/generate.mjs [SIZE_MB] [--events MIN-MAX] [--gz] [--tar]
//     SIZE_MB          uncompressed size, default 1000
//     --events 3-10    events per attempt (default 3-10, about 6.5 each; 10-19
//                      gives about 2,100 bytes a record)
//     --gz             also write FILE.gz (prints its path instead)
//     --tar            also write a .tar.gz holding FILE (prints its path instead)
//     --gz-only        stream straight into FILE.gz, never writing the plain file
//                      (for the 2.5 GB run)
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizeMb = Number(args.find((a, i) => /^\d+$/.test(a) && !["--events"].includes(args[i - 1])) ?? 1000);
const [minEvents, maxEvents] = value("--events", "3-10").split("-").map(Number);
const tag = minEvents === 3 && maxEvents === 10 ? "" : `-e${minEvents}-${maxEvents}`;
const outDir = join(dirname(fileURLToPath(import.meta.url)), "out");
const plain = join(outDir, `attempts-${sizeMb}mb${tag}.jsonl`);
mkdirSync(outDir, { recursive: true });

async function generate(path, gzip) {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const statuses = ["success", "success", "success", "failure", "timeout", "error"];
  const tools = ["read_file", "search", "edit", "run_tests", "open"];
  const t0 = Date.parse("2025-04-01T08:00:00Z");
  const tmp = `${path}.part`;
  const file = createWriteStream(tmp);
  const w = gzip ? createGzip({ level: 3 }) : file;
  if (gzip) w.pipe(file);
  let written = 0;
  let task = 0;
  let batch = "";
  while (written < sizeMb * 1e6) {
    task++;
    const attempts = rand() < 0.2 ? 2 : 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const start = t0 + task * 1000 + attempt * 400_000;
      const n = minEvents + Math.floor(rand() * (maxEvents - minEvents + 1));
      const events = [];
      for (let i = 0; i < n; i++) {
        events.push({
          ts: new Date(start + i * 7000 + Math.floor(rand() * 3000)).toISOString(),
          type: i % 2 ? "tool_result" : "tool_call",
          name: tools[Math.floor(rand() * tools.length)],
          args: { path: `src/file_${Math.floor(rand() * 50)}.py`, line: Math.floor(rand() * 400) },
        });
      }
      const status = statuses[Math.floor(rand() * statuses.length)];
      const rec = {
        run_id: "bench",
        task_id: `task-${task}`,
        trial: 0,
        attempt,
        status,
        submitted_at: new Date(start - 2000).toISOString(),
        started_at: new Date(start).toISOString(),
        ended_at: new Date(start + n * 7000 + 5000).toISOString(),
        timeout_limit_s: 300,
        llm_tokens: Math.floor(rand() * 40000),
        tool_call_count: Math.ceil(n / 2),
        cost_usd: Math.round(rand() * 1000) / 10000,
        error_message: status === "failure" ? "assertion failed: expected 3, got 4" : null,
        events,
      };
      let line = JSON.stringify(rec);
      if (task % 100_000 === 0) line = line.slice(0, 40); // a truncated line now and then
      line += "\n";
      written += Buffer.byteLength(line);
      batch += line;
    }
    if (batch.length > 1 << 20) {
      if (!w.write(batch)) await new Promise((r) => w.once("drain", r));
      batch = "";
    }
  }
  w.end(batch);
  await new Promise((r) => file.once("close", r));
  renameSync(tmp, path);
}

const fresh = (path) => existsSync(path) && statSync(path).size > 0;
if (flag("--gz-only")) {
  const gz = `${plain}.gz`;
  if (!fresh(gz)) await generate(gz, true);
  console.log(gz);
} else {
  if (!fresh(plain)) await generate(plain, false);
  if (flag("--gz")) {
    const gz = `${plain}.gz`;
    if (!fresh(gz)) run("sh", ["-c", `gzip -3 -c '${plain}' > '${gz}.part' && mv '${gz}.part' '${gz}'`]);
    console.log(gz);
  } else if (flag("--tar")) {
    const tgz = plain.replace(/\.jsonl$/, ".tar.gz");
    if (!fresh(tgz)) run("sh", ["-c", `tar -C '${outDir}' -cf - '${basename(plain)}' | gzip -3 > '${tgz}.part' && mv '${tgz}.part' '${tgz}'`]);
    console.log(tgz);
  } else console.log(plain);
}

function run(cmd, argv) {
  const r = spawnSync(cmd, argv, { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")}: exit ${r.status}`);
}
