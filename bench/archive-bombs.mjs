#!/usr/bin/env node
// Archive and compression bombs (not part of npm test; docs/security.md,
// "Archives and compressed inputs"): builds each hostile input in a temporary
// folder, runs `report --json` of a built CLI on it under /usr/bin/time -v (a
// time limit per run), and prints its size on disk, exit code, wall time, peak
// RSS, first line of stderr and whether a denom temp folder was left behind.
//   node bench/archive-bombs.mjs                     # dist/bin.js of this checkout
//   node bench/archive-bombs.mjs --bin OTHER/dist/bin.js --only blank,nested --timeout 120
// Sizes: --blank-mib 200 (blank lines), --nested 3000 (gzip depth),
// --samples 65000 (.eval members, at most 65,534: no zip64), --tar-members 1000000, --zstd-blocks 1750.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateRawSync, gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const bin = arg("bin", join(here, "..", "dist", "bin.js"));
const only = arg("only", null)?.split(",") ?? null;
const timeout = Number(arg("timeout", 120));

/** A zip (APPNOTE) of members given as { name, data (stored bytes), method, size (declared), crc }. */
export function zipOf(members) {
  const local = [];
  const central = [];
  let at = 0;
  for (const m of members) {
    const name = Buffer.from(m.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x800, 6);
    h.writeUInt16LE(m.method, 8);
    h.writeUInt32LE(m.crc >>> 0, 14);
    h.writeUInt32LE(m.data.length, 18);
    h.writeUInt32LE(m.size, 22);
    h.writeUInt16LE(name.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(m.method, 10);
    c.writeUInt32LE(m.crc >>> 0, 16);
    c.writeUInt32LE(m.data.length, 20);
    c.writeUInt32LE(m.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(at, 42);
    local.push(h, name, m.data);
    central.push(c, name);
    at += 30 + name.length + m.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...local, cd, end]);
}

const header = Buffer.from(
  JSON.stringify({
    version: 2,
    status: "success",
    eval: {
      eval_id: "E",
      run_id: "R",
      task: "t",
      task_id: "t-id",
      model: "m",
      dataset: { name: "t" },
      config: { epochs: 1 },
      packages: { inspect_ai: "0.3.160" },
    },
    results: { total_samples: 1, completed_samples: 1 },
  }),
);
const deflated = (name, text) => ({ name, data: deflateRawSync(text, { level: 9 }), method: 8, size: text.length, crc: crc32(text) });

/** A zstd frame: a raw block of `head`, `rle` RLE blocks of 128 KiB of `byte`, a raw block of `tail` (RFC 8878). */
function zstdBomb(head, rle, byte, tail) {
  const block = (type, size, last) => {
    const h = (size << 3) | (type << 1) | (last ? 1 : 0);
    return Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]);
  };
  // no single segment, no content size: a window of 1 MiB (exponent 10 + 10)
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 10 << 3]), block(0, head.length, false), head];
  for (let i = 0; i < rle; i++) parts.push(block(1, 128 * 1024, false), Buffer.from([byte]));
  parts.push(block(0, tail.length, true), tail);
  return { data: Buffer.concat(parts), size: head.length + rle * 128 * 1024 + tail.length };
}

