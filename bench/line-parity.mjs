#!/usr/bin/env node
// Issue 20: the JSONL line path in this thread against the worker threads
// (src/ingest/load/parallel.ts), on one input. Runs `denom ingest --db` twice,
// DENOM_LINE_WORKERS=0 and DENOM_LINE_WORKERS=N with DENOM_LINE_WORKER_MIN_BYTES=0
// (every source through the workers), then compares stdout, stderr, the exit code
// and every loaded table row for row (an md5 of its rows sorted as text;
// sources.loaded_at left out), and prints wall and CPU seconds of each run.
// Exit 1 when anything differs. Not part of npm test. Run after `npm run build`:
//   node bench/line-parity.mjs FILE [--workers N] [--stdin] [-- extra denom flags]
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "bin.js");
const args = process.argv.slice(2);
const dash = args.indexOf("--");
const extra = dash === -1 ? [] : args.slice(dash + 1);
const own = dash === -1 ? args : args.slice(0, dash);
const input = own.find((a) => !a.startsWith("--") && !/^\d+$/.test(a));
const wi = own.indexOf("--workers");
const workers = wi === -1 ? "1" : own[wi + 1];
const viaStdin = own.includes("--stdin");
if (!input) {
  console.error("usage: node bench/line-parity.mjs FILE [--workers N] [--stdin] [-- flags]");
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), "denom-parity-"));
const run = (name, env) => {
  const db = join(dir, `${name}.duckdb`);
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, "ingest", "--db", db, viaStdin ? "-" : input, ...extra], {
    env: { ...process.env, ...env },
    stdio: [viaStdin ? openSync(input, "r") : "ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const wall = Number(process.hrtime.bigint() - t) / 1e9;
  return { db, wall, status: r.status, stdout: r.stdout.replaceAll(db, "DB"), stderr: r.stderr.replaceAll(db, "DB") };
};

const tablesOf = async (path) => {
  const instance = await DuckDBInstance.create(path);
  const con = await instance.connect();
  const names = (
    await (await con.runAndReadAll("SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' ORDER BY 1")).getRowObjects()
  ).map((r) => r.table_name);
  const out = {};
  for (const t of names) {
    if (t === "layer_key") continue; // a fingerprint of the sources rows, loaded_at included: differs between any two runs
    const cols = (
      await (
        await con.runAndReadAll(
          `SELECT column_name FROM information_schema.columns WHERE table_name = '${t}' AND column_name <> 'loaded_at' ORDER BY ordinal_position`,
        )
      ).getRowObjects()
    ).map((r) => `"${r.column_name}"`);
    const row = (
      await (
        await con.runAndReadAll(
          `SELECT count(*)::BIGINT AS n, md5(coalesce(string_agg(r, chr(10) ORDER BY r), '')) AS h FROM (SELECT CAST(ROW(${cols.join(", ")}) AS VARCHAR) AS r FROM "${t}")`,
        )
      ).getRowObjects()
    )[0];
    out[t] = `${row.n} rows ${row.h}`;
  }
  con.closeSync();
  instance.closeSync();
  return out;
};

const a = run("thread", { DENOM_LINE_WORKERS: "0" });
const b = run("workers", { DENOM_LINE_WORKERS: workers, DENOM_LINE_WORKER_MIN_BYTES: "0" });
let same = true;
for (const k of ["status", "stdout", "stderr"]) {
  const eq = a[k] === b[k];
  same &&= eq;
  console.log(`${k.padEnd(14)} ${eq ? "same" : "DIFFERS"}${k === "status" ? ` (${a.status})` : ` (${String(a[k]).length} chars)`}`);
}
const ta = await tablesOf(a.db);
const tb = await tablesOf(b.db);
for (const t of new Set([...Object.keys(ta), ...Object.keys(tb)])) {
  const eq = ta[t] === tb[t];
  same &&= eq;
  console.log(`${t.padEnd(14)} ${eq ? "same" : "DIFFERS"} ${ta[t]}${eq ? "" : ` vs ${tb[t]}`}`);
}
console.log(`wall: in-thread ${a.wall.toFixed(2)} s, ${workers} worker(s) ${b.wall.toFixed(2)} s`);
rmSync(dir, { recursive: true, force: true });
process.exit(same ? 0 : 1);
