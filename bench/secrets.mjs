#!/usr/bin/env node
// The per-line cost of secret masking on the ingest hot path (issue 16; not part of
// npm test; run by hand after `npm run build`): `node bench/secrets.mjs [records] [old.js]`.
// Times, on JSONL lines like a harness writes (ids, timestamps, tool calls, URLs):
//   - the cheap prefilter (maySecret) over every line: the cost every line pays;
//   - maskUnit over every line (prefilter, then the full masking of the hinted lines);
//   - the full masking (maskSecrets) of lines that do hold a secret.
// With a second argument (a compiled secrets.js of another version), the same for it.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { medianMs } from "./median.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.argv[2] ?? 100000);
const versions = [["this", join(here, "..", "dist", "ingest", "records", "secrets.js")]];
if (process.argv[3]) versions.push(["other", process.argv[3]]);

const lines = Array.from({ length: n }, (_, i) =>
  JSON.stringify({
    task_id: `django__django-${11000 + i}`,
    status: i % 3 ? "success" : "timeout",
    trial: i % 5,
    started_at: "2025-01-01T00:00:00Z",
    ended_at: "2025-01-01T00:05:00Z",
    model: "claude-3-5-sonnet-20241022",
    error_message: i % 7 ? null : `HTTPSConnectionPool(host='api.example.com', port=443): Read timed out. (read timeout=600)`,
    events: Array.from({ length: 5 }, (_, j) => ({ ts: 1.7e9 + j, type: "tool_call", name: "bash", args: { cmd: `grep -rn "session" src/ | head -${j}` } })),
    llm_tokens: 1200 + i,
    max_tokens: 4096,
    url: i % 10 ? undefined : "https://github.com/django/django/pull/17000",
  }),
);
const mb = lines.reduce((s, l) => s + l.length, 0) / 1e6;
const secretLines = lines
  .slice(0, 2000)
  .map((l, i) => l.replace('"bash"', `"bash","env":"OPENAI_API_KEY=sk-proj-Zx81QwErTy5UiOp9AsDfGh3JkLzXcVbN${i} password=hunter2"`));
const secretMb = secretLines.reduce((s, l) => s + l.length, 0) / 1e6;

function time(label, megabytes, fn) {
  const ms = medianMs(fn);
  console.log(`${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms ${(ms / megabytes).toFixed(2).padStart(7)} ms/MB`);
}

console.log(`${n} ordinary lines, ${mb.toFixed(1)} MB; ${secretLines.length} lines with secrets, ${secretMb.toFixed(1)} MB`);
for (const [label, path] of versions) {
  const { maySecret, maskSecrets, maskUnit } = await import(path);
  let hinted = 0;
  for (const l of lines) if (maySecret(l)) hinted++;
  console.log(`${label}: the prefilter lets ${hinted} of ${n} ordinary lines through`);
  time(`${label}: maySecret, every ordinary line`, mb, () => {
    for (const l of lines) maySecret(l);
  });
  time(`${label}: maskUnit, every ordinary line`, mb, () => {
    for (const l of lines) maskUnit({ line: 1, location: null, value: JSON.parse(l), text: l, nonFinite: 0 });
  });
  time(`${label}: maskSecrets, lines with secrets`, secretMb, () => {
    for (const l of secretLines) maskSecrets(l);
  });
}