const bombs = {
  /** one sample whose `input` is 200 MB of `a`, deflated: about 200 KB */
  "deflate-eval": (dir) => {
    const text = Buffer.concat([Buffer.from('{"id":1,"epoch":1,"input":"'), Buffer.alloc(200e6, 0x61), Buffer.from('","scores":{}}')]);
    const path = join(dir, "deflate.eval");
    writeFileSync(path, zipOf([deflated("header.json", header), deflated("samples/1_epoch_1.json", text)]));
    return path;
  },
  /** one sample whose `input` is N x 128 KiB of `a` in zstd RLE blocks (4 bytes each) */
  "zstd-eval": (dir) => {
    const z = zstdBomb(Buffer.from('{"id":1,"epoch":1,"input":"'), Number(arg("zstd-blocks", 1750)), 0x61, Buffer.from('","scores":{}}'));
    const path = join(dir, "zstd.eval");
    writeFileSync(path, zipOf([deflated("header.json", header), { name: "samples/1_epoch_1.json", data: z.data, method: 93, size: z.size, crc: 0 }]));
    return path;
  },
  /** the same member declaring 200 bytes: 8,000 RLE blocks, 1 GiB */
  "zstd-lie": (dir) => {
    const z = zstdBomb(Buffer.from('{"id":1,"epoch":1,"input":"'), 8000, 0x61, Buffer.from('","scores":{}}'));
    const path = join(dir, "zstd-lie.eval");
    writeFileSync(path, zipOf([deflated("header.json", header), { name: "samples/1_epoch_1.json", data: z.data, method: 93, size: 200, crc: 0 }]));
    return path;
  },
  /** N tiny samples */
  "eval-many": (dir) => {
    const n = Math.min(65534, Number(arg("samples", 65000))); // more needs zip64
    const members = [deflated("header.json", header)];
    for (let i = 0; i < n; i++)
      members.push(deflated(`samples/${i}_epoch_1.json`, Buffer.from(`{"id":${i},"epoch":1,"input":"q","target":"T","scores":{"match":{"value":"C"}}}`)));
    const path = join(dir, "many.eval");
    writeFileSync(path, zipOf(members));
    return path;
  },
  /** a tar.gz of N members of one record each */
  "tar-many": (dir) => {
    const n = Number(arg("tar-members", 1000000));
    const blocks = [];
    const body = Buffer.alloc(512);
    body.write('{"task_id":"t","status":"success"}\n');
    for (let i = 0; i < n; i++) {
      const h = Buffer.alloc(512);
      h.write(`r${i}.jsonl`, 0);
      h.write("0000644\0", 100);
      h.write("0000000\0", 108);
      h.write("0000000\0", 116);
      h.write("00000000043\0", 124);
      h.write("00000000000\0", 136);
      h.write("        ", 148);
      h.write("0", 156);
      h.write("ustar\0", 257);
      h.write("00", 263);
      let sum = 0;
      for (const b of h) sum += b;
      h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
      blocks.push(h, body);
    }
    blocks.push(Buffer.alloc(1024));
    const path = join(dir, "many.tar.gz");
    writeFileSync(path, gzipSync(Buffer.concat(blocks)));
    return path;
  },
  /** N MiB of blank lines, gzipped */
  blank: (dir) => {
    const path = join(dir, "blank.jsonl.gz");
    writeFileSync(path, gzipSync(Buffer.alloc(Number(arg("blank-mib", 200)) * 1024 * 1024, 10), { level: 9 }));
    return path;
  },
  /** one record in gzip nested N deep */
  nested: (dir) => {
    let b = Buffer.from('{"task_id":"t","status":"success"}\n');
    for (let i = 0; i < Number(arg("nested", 3000)); i++) b = gzipSync(b);
    const path = join(dir, "nested.jsonl.gz");
    writeFileSync(path, b);
    return path;
  },
};

const dir = mkdtempSync(join(tmpdir(), "denom-bombs-"));
const denomDirs = () => new Set(readdirSync(tmpdir()).filter((n) => /^denom-\d+-/.test(n) || n.startsWith("denom-zip-")));
try {
  console.log("bomb          on disk      exit  time s  peak RSS MB  left  stderr");
  for (const [name, build] of Object.entries(bombs)) {
    if (only && !only.includes(name)) continue;
    const path = build(dir);
    const before = denomDirs();
    // the report itself is not kept: listing 10^5 sources is tens of MB
    const t = spawnSync("/usr/bin/time", ["-v", "timeout", String(timeout), process.execPath, bin, "report", "--json", path], {
      encoding: "utf8",
      stdio: ["ignore", "ignore", "pipe"],
      maxBuffer: 1 << 26,
    });
    const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(t.stderr)?.[1] ?? 0) / 1024;
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.*)/.exec(t.stderr)?.[1] ?? "?";
    const secs = wall.split(":").reduce((a, x) => a * 60 + Number(x), 0);
    const left = [...denomDirs()].filter((n) => !before.has(n)).length;
    const first = t.stderr.split("\n").find((l) => l.startsWith("denom:")) ?? t.stderr.split("\n").find((l) => /signal|exit|Error/i.test(l)) ?? "";
    const exit = /Exit status: (\d+)/.exec(t.stderr)?.[1] ?? (/signal (\d+)/.exec(t.stderr) ? `sig${/signal (\d+)/.exec(t.stderr)[1]}` : "0");
    console.log(
      `${name.padEnd(12)}  ${`${(statSync(path).size / 1024).toFixed(0)} KB`.padStart(9)}  ${exit.padStart(6)}  ${secs.toFixed(1).padStart(6)}  ${rss.toFixed(0).padStart(11)}  ${String(left).padStart(4)}  ${first.slice(0, 160)}`,
    );
    rmSync(path);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
