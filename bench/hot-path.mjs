#!/usr/bin/env node
// Micro-benchmarks of the ingest hot path (not part of npm test; run by hand after
// `npm run build`): `node bench/hot-path.mjs [records]`. Compares, in one run, the
// choices made in src/ingest (ratios matter; absolute times are noisy):
//   - the JSONL line check: native isUtf8 alone vs an ASCII scan in front of it;
//   - decoding a JSON document: TextDecoder with fatal (bytes that are not UTF-8
//     are rejected) vs StringDecoder (they silently become U+FFFD);
//   - the NaN/Infinity filter: pieces without a token (the fast path) vs the same
//     document where every piece holds "NaN" inside a string (the full scan);
//   - a whole JSON document through readUnits, pretty-printed and minified.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { isUtf8 } from "node:buffer";
import { dirname, join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import { medianMs } from "./median.mjs";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "ingest", "records");
const { NonFiniteFilter } = await import(join(dist, "non-finite.js"));
const { readUnits } = await import(join(dist, "reader.js"));

const n = Number(process.argv[2] ?? 60000);
const PIECE = 32 * 1024; // the read size of sources.ts

function records(note) {
  return Array.from({ length: n }, (_, i) => ({
    task_id: `task-${i}`,
    status: i % 3 ? "success" : "timeout",
    note,
    cost_usd: 0.12,
    started_at: "2025-01-01T00:00:00Z",
    ended_at: "2025-01-01T00:05:00Z",
    events: Array.from({ length: 5 }, (_, j) => ({ ts: 1.7e9 + j, type: "tool_call", name: "bash", args: { cmd: `ls "dir ${j}" | grep x` } })),
  }));
}
const pieces = (buf) => Array.from({ length: Math.ceil(buf.length / PIECE) }, (_, i) => buf.subarray(i * PIECE, (i + 1) * PIECE));

/** Median of 5 runs, in ms. */
function time(label, mb, fn) {
  const ms = medianMs(fn);
  console.log(`${label.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms ${(mb / (ms / 1000)).toFixed(0).padStart(7)} MB/s`);
}

const pretty = Buffer.from(JSON.stringify({ results: records("nan") }, null, 2));
const prettyNaN = Buffer.from(JSON.stringify({ results: records("NaN") }, null, 2));
const mini = Buffer.from(JSON.stringify({ results: records("nan") }));
const miniNaN = Buffer.from(JSON.stringify({ results: records("NaN") }));
const lines = records("nan").map((r) => Buffer.from(JSON.stringify(r)));
const linesMb = lines.reduce((s, l) => s + l.length, 0) / 1e6;

function isAscii(buf) {
  for (let i = 0; i < buf.length; i++) if (buf[i] > 127) return false;
  return true;
}
console.log(`JSONL lines: ${lines.length}, ${linesMb.toFixed(1)} MB`);
time("line check: isUtf8", linesMb, () => {
  for (const l of lines) isUtf8(l);
});
time("line check: ASCII scan, then isUtf8", linesMb, () => {
  for (const l of lines) isAscii(l) || isUtf8(l);
});

for (const [label, doc, withToken] of [
  ["pretty", pretty, prettyNaN],
  ["minified", mini, miniNaN],
]) {
  const mb = doc.length / 1e6;
  const bytes = pieces(doc);
  const texts = bytes.map((b) => b.toString("latin1"));
  const tokenTexts = pieces(withToken).map((b) => b.toString("latin1"));
  console.log(`${label} document: ${mb.toFixed(1)} MB`);
  time("  decode: TextDecoder fatal, stream", mb, () => {
    const d = new TextDecoder("utf-8", { fatal: true });
    for (const b of bytes) d.decode(b, { stream: true });
  });
  time("  decode: StringDecoder", mb, () => {
    const d = new StringDecoder("utf8");
    for (const b of bytes) d.write(b);
  });
  time("  NaN filter: no token in any piece (fast path)", mb, () => {
    const f = new NonFiniteFilter();
    for (const t of texts) f.push(t);
  });
  time('  NaN filter: "NaN" in a string of every piece', mb, () => {
    const f = new NonFiniteFilter();
    for (const t of tokenTexts) f.push(t);
  });
  const t0 = process.hrtime.bigint();
  let units = 0;
  await readUnits(
    (async function* () {
      yield* bytes;
    })(),
    new Set(["results"]),
    { unit: () => units++, blank: () => {}, reject: () => {} },
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(
    `${"  readUnits, whole document (one run)".padEnd(52)} ${ms.toFixed(1).padStart(8)} ms ${(mb / (ms / 1000)).toFixed(0).padStart(7)} MB/s  (${units} records)`,
  );
}
