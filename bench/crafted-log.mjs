#!/usr/bin/env node
// A generated attempt log with crafted lines mixed in, for comparing the line
// path in this thread with the worker threads (bench/line-parity.mjs, issue 20):
// lines no format recognises at the start (held back, then rejected), secrets in
// messages, arguments, extra fields and ids, repeated keys (also written with
// escapes), integers past 2^53, NaN and Infinity, invalid JSON and UTF-8, blank,
// scalar and array lines, CRLF and lone CR, a run's metadata line, deep nesting,
// a long line, many timestamp shapes, and no final newline. Writes OUT from the
// first MB megabytes of BASE (a bench/generate.mjs log), one crafted line every
// EVERY lines. Not part of npm test.
//   node bench/crafted-log.mjs BASE OUT [--mb 20] [--every 40]
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { closeSync, openSync, readSync, writeFileSync } from "node:fs";

const [base, out] = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const mb = opt("--mb", 20);
const every = opt("--every", 40);
const fd = openSync(base, "r");
const buf = Buffer.alloc(mb * 1024 * 1024);
const n = readSync(fd, buf, 0, buf.length, 0);
closeSync(fd);
const text = buf.subarray(0, n).toString("utf8");
const lines = text.slice(0, text.lastIndexOf("\n")).split("\n");

const ts = [
  "2025-01-02T03:04:05Z",
  "2025-01-02T03:04:05.123456+02:00",
  "2025-01-02 03:04:05",
  "2025-01-02T03:04:05",
  "1735787045",
  "1735787045123",
  "not a time",
  "2025-13-40T99:99:99Z",
  "2025-01-02T03:04:05.1234567891Z",
];
const crafted = (i) => {
  const id = `crafted-${i}`;
  const t = ts[i % ts.length];
  const c = [
    `{"task_id":"${id}","status":"failed","error_message":"key sk-proj-${"a1B2c3D4".repeat(5)} leaked","started_at":"2025-01-02T03:04:05Z","ended_at":"2025-01-02T03:05:05Z"}`,
    `{"task_id":"${id}","status":"passed","events":[{"ts":"2025-01-02T03:04:05Z","type":"tool_call","name":"curl","args":{"header":"Authorization: Bearer ghp_${"x9Y8".repeat(9)}"}}]}`,
    `{"task_id":"${id}","status":"passed","password":"hunter2-${i}","notes":"AKIAIOSFODNN7EXAMPL${i % 10}"}`,
    `{"task_id":"sk-ant-api03-${"Zz09".repeat(12)}","status":"passed"}`,
    `{"task_id":"${id}","status":"passed","status":"failed"}`,
    `{"task_id":"${id}","st\\u0061tus":"passed","status":"error","extra_obj":{"a":1,"a":2}}`,
    `{"task_id":12345678901234567890${i},"status":"passed","events":[{"type":"tool_call","name":"n","args":{"big":98765432109876543210}}]}`,
    `{"task_id":"${id}","status":"passed","llm_tokens":99999999999999999999}`,
    `{"task_id":"${id}","status":"passed","score":NaN,"cost_usd":Infinity}`,
    `{"task_id":"${id}","status":"passed","score":-Infinity,"note":"NaN inside a string"}`,
    `{"task_id":"${id}","status":"passed",`,
    `{"task_id":"${id}" "status":"passed"}`,
    ``,
    `   \t `,
    `42`,
    `[{"task_id":"${id}","status":"passed"}]`,
    `"just a string"`,
    `{"task_id":"${id}","status":"passed","started_at":"${t}","ended_at":"${t}"}`,
    `{"task_id":"${id}","status":"timeout","started_at":"2025-01-02T03:05:05Z","ended_at":"2025-01-02T03:04:05Z"}`,
    `{"task_id":"${id}","status":"passed","deep":${"[".repeat(300)}1${"]".repeat(300)}}`,
    `{"task_id":"${id}","status":"passed","blob":"${"long text ".repeat(5000)}"}`,
    `{"run_id":"run-meta-${i}","dataset_name":"terminal-bench","agent_name":"a","model_name":"m"}`,
    `{"task_id":"${id}","status":"passed","trial":-1}`,
    `{"task_id":"","status":"passed"}`,
    `{"task_id":"${id}","status":"passed","Zeta":1,"alpha":2,"Ärger":3,"10":4,"9":5}`,
    `{"task_id":"${id}","status":"passed","model":"gpt-4o","agent":"x","category":"c${i % 3}","resolved":true,"constraint_ok":false}`,
  ];
  return c[i % c.length];
};

const parts = [];
// held back: no format recognises these, then the canonical records release them (as rejects)
parts.push(Buffer.from(`{"foo":1}\n{"bar":[1,2]}\n{"note":"sk-live-${"q".repeat(30)}"}\n`));
let k = 0;
for (let i = 0; i < lines.length; i++) {
  parts.push(Buffer.from(lines[i] + (i % 997 === 5 ? "\r\n" : "\n")));
  if (i % every === every - 1) {
    const line = crafted(k++);
    parts.push(Buffer.from(line + "\n"));
    if (k % 53 === 7) parts.push(Buffer.from([0x7b, 0x22, 0x74, 0x61, 0x73, 0x6b, 0x5f, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])); // {"task_id":"\xff\xfe"}
    if (k % 61 === 3) parts.push(Buffer.from(`{"task_id":"cr-${k}","status":"passed","x":"a\rb"}\n`)); // a lone CR inside an LF line
  }
}
parts.push(Buffer.from(`{"task_id":"last","status":"passed"}`)); // no final newline
writeFileSync(out, Buffer.concat(parts));
console.log(`${out}: ${lines.length} base lines, ${k} crafted`);
