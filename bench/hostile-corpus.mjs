#!/usr/bin/env node
// A hostile corpus, generated (never committed as binaries): at least 150
// files in one folder, each of a kind an attacker or a broken harness writes:
// broken JSON, huge ids, control characters and terminal escapes, CRLF, NUL
// bytes, deep nesting, long lines, duplicate ids, numeric-id collisions, odd
// encodings (BOMs, invalid UTF-8), small gzip bombs, tar archives with `../`
// names and link members, symlinks and a FIFO, empty files and side files.
//
// The generator counts what it writes, by construction: `lines` (every line
// of every file denom reads), `records`, `blank` and `rejected`, so a test can
// assert `denom report --json DIR`'s accounting exactly without trusting
// denom's own figures.
//
//   node bench/hostile-corpus.mjs DIR     writes the corpus into DIR, prints the counts as JSON
//
// Used by test/hostile-corpus.test.ts.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const rec = (task, status = "success", more = {}) => JSON.stringify({ task_id: task, status, ...more });

/** A tar archive (ustar) of `entries`: { name, body } regular files, or { name, link, type: "2" | "1" } links. */
function tar(entries) {
  const blocks = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? "");
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, "utf8");
    h.write("0000644\0", 100);
    h.write("0000000\0", 108);
    h.write("0000000\0", 116);
    h.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
    h.write("00000000000\0", 136);
    h.write("        ", 148);
    h.write(e.type ?? "0", 156);
    if (e.link) h.write(e.link, 157, 100, "utf8");
    h.write("ustar\0", 257);
    h.write("00", 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/**
 * Writes the corpus into `dir` (which must exist) and returns what it holds:
 * `files` (entries written, side files, links and the FIFO included) and the
 * accounting denom must give: `lines` = `records` + `blank` + `rejected`.
 */
export function buildCorpus(dir) {
  const counts = { files: 0, lines: 0, records: 0, blank: 0, rejected: 0 };
  /** Writes a file denom reads as JSONL; `parts` are its lines as [kind, text] with kind record | blank | rejected. */
  const jsonl = (name, parts, { eol = "\n", encode = (s) => Buffer.from(s, "utf8"), gz = false } = {}) => {
    const text = parts.map(([, t]) => t + eol).join("");
    for (const [kind] of parts) counts[kind === "record" ? "records" : kind]++;
    counts.lines += parts.length;
    const bytes = Buffer.concat([encode(text)]);
    writeFileSync(join(dir, name), gz ? gzipSync(bytes) : bytes);
    counts.files++;
  };
  const side = (name, content) => {
    writeFileSync(join(dir, name), content);
    counts.files++;
  };
  const R = (t, s, m) => ["record", rec(t, s, m)];
  const BLANK = ["blank", ""];

  // broken JSON: a cut object, a missing quote, a trailing comma, a bare word, half a line of another
  const broken = [
    '{"task_id": "x",',
    '{"task_id": x, "status": "success"}',
    '{"task_id": "x", "status": "success",}',
    "nonsense",
    '"task_id": "x"}',
    "{",
    "}",
    '{"task_id": "x" "status": "y"}',
  ];
  for (let i = 0; i < 25; i++)
    jsonl(`broken-${i}.jsonl`, [
      R(`broken-${i}-a`),
      ["rejected", broken[i % broken.length]],
      BLANK,
      R(`broken-${i}-b`, "failure"),
      ["rejected", broken[(i + 3) % broken.length]],
    ]);

  // records without what a record needs: no status, no task id, an empty task id
  for (let i = 0; i < 10; i++)
    jsonl(`missing-${i}.jsonl`, [
      R(`missing-${i}`),
      ["rejected", JSON.stringify({ task_id: `m${i}` })],
      ["rejected", JSON.stringify({ status: "success" })],
      ["rejected", JSON.stringify({ task_id: "", status: "success" })],
    ]);

  // huge ids: integers of 30 to 300 digits, and 100,000-character string ids
  for (let i = 0; i < 10; i++) {
    const digits = `9${"7".repeat(30 + i * 30)}`;
    jsonl(`huge-id-${i}.jsonl`, [
      ["record", `{"task_id": ${digits}, "status": "success"}`],
      ["record", `{"task_id": ${digits}1, "status": "failure"}`],
      R("h".repeat(100_000 + i)),
    ]);
  }

  // control characters and terminal escapes in ids, statuses' neighbours and extra fields
  const escapes = [
    "\u001b[2J",
    "\u001b]52;c;aGVsbG8=\u0007",
    "\u202etxt.exe",
    "\u0000nul",
    "\r\rover",
    "\u009b31m",
    "\u0008\u0008bs",
    "\u2066iso\u2069",
    "tab\tbed",
    "line\nbreak",
  ];
  for (let i = 0; i < 10; i++) jsonl(`escapes-${i}.jsonl`, [R(`esc-${i}-${escapes[i]}`), R(`ok-${i}`, "failure", { note: escapes[(i + 1) % 10] })]);

  // CRLF line ends, a blank CRLF line among them
  for (let i = 0; i < 10; i++) jsonl(`crlf-${i}.jsonl`, [R(`crlf-${i}-a`), BLANK, R(`crlf-${i}-b`, "failure")], { eol: "\r\n" });

  // raw NUL bytes: inside a string (a control character JSON forbids) and between tokens
  for (let i = 0; i < 5; i++)
    jsonl(`nul-${i}.jsonl`, [
      R(`nul-${i}`),
      ["rejected", `{"task_id": "a\u0000b", "status": "success"}`],
      ["rejected", `{"task_id": "c",\u0000 "status": "success"}`],
    ]);

  // deep nesting: 20 levels is fine, 100,000 is no record
  for (let i = 0; i < 5; i++)
    jsonl(`deep-${i}.jsonl`, [
      ["record", `{"task_id": "deep-${i}", "status": "success", "x": ${"[".repeat(20)}${"]".repeat(20)}}`],
      ["rejected", `{"task_id": "deeper-${i}", "status": "success", "x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
    ]);

  // long lines: a 1 MB note, and a line of 200,000 spaces around a record
  for (let i = 0; i < 5; i++)
    jsonl(`long-${i}.jsonl`, [
      R(`long-${i}`, "success", { note: "n".repeat(1_000_000) }),
      ["record", `${" ".repeat(100_000)}${rec(`spaced-${i}`)}${" ".repeat(100_000)}`],
    ]);

  // duplicate ids: the same line three times, and the same attempt with another status
  for (let i = 0; i < 10; i++) jsonl(`dup-${i}.jsonl`, [R(`dup-${i}`), R(`dup-${i}`), R(`dup-${i}`), R(`dup2-${i}`), R(`dup2-${i}`, "failure")]);

  // numeric ids that collide as doubles or texts: 0, -0, 1, 1.0, 1e0, "1"
  for (let i = 0; i < 5; i++)
    jsonl(
      `numeric-id-${i}.jsonl`,
      ["0", "-0", "1", "1.0", "1e0", '"1"'].map((id) => ["record", `{"task_id": ${id}, "status": "success", "run_id": "numeric-${i}"}`]),
    );

  // a UTF-8 byte order mark before the first line
  for (let i = 0; i < 5; i++)
    jsonl(`bom-${i}.jsonl`, [R(`bom-${i}-a`), R(`bom-${i}-b`)], { encode: (s) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s)]) });

  // invalid UTF-8 inside a string: that line is a reject (invalid UTF-8), the next one read
  for (let i = 0; i < 5; i++)
    jsonl(`bad-utf8-${i}.jsonl`, [["rejected", rec(`utf8-${i}-X`)], R(`utf8-${i}-ok`)], {
      encode: (s) => Buffer.from(Buffer.from(s).toString("latin1").replace("X", "\u00ff\u00fe"), "latin1"),
    });

  // small gzip bombs: a few KB that expand to 100,000 blank lines around two records
  for (let i = 0; i < 10; i++) {
    const blanks = 100_000 + i;
    const text = `${rec(`bomb-${i}-a`)}\n${"\n".repeat(blanks)}${rec(`bomb-${i}-b`, "failure")}\n`;
    writeFileSync(join(dir, `bomb-${i}.jsonl.gz`), gzipSync(text, { level: 9 }));
    counts.files++;
    counts.lines += blanks + 2;
    counts.records += 2;
    counts.blank += blanks;
  }

  // tar archives: a `../` name and an absolute one (read as members, never written anywhere), links not followed
  for (let i = 0; i < 5; i++) {
    const good = `${rec(`tar-${i}-a`)}\n${rec(`tar-${i}-b`, "failure")}\n`;
    const evil = `${rec(`tar-${i}-evil`)}\n`;
    writeFileSync(
      join(dir, `archive-${i}.tar`),
      tar([
        { name: `run/good-${i}.jsonl`, body: good },
        { name: `../../evil-${i}.jsonl`, body: evil },
        { name: `run/sym-${i}.jsonl`, type: "2", link: "/etc/passwd" },
        { name: `run/hard-${i}.jsonl`, type: "1", link: `run/good-${i}.jsonl` },
      ]),
    );
    counts.files++;
    counts.lines += 3;
    counts.records += 3;
  }

  // empty files: no line at all
  for (let i = 0; i < 15; i++) side(`empty-${i}.jsonl`, "");

  // side files no format reads
  for (let i = 0; i < 12; i++) side(i % 2 ? `notes-${i}.md` : `config-${i}.yaml`, `# side file ${i}\n`);

  // symlinks: a loop, one to a missing file, one to a file of the corpus (read once); a FIFO nobody writes
  for (const [name, target] of [
    ["loop-a.jsonl", "loop-b.jsonl"],
    ["loop-b.jsonl", "loop-a.jsonl"],
    ["dangling.jsonl", "missing.jsonl"],
    ["alias.jsonl", "dup-0.jsonl"],
  ]) {
    symlinkSync(target, join(dir, name));
    counts.files++;
  }
  if (spawnSync("mkfifo", [join(dir, "fifo.jsonl")]).status === 0) counts.files++;
  return counts;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write("usage: node bench/hostile-corpus.mjs DIR\n");
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  process.stdout.write(`${JSON.stringify(buildCorpus(dir))}\n`);
}
