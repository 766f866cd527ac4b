#!/usr/bin/env node
// Long lines (issue 16; not part of npm test): a JSONL file holding one line of N MB
// (a record whose error_message is N MB of text) between two ordinary records,
// reported by the built CLI in a child process, with the default line limit (64 MiB:
// the long line is a reject, counted and skipped without being held) and with
// --max-line-bytes raised above it (the line is read). Prints, per size, the
// accounting and the child's peak RSS. Run after `npm run build`:
//   node bench/long-lines.mjs              # 100 MB and 200 MB lines
//   node bench/long-lines.mjs 100 400      # sizes in MB
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === "--child") {
  const { main } = await import(join(here, "..", "dist", "cli.js"));
  let out = "";
  const code = await main(["report", "--json", ...process.argv.slice(3)], {
    stdout: { write: (s) => (out += s) },
    stderr: { write: () => {} },
    stdin: process.stdin,
    env: {},
  });
  const a = code === 0 ? JSON.parse(out).accounting : null;
  process.stdout.write(JSON.stringify({ code, accounting: a, max_rss_kib: process.resourceUsage().maxRSS }));
  process.exit(0);
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const dir = mkdtempSync(join(tmpdir(), "denom-bench-long-"));
try {
  for (const mb of sizes.length ? sizes : [100, 200]) {
    const path = join(dir, `long-${mb}.jsonl`);
    const fd = openSync(path, "w");
    writeSync(fd, JSON.stringify({ task_id: "a", status: "success" }) + "\n");
    writeSync(fd, '{"task_id": "long", "status": "failure", "error_message": "');
    const piece = "x".repeat(1 << 20);
    for (let i = 0; i < mb; i++) writeSync(fd, piece);
    writeSync(fd, '"}\n' + JSON.stringify({ task_id: "b", status: "failure" }) + "\n");
    closeSync(fd);
    for (const flags of [[], ["--max-line-bytes", `${mb + 16}MiB`]]) {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", path, ...flags], { encoding: "utf8" });
      const o = JSON.parse(r.stdout || "{}");
      const a = o.accounting;
      console.log(
        `${String(mb).padStart(5)} MB line ${(flags.join(" ") || "(default limit)").padEnd(30)} exit ${o.code}  ` +
          (a ? `lines ${a.lines} = records ${a.records} + rejected ${a.rejected}  ` : `${r.stderr.slice(0, 200)} `) +
          `peak RSS ${Math.round(o.max_rss_kib / 1024)} MB`,
      );
    }
    rmSync(path);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
