#!/usr/bin/env node
// The whole `denom report` against DuckDB's plain reader and jq, on the plain and
// compressed forms of one log (never run by npm test). Run after `npm run build`:
//   node bench/vs-duckdb.mjs [--lines N] [--rounds N] [--forms jsonl,gz,tar,stdin] [--own SIZE_MB] [--bin BIN]
//     --lines   lines of the reference generator's log (bench/reference/gen_attempts.mjs,
//               seed 7; default 1,400,000: about 1 GB; 140,000 while iterating)
//     --own     bench/generate.mjs's log of SIZE_MB instead (denom's own input: one
//               trial per task almost everywhere, which real evaluations rarely have)
//     --rounds  rounds of each form, contenders in alternation (default 2)
//     --forms   which forms of the same log (default jsonl,gz): the JSONL file, its
//               .gz, a .tar.gz holding it, and the JSONL piped to `denom report -`
//     --bin     another build's dist/bin.js as the denom contender (e.g. ../main/dist/bin.js)
//
// Contenders, each a child process under /usr/bin/time (wall, CPU = user + system,
// peak RSS of the largest process), run one after the other in every round so the
// shared machine's load hits them alike:
//   denom   `denom report FILE --json`: every line accounted, the whole report
//   native  bench/reference/native_baseline.mjs: read_json into typed attempts and
//           events tables plus the rate grid in plain SQL, as a skilled user writes it
//   jq      a one-liner for the strict rate (final successes / trials)
// Prints each run, then per form the medians and the ratios denom/native and
// denom/jq of wall and CPU. Goals: JSONL at most 2x native, .gz at most 2.5x,
// denom's peak RSS at most 1 GB. Each line ends with final/total, which all
// contenders must agree on.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { existsSync, renameSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { finalTotal, generate, JQ_STRICT, measure, nativeBaseline, referenceLog } from "./timed.mjs";
import { execFileSync } from "node:child_process";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const own = opt("--own", null);
const lines = Number(opt("--lines", 1_400_000));
const rounds = Number(opt("--rounds", 2));
const forms = opt("--forms", "jsonl,gz").split(",");
const bin = opt("--bin", join(here, "..", "dist", "bin.js"));

const quote = (s) => `'${s.replace(/'/g, "'\\''")}'`;

const contenders = {
  denom: (f) => ({
    ...(f.piped
      ? measure("sh", ["-c", `cat ${quote(f.path)} | ${quote(process.execPath)} ${quote(bin)} report - --json`])
      : measure(process.execPath, [bin, "report", f.path, "--json"])),
  }),
  native: (f) => nativeBaseline(f.plainPath),
  jq: (f) =>
    measure("sh", ["-c", f.gzip ? `gzip -dc ${quote(f.plainPath)} | jq -nrR ${quote(JQ_STRICT)}` : `jq -nrR ${quote(JQ_STRICT)} ${quote(f.plainPath)}`]),
};
const check = (name, r) => (name === "denom" ? finalTotal(r.stdout) : name === "jq" ? { check: r.stdout.trim() } : { check: r.check });
const names = ["denom", "native", "jq"];

const file = own ? generate(own) : referenceLog(lines, 7);
const bytes = statSync(file).size;
// the .gz and .tar.gz of the reference log, beside it (bench/generate.mjs writes its own)
const gzOf = () => {
  if (own) return generate(own, "--gz");
  const gz = `${file}.gz`;
  if (!existsSync(gz)) execFileSync("sh", ["-c", `gzip -c ${quote(file)} > ${quote(gz)}.partial && mv ${quote(gz)}.partial ${quote(gz)}`]);
  return gz;
};
const tarOf = () => {
  if (own) return generate(own, "--tar");
  const tgz = file.replace(/\.jsonl$/, ".tar.gz");
  if (!existsSync(tgz)) {
    execFileSync("tar", ["-czf", `${tgz}.partial`, "-C", dirname(file), basename(file)]);
    renameSync(`${tgz}.partial`, tgz);
  }
  return tgz;
};
const formFiles = {
  // the contenders read the same bytes: the baseline and jq read the .gz for the gzip forms
  jsonl: { path: file, plainPath: file },
  gz: () => {
    const gz = gzOf();
    return { path: gz, plainPath: gz, gzip: true };
  },
  tar: () => ({ path: tarOf(), plainPath: gzOf(), gzip: true }),
  stdin: { path: file, plainPath: file, piped: true },
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mb = bytes / 1e6;
const row = (label, r) =>
  `${label.padEnd(22)} ${r.wall.toFixed(2).padStart(8)} s  CPU ${r.cpu.toFixed(2).padStart(7)} s ${(mb / r.wall).toFixed(0).padStart(5)} MB/s ${r.rssMb.toFixed(0).padStart(6)} MiB  ${r.check}`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

console.log(`denom vs the native baseline: ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, load ${load()}`);
console.log(`input: ${file} (${mb.toFixed(0)} MB uncompressed), ${rounds} rounds, forms ${forms.join(",")}\n`);
const summary = [];
for (const form of forms) {
  const spec = formFiles[form];
  if (!spec) throw new Error(`--forms: no form ${form} (jsonl, gz, tar, stdin)`);
  const f = typeof spec === "function" ? spec() : spec;
  console.log(`== ${form}: denom reads ${f.path}${f.piped ? " from stdin" : ""}`);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  let accounting;
  for (let i = 1; i <= rounds; i++) {
    for (const name of names) {
      const r = contenders[name](f);
      const c = check(name, r);
      if (c.accounting) accounting = c.accounting;
      runs[name].push({ ...r, ...c });
      console.log(row(`${name} #${i}`, { ...r, ...c }));
    }
    console.log(`   load ${load()}`);
  }
  const med = Object.fromEntries(
    names.map((n) => [n, { wall: median(runs[n].map((r) => r.wall)), cpu: median(runs[n].map((r) => r.cpu)), rss: Math.max(...runs[n].map((r) => r.rssMb)) }]),
  );
  const checks = new Set(names.map((n) => runs[n][0].check));
  const goal = form === "jsonl" ? 2 : form === "stdin" ? 2 : 2.5;
  const line =
    `${form}: median wall denom ${med.denom.wall.toFixed(2)} s, native ${med.native.wall.toFixed(2)} s, jq ${med.jq.wall.toFixed(2)} s; ` +
    `denom/native wall ${(med.denom.wall / med.native.wall).toFixed(2)} (goal <= ${goal}), CPU ${(med.denom.cpu / med.native.cpu).toFixed(2)}; ` +
    `denom/jq wall ${(med.denom.wall / med.jq.wall).toFixed(2)}; peak RSS denom ${med.denom.rss.toFixed(0)} MiB (goal <= 1024), native ${med.native.rss.toFixed(0)} MiB` +
    (checks.size === 1 ? "; final/total agree" : `; final/total DIFFER: ${[...checks].join(" ")}`);
  console.log(`${line}`);
  if (accounting)
    console.log(`   denom accounting: lines ${accounting.lines} = records ${accounting.records} + blank ${accounting.blank} + rejected ${accounting.rejected}`);
  console.log("");
  summary.push(line);
}
console.log(`== summary (load ${load()})`);
for (const s of summary) console.log(s);
