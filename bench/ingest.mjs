#!/usr/bin/env node
// The ingest benchmark of issue 8 (never run by npm test or .ci/run). Run after
// `npm run build`:
//   npm run bench                                  # everything, 1 GB
//   node bench/ingest.mjs 200 --only plain         # iterate on 200 MB
// The plain and variants sections read the reference generator's log
// (bench/reference/gen_attempts.mjs, seed 7, SIZE_MB x 1,400 lines: 1000 MB is its
// 1,400,000 lines); big and db bench/generate.mjs's own logs.
// Flags: SIZE_MB (default 1000); --only a,b (sections: plain, variants, big, db);
// --rounds N (plain section, default 2); --big-mb N (default 2500); --db-mb N
// (JSONL of the db section, default 2174: about 2.5 M attempts, 12.5 M events).
//
// Each measured run is a child process timed by /usr/bin/time (wall seconds and
// peak RSS of the process tree's largest process), run in alternation so that the
// shared machine's load hits every contender alike:
//   denom   `denom report FILE --json`, the CLI as a user runs it;
//   native  bench/reference/native_baseline.mjs: DuckDB's read_json into typed attempts
//           and events tables and the rate grid in plain SQL, nothing accounted;
//   jq      a one-liner for the strict rate (final successes / trials), skipping
//           lines that are not JSON (`fromjson?`).
// Sections:
//   plain     the JSONL file: each contender, --rounds times; ratio denom / native
//   variants  denom on FILE.gz, a .tar.gz holding FILE, and FILE piped to stdin,
//             against native on FILE and on FILE.gz
//   big       a gzip of --big-mb MB uncompressed with about 2,100-byte records
//             (1.2 M records at 2.5 GB): exact counts and peak RSS (issue 7)
//   db        `denom ingest --db` of --db-mb MB of attempts (3-7 events each),
//             then `report --db` on the kept file, three times
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { finalTotal, generate, JQ_STRICT, measure, nativeBaseline, referenceLog } from "./timed.mjs";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createGunzip } from "node:zlib";
import { createReadStream } from "node:fs";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "bin.js");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizeMb = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith("--")) ?? 1000);
const only = new Set(opt("--only", "plain,variants,big,db").split(","));
const rounds = Number(opt("--rounds", 2));
const bigMb = Number(opt("--big-mb", 2500));
const dbMb = Number(opt("--db-mb", 2174));
const scratch = mkdtempSync(join(tmpdir(), "denom-bench-"));

const denom = (...inputs) => {
  const m = measure(process.execPath, [bin, "report", ...inputs, "--json"]);
  return { ...m, ...finalTotal(m.stdout) };
};
const native = (file) => nativeBaseline(file);
const jq = (file) => {
  const m = measure("/usr/bin/jq", ["-nrR", JQ_STRICT, file]);
  return { ...m, check: m.stdout.trim() };
};
const piped = (file) => {
  const m = measure("sh", ["-c", `cat '${file}' | '${process.execPath}' '${bin}' report - --json`]);
  return { ...m, check: finalTotal(m.stdout).check };
};

const mb = (bytes) => bytes / 1e6;
function line(label, r, bytes, extra = "") {
  console.log(
    `${label.padEnd(30)} ${r.wall.toFixed(1).padStart(7)} s ${(mb(bytes) / r.wall).toFixed(1).padStart(7)} MB/s ${r.rssMb.toFixed(0).padStart(6)} MiB RSS  ${r.check ?? ""}${extra}`,
  );
}
const best = (runs) => runs.reduce((a, b) => (b.wall < a.wall ? b : a));

console.log(`denom ingest bench: ${new Date().toISOString()}, Node ${process.version}, ${(await import("node:os")).cpus().length} cores`);
const file = referenceLog(sizeMb * 1400, 7);
const bytes = statSync(file).size;
console.log(`input: ${file} (${mb(bytes).toFixed(0)} MB)\n`);
let nativeBest = null;

