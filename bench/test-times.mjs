#!/usr/bin/env node
// The test suite's time from a vitest JSON report (issue 19: npm test under 4 minutes
// on an idle 2-core machine, no test over 20 s): the wall span from the first file's
// start to the last one's end, the busiest moment (files running at once), the
// counts, the slowest files and the slowest tests, and the tests over the limit.
// Durations are wall time, so they grow with the machine's load: say the load
// (`uptime`) beside any figure. Not part of npm test. Write the report with
//   npx vitest run --reporter=json --outputFile=/tmp/vitest.json
// (after `npm run build`: some tests spawn dist/bin.js), then
//   node bench/test-times.mjs /tmp/vitest.json [N] [LIMIT_S]
// N: how many files and tests to list (default 15); LIMIT_S: the per-test limit (default 20).
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const [path, n = "15", limit = "20"] = process.argv.slice(2);
if (!path) {
  process.stderr.write("usage: node bench/test-times.mjs REPORT.json [N] [LIMIT_S] (--help for more)\n");
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, "utf8"));
const files = report.testResults.map((f) => ({ name: basename(f.name), start: f.startTime, end: f.endTime, tests: f.assertionResults }));
const start = Math.min(...files.map((f) => f.start));
const end = Math.max(...files.map((f) => f.end));
const atOnce = Math.max(...files.map((f) => files.filter((g) => g.start <= f.start && g.end > f.start).length));
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `${files.length} files, ${report.numTotalTests} tests (${report.numPassedTests} passed, ${report.numFailedTests} failed, ` +
    `${report.numPendingTests + (report.numTodoTests ?? 0)} skipped): ${s(end - start)} from the first file's start to the last one's end, ` +
    `at most ${atOnce} files at once; the files' own times add up to ${s(files.reduce((a, f) => a + f.end - f.start, 0))}`,
);
console.log(`\nslowest files:`);
for (const f of [...files].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, Number(n)))
  console.log(`  ${s(f.end - f.start).padStart(8)}  ${f.name} (${f.tests.length} tests)`);
const tests = files.flatMap((f) => f.tests.map((t) => ({ file: f.name, name: t.fullName, ms: t.duration ?? 0 })));
tests.sort((a, b) => b.ms - a.ms);
console.log(`\nslowest tests:`);
for (const t of tests.slice(0, Number(n))) console.log(`  ${s(t.ms).padStart(8)}  ${t.file}: ${t.name}`);
const over = tests.filter((t) => t.ms > Number(limit) * 1000);
console.log(`\n${over.length} test(s) over ${limit} s${over.length ? `: ${over.map((t) => `${t.file}: ${t.name}`).join("; ")}` : ""}`);
