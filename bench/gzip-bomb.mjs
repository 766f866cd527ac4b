#!/usr/bin/env node
// Gzip bombs (issue 7; not part of npm test): a .jsonl.gz that expands about 1000x
// (lines of 200,000 spaces between a few records) at several sizes, each reported
// by the built CLI in a child process. Prints, per size, the compressed and
// expanded bytes, the line accounting and the child's peak RSS: the peak must
// not grow with the expanded size (the file is streamed, never held).
// Run after `npm run build`:
//   node bench/gzip-bomb.mjs              # 250 MB, 500 MB, 1000 MB expanded
//   node bench/gzip-bomb.mjs 100 2000     # sizes in MB
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === "--child") {
  // the child: run denom in this process, then print its accounting and peak RSS (KiB)
  const { main } = await import(join(here, "..", "dist", "cli.js"));
  let out = "";
  const code = await main(["report", "--json", process.argv[3]], {
    stdout: { write: (s) => (out += s) },
    stderr: { write: () => {} },
    stdin: process.stdin,
    env: {},
  });
  const a = JSON.parse(out).accounting;
  process.stdout.write(JSON.stringify({ code, accounting: a, max_rss_kib: process.resourceUsage().maxRSS }));
  process.exit(0);
}

const BLANK = Buffer.from(" ".repeat(200_000) + "\n");
const record = (i) => Buffer.from(JSON.stringify({ task_id: `t${i}`, status: i % 3 === 0 ? "failure" : "success" }) + "\n");

/** Writes a bomb of about `mb` MB expanded; returns its path and what it holds. */
async function bomb(dir, mb) {
  const path = join(dir, `bomb-${mb}.jsonl.gz`);
  const gz = createGzip({ level: 9 });
  const done = new Promise((resolve, reject) => gz.pipe(createWriteStream(path)).on("finish", resolve).on("error", reject));
  const blanks = Math.round((mb * 1e6) / BLANK.length);
  let records = 0;
  let expanded = 0;
  const write = async (buf) => {
    expanded += buf.length;
    if (!gz.write(buf)) await new Promise((r) => gz.once("drain", r));
  };
  for (let i = 0; i < blanks; i++) {
    if (i % 100 === 0) await write(record(records++));
    await write(BLANK);
  }
  gz.end();
  await done;
  return { path, records, blanks, expanded };
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const dir = mkdtempSync(join(tmpdir(), "denom-bomb-"));
try {
  console.log("expanded MB  gzip KB  ratio   lines = records + blank + rejected  exact  peak RSS MB");
  for (const mb of sizes.length ? sizes : [250, 500, 1000]) {
    const b = await bomb(dir, mb);
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", b.path], { encoding: "utf8", maxBuffer: 1 << 24 });
    if (child.status !== 0) {
      console.error(child.stderr);
      process.exit(1);
    }
    const r = JSON.parse(child.stdout);
    const a = r.accounting;
    const exact = a.lines === b.records + b.blanks && a.records === b.records && a.blank === b.blanks && a.rejected === 0;
    const gzBytes = statSync(b.path).size;
    console.log(
      `${(b.expanded / 1e6).toFixed(0).padStart(11)}  ${(gzBytes / 1e3).toFixed(0).padStart(7)}  ${(b.expanded / gzBytes).toFixed(0).padStart(5)}   ` +
        `${`${a.lines} = ${a.records} + ${a.blank} + ${a.rejected}`.padEnd(34)}  ${exact ? "yes" : "NO"}    ${(r.max_rss_kib / 1024).toFixed(0).padStart(9)}`,
    );
    rmSync(b.path);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
