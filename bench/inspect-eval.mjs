#!/usr/bin/env node
// The `.eval` benchmark of issue 13 (never run by npm test or .ci/run). Run after
// `npm run build`:
//   node bench/inspect-eval.mjs 100            # a .eval of 100 MB of members (uncompressed)
//   node bench/inspect-eval.mjs 1000 --zstd    # 1 GB: only on a machine of your own
//   node bench/inspect-eval.mjs 1000 --bin ../old/dist/bin.js   # another build (before a change)
//   node bench/inspect-eval.mjs 1000 --epochs 5  # each sample run 5 times, a member per epoch
// Writes bench/out/inspect-<SIZE>mb[-zstd].eval with yazl (kept and reused):
// one eval, samples of about 33 KB (a conversation of messages, 40 model and
// tool events with their inputs and results, pseudo-random text so deflate
// does not shrink it to nothing), deflate members, or with --zstd stored
// members patched to zstd (raw blocks, test/eval-archives.ts). Then times
// `denom report FILE --json` under /usr/bin/time and prints wall seconds,
// MB/s of member bytes (and of file bytes), peak RSS, and final/total checked
// against what was written (every 3rd sample fails).
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import yazl from "yazl";
import { finalTotal, measure } from "./timed.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const sizeMb = Number(args.find((a) => /^\d+$/.test(a)) ?? 100);
const useZstd = args.includes("--zstd");
const epochs = args.includes("--epochs") ? Number(args[args.indexOf("--epochs") + 1]) : 1;
const bin = args.includes("--bin") ? args[args.indexOf("--bin") + 1] : join(here, "..", "dist", "bin.js");
const outDir = join(here, "out");
mkdirSync(outDir, { recursive: true });
const file = join(outDir, `inspect-${sizeMb}mb${useZstd ? "-zstd" : ""}${epochs > 1 ? `-${epochs}epochs` : ""}.eval`);

let seed = 13;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const WORDS = Array.from({ length: 4096 }, (_, i) => ((i * 2654435761) % 4294967296).toString(36));
const text = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");

function sampleOf(id, epoch) {
  const t0 = Date.UTC(2026, 0, 1) + id * 1000 + epoch * 100;
  const iso = (s) => new Date(t0 + s * 1000).toISOString();
  const events = [];
  for (let i = 0; i < 20; i++) {
    events.push({
      event: "model",
      timestamp: iso(i * 3),
      model: "openai/bench",
      input: [{ role: "user", content: text(60) }],
      output: { completion: text(40) },
      working_time: 1.5,
    });
    events.push({ event: "tool", timestamp: iso(i * 3 + 2), function: "bash", arguments: { cmd: `ls ${i % 7}` }, result: text(40), working_time: 0.3 });
  }
  return {
    id,
    epoch,
    input: text(30),
    target: "T",
    messages: Array.from({ length: 10 }, () => ({ role: "assistant", content: text(80) })),
    scores: { match: { value: id % 3 === 0 ? "I" : "C" } },
    events,
    model_usage: { "openai/bench": { total_tokens: 5000 } },
    total_time: 60,
    working_time: 36,
  };
}

/** Patches the named stored members to zstd (method 93) with their real sizes and CRCs. */
function zstdFrame(data) {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0]), Buffer.alloc(4)];
  parts[1].writeUInt32LE(data.length);
  for (let at = 0; at < data.length || at === 0; at += 131072) {
    const n = Math.min(131072, data.length - at);
    const h = (n << 3) | (at + n >= data.length ? 1 : 0);
    parts.push(Buffer.from([h & 255, (h >> 8) & 255, (h >> 16) & 255]), data.subarray(at, at + n));
    if (n === 0) break;
  }
  return Buffer.concat(parts);
}

async function generate() {
  const zip = new yazl.ZipFile();
  const tmp = `${file}.part`;
  const done = new Promise((resolve, reject) => zip.outputStream.pipe(createWriteStream(tmp)).on("close", resolve).on("error", reject));
  let bytes = 0;
  let n = 0;
  const plain = new Map();
  const add = (name, content) => {
    const buf = Buffer.from(typeof content === "string" ? content : JSON.stringify(content));
    bytes += buf.length;
    if (useZstd) {
      plain.set(name, { crc: crc32(buf), size: buf.length });
      zip.addBuffer(zstdFrame(buf), name, { compress: false });
    } else zip.addBuffer(buf, name, { compress: true });
  };
  const target = sizeMb * 1e6;
  const samples = [];
  while (bytes < target) {
    n++;
    for (let e = 1; e <= epochs; e++) add(`samples/${n}_epoch_${e}.json`, sampleOf(n, e));
    samples.push(n);
  }
  add("header.json", {
    version: 2,
    status: "success",
    eval: { eval_id: "BENCH", run_id: "BENCH-RUN", task: "bench", model: "openai/bench", dataset: { sample_ids: samples }, config: { epochs } },
    results: { total_samples: n * epochs, completed_samples: n * epochs }, // Inspect counts samples x epochs
  });
  zip.end();
  await done;
  if (useZstd) patch(tmp, plain);
  renameSync(tmp, file);
  return n;
}

function patch(path, plain) {
  // the archive is read into memory for the patch only: the generator's cost, not denom's
  const zip = readFileSync(path);
  for (let at = 0; at + 46 <= zip.length; at++) {
    const sig = zip.readUInt32LE(at);
    const local = sig === 0x04034b50;
    if (!local && sig !== 0x02014b50) continue;
    const name = zip.toString("utf8", at + (local ? 30 : 46), at + (local ? 30 : 46) + zip.readUInt16LE(at + (local ? 26 : 28)));
    const p = plain.get(name);
    if (!p) continue;
    zip.writeUInt16LE(93, at + (local ? 8 : 10));
    zip.writeUInt32LE(p.crc, at + (local ? 14 : 16));
    zip.writeUInt32LE(p.size, at + (local ? 22 : 24));
  }
  writeFileSync(path, zip); // before the rename: a stream opened later would write a new .part file
}

if (!existsSync(file)) {
  const t = Date.now();
  const n = await generate();
  console.error(`wrote ${file}: ${n} samples, ${(statSync(file).size / 1e6).toFixed(1)} MB file, ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

// under /usr/bin/time, its scratch folder removed however the run ends (bench/timed.mjs)
const { wall, cpu, rssMb, stdout } = measure(process.execPath, [bin, "report", file, "--json"]);
const { check } = finalTotal(stdout);
const out = JSON.parse(stdout);
const n = out.meta.trials;
const expected = n - Math.floor(n / epochs / 3) * epochs; // every 3rd sample scored I, in every epoch
console.log(
  JSON.stringify({
    file,
    bin,
    file_mb: +(statSync(file).size / 1e6).toFixed(1),
    member_mb: sizeMb,
    samples: n,
    wall_s: wall,
    cpu_s: +cpu.toFixed(1),
    member_mb_per_s: +(sizeMb / wall).toFixed(1),
    member_mb_per_cpu_s: +(sizeMb / cpu).toFixed(1),
    file_mb_per_s: +(statSync(file).size / 1e6 / wall).toFixed(1),
    peak_rss_mb: Math.round(rssMb),
    final_total: check,
    expected: `${expected}/${n}`,
  }),
);