if (only.has("plain")) {
  console.log(`== plain JSONL, ${rounds} rounds in alternation (wall, throughput, peak RSS, final/total)`);
  const runs = { denom: [], native: [], jq: [] };
  for (let i = 1; i <= rounds; i++) {
    const d = denom(file);
    line(`denom report #${i}`, d, bytes);
    const n = native(file);
    line(`native read_json #${i}`, n, bytes, `   ratio denom/native ${(d.wall / n.wall).toFixed(2)}`);
    const j = jq(file);
    line(`jq strict rate #${i}`, j, bytes);
    runs.denom.push(d);
    runs.native.push(n);
    runs.jq.push(j);
  }
  const d = best(runs.denom);
  nativeBest = best(runs.native);
  console.log(
    `best: denom ${d.wall.toFixed(1)} s, native ${nativeBest.wall.toFixed(1)} s, jq ${best(runs.jq).wall.toFixed(1)} s; ` +
      `denom/native ${(d.wall / nativeBest.wall).toFixed(2)} (target <= 1.25), denom peak RSS ${Math.max(...runs.denom.map((r) => r.rssMb)).toFixed(0)} MiB (target <= 1536)`,
  );
  const a = d.accounting;
  console.log(`denom accounting: lines ${a.lines} = records ${a.records} + blank ${a.blank} + rejected ${a.rejected}\n`);
}

if (only.has("variants")) {
  console.log("== compressed and piped forms of the same data, against native on the plain file");
  // the .gz and .tar.gz of the log, beside it, made once
  const gz = `${file}.gz`;
  const tgz = file.replace(/\.jsonl$/, ".tar.gz");
  if (!existsSync(gz)) execFileSync("sh", ["-c", 'gzip -c "$1" > "$2.partial" && mv "$2.partial" "$2"', "sh", file, gz]);
  if (!existsSync(tgz)) execFileSync("sh", ["-c", 'tar -czf "$3.partial" -C "$1" "$2" && mv "$3.partial" "$3"', "sh", dirname(file), basename(file), tgz]);
  const n = native(file);
  line("native read_json (plain)", n, bytes);
  const ng = native(gz);
  line("native read_json (.gz)", ng, bytes);
  const ref = nativeBest && nativeBest.wall < n.wall ? nativeBest : n;
  for (const [label, run] of [
    [".gz", () => denom(gz)],
    [".tar.gz", () => denom(tgz)],
    ["stdin (cat FILE |)", () => piped(file)],
  ]) {
    const r = run();
    line(`denom report ${label}`, r, bytes, `   denom/native ${(r.wall / ref.wall).toFixed(2)} (target <= 1.67)`);
  }
  console.log("");
}

if (only.has("big")) {
  console.log(`== big gzip: ${bigMb} MB uncompressed, about 2,100 bytes a record (issue 7)`);
  const big = generate(String(bigMb), "--events", "10-19", "--gz-only");
  let uncompressed = 0;
  for await (const c of createReadStream(big).pipe(createGunzip())) uncompressed += c.length;
  const r = denom(big);
  const a = r.accounting;
  line("denom report .gz", r, uncompressed);
  console.log(`   ${mb(statSync(big).size).toFixed(0)} MB gzip, ${mb(uncompressed).toFixed(0)} MB uncompressed`);
  console.log(`   lines ${a.lines} = records ${a.records} + blank ${a.blank} + rejected ${a.rejected}; duplicates ${a.duplicates}\n`);
}

if (only.has("db")) {
  console.log(`== --db: ${dbMb} MB of JSONL (3-7 events an attempt), then report --db on the kept file`);
  const input = generate(String(dbMb), "--events", "3-7");
  const inputBytes = statSync(input).size;
  const db = join(scratch, "runs.duckdb");
  const ing = measure(process.execPath, [bin, "ingest", input, "--db", db, "--json"]);
  const stored = JSON.parse(ing.stdout).database;
  line("denom ingest --db", ing, inputBytes, `   ${stored.attempts} attempts, target peak RSS <= 1024 MiB`);
  const counts = measure(process.execPath, [
    bin,
    "query",
    "--db",
    db,
    "--json",
    "SELECT (SELECT count(*) FROM attempts) AS attempts, (SELECT count(*) FROM events) AS events",
  ]);
  console.log(`   kept db: ${counts.stdout.trim().replace(/\s+/g, " ")}, ${mb(statSync(db).size).toFixed(0)} MB`);
  for (let i = 1; i <= 3; i++) {
    const r = measure(process.execPath, [bin, "report", "--db", db, "--json"]);
    console.log(`report --db #${i}`.padEnd(30), `${r.wall.toFixed(2).padStart(7)} s ${r.rssMb.toFixed(0).padStart(6)} MiB RSS   (target < 3 s)`);
  }
}
rmSync(scratch, { recursive: true, force: true });
