/**
 * The JSONL line path in worker threads (src/ingest/load/parallel.ts):
 * forced on a small input (DENOM_LINE_WORKER_MIN_BYTES=0, tiny blocks so that
 * nearly every line is a block of its own), it must account every line as the
 * in-thread path does. Spawns the built CLI (the worker runs dist/ingest/load/line-worker.js).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { CanonicalAttempt } from "../src/formats/canonical-record.js";
import { TABLES } from "../src/db/schema.js";
import { attemptRow, getInt64, TableColumns } from "../src/ingest/load/columns.js";
import { gatheredRows, PackWriter } from "../src/ingest/load/packed.js";
import { configureLineWorkers } from "../src/ingest/load/parallel.js";
import type { PreparedUnit } from "../src/ingest/load/prepare.js";
import { ROOT, tempDir } from "./helpers.js";

const SECRET = "sk-proj-a1B2c3D4a1B2c3D4a1B2c3D4a1B2c3D4";
// 9 physical lines (the last without a newline):
//  1 no format recognises it: held back, then read as canonical once line 2 is: a reject (task_id missing)
//  2 record t1           3 blank                  4 record t2, `status` written twice
//  5 invalid JSON        6 record t3, a secret    7 invalid UTF-8
//  8 177 bytes + CR (an overlong line counts its CR: 178), over --max-line-bytes 150   9 record t5
const LOG = Buffer.concat([
  Buffer.from('{"foo":1}\n{"task_id":"t1","status":"passed"}\n\n{"task_id":"t2","status":"failed","status":"passed"}\nnot json\n'),
  Buffer.from(`{"task_id":"t3","status":"passed","error_message":"key ${SECRET} leaked"}\n`),
  Buffer.from([0x7b, 0x22, 0x74, 0x61, 0x73, 0x6b, 0x5f, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
  Buffer.from(`{"task_id":"t4","status":"error","blob":"${"x".repeat(134)}"}\r\n`),
  Buffer.from('{"task_id":"t5","status":"passed"}'),
]);

function run(args: string[], env: Record<string, string>, input?: Buffer) {
  const r = spawnSync(process.execPath, [join(ROOT, "dist", "bin.js"), ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const WORKERS = { DENOM_LINE_WORKERS: "2", DENOM_LINE_WORKER_MIN_BYTES: "0", DENOM_LINE_BLOCK_BYTES: "40" };
const IN_THREAD = { DENOM_LINE_WORKERS: "0" };

describe("the line path in worker threads", () => {
  const dir = tempDir({ "run.jsonl": LOG, "run.jsonl.gz": gzipSync(LOG) });
  const forms: [string, string, Buffer | undefined][] = [
    ["a file", join(dir, "run.jsonl"), undefined],
    ["a .gz", join(dir, "run.jsonl.gz"), undefined],
    ["stdin", "-", LOG],
  ];
  for (const [form, input, stdin] of forms) {
    it(`accounts every line of ${form} as worked out by hand, and as the in-thread path does`, () => {
      const args = ["report", "--json", "--max-line-bytes", "150", input];
      const w = run(args, WORKERS, stdin);
      expect(w.code).toBe(0);
      const a = JSON.parse(w.stdout).accounting;
      // records t1 t2 t3 t5; blank line 3; rejects lines 1, 5, 7, 8: 4 + 1 + 4 = 9 lines
      expect([a.lines, a.records, a.blank, a.rejected, a.unaccounted]).toEqual([9, 4, 1, 4, 0]);
      expect([a.secrets_masked, a.duplicate_keys]).toEqual([1, 1]);
      const name = input === "-" ? "-" : input;
      const rejects = w.stderr.split("\n").filter((l) => !l.startsWith("denom: warning"));
      expect(rejects.map((l) => l.slice(0, l.indexOf(";")))).toEqual([
        `denom: ${name}:1: task_id: missing`,
        `denom: ${name}:5: invalid JSON (Unexpected token 'o')`,
        `denom: ${name}:7: invalid UTF-8`,
        `denom: ${name}:8: line of 178 bytes, longer than the 0.0 MiB limit`,
        "",
      ]);
      expect(w.stderr).toContain(`${name}:4: key "status" is written twice in one object`);
      expect(w.stdout).not.toContain(SECRET);
      const t = run(args, IN_THREAD, stdin);
      expect([t.code, t.stdout, t.stderr]).toEqual([w.code, w.stdout, w.stderr]);
    });
  }

  it("counts runs of blank lines in their turn, numbering the lines after them as the in-thread path does", () => {
    // t1 (1), 1,500 blank (2..1501, a run), `not json` (1502), 3,000 blank (1503..4502), t2 (4503), 5 blank (4504..4508), t3 (4509)
    const log = `{"task_id":"t1","status":"passed"}\n${"\n".repeat(1500)}not json\n${"\n".repeat(3000)}{"task_id":"t2","status":"failed"}\n${"\n".repeat(5)}{"task_id":"t3","status":"passed"}\n`;
    const file = join(tempDir({ "runs.jsonl": log }), "runs.jsonl");
    for (const env of [{ ...WORKERS, DENOM_LINE_BLOCK_LINES: "100" }, IN_THREAD]) {
      const r = run(["report", "--json", file], env);
      expect(JSON.parse(r.stdout).accounting).toMatchObject({ lines: 4509, records: 3, blank: 4505, rejected: 1 });
      expect(r.stderr).toContain(`${file}:1502: `);
    }
  });

  it("says that a big input in no format yields no record, as the in-thread path does", () => {
    const notLog = join(tempDir({ "notes.jsonl": '{"foo":1}\n{"bar":2}\n' }), "notes.jsonl");
    const w = run(["report", "--json", notLog], WORKERS);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain("no input format recognises it");
    const t = run(["report", "--json", notLog], IN_THREAD);
    expect([t.code, t.stdout, t.stderr]).toEqual([w.code, w.stdout, w.stderr]);
  });
});

describe("configureLineWorkers", () => {
  it("reads the environment, and falls back to the defaults for what is unset or unreadable", () => {
    expect(
      configureLineWorkers({ DENOM_LINE_WORKERS: "2", DENOM_LINE_WORKER_MIN_BYTES: "10", DENOM_LINE_BLOCK_BYTES: "x", DENOM_LINE_BLOCK_LINES: "100" }),
    ).toEqual({
      workers: 2,
      minBytes: 10,
      blockBytes: 1 << 20,
      blockLines: 100,
    });
    // two workers from 32 MiB on (docs/benchmarks.md: 1 against 2 workers on two cores, issue-20f)
    expect(configureLineWorkers({})).toEqual({ workers: 2, minBytes: 32 * 1024 * 1024, blockBytes: 1 << 20, blockLines: 64 * 1024 });
  });
});

describe("PackWriter and gatheredRows", () => {
  const attempt = (task: string, events: CanonicalAttempt["events"]): CanonicalAttempt =>
    ({
      run_id: null,
      task_id: task,
      trial: 0,
      attempt: 1,
      status: "passed",
      status_detail: null,
      fault: null,
      submitted_at: null,
      started_at: 1_735_787_045_000_000,
      ended_at: null,
      timeout_limit_s: 2.5,
      waiting_s: null,
      last_event: null,
      last_event_ts: null,
      repeated_tool_calls: null,
      llm_tokens: 9_007_199_254_740_991,
      tool_call_count: 3,
      cost_usd: null,
      score: null,
      resolved: true,
      constraint_ok: null,
      grader_error: null,
      error_message: "é漢🙂",
      agent: null,
      model: "m",
      category: null,
      difficulty: null,
      invocation: null,
      events,
      naive_timestamps: 1,
      extra: '{"k":1}',
    }) as CanonicalAttempt;
  const unit = (line: number, attempts: CanonicalAttempt[], over: Partial<PreparedUnit> = {}): PreparedUnit => ({
    line,
    location: null,
    nonFinite: 2,
    text: null,
    duplicateKeys: null,
    masked: null,
    detection: { format: "canonical", hit: false, keys: null },
    adapter: "canonical",
    plan: { kind: "attempts", dictTrials: 0, dictKeys: [], error: null, attempts, lineHash: "abc=" },
    ...over,
  });
  const ev = [{ seq: 0, ts: null, type: "tool_call", name: "ls", args: '{"a":[1],"path":"src/x.py"}', status: null }];

  it("writes the rows the main thread would write, and refuses (writing nothing) a unit that must travel as its object", () => {
    const a = unit(1, [attempt("t1", ev), attempt("t2", [])]);
    const b = unit(4, [attempt("t3", [])]);
    const w = new PackWriter({ source: "run.jsonl", runPerFile: true });
    expect(w.unit(a)).toBe(true);
    expect(w.unit(unit(2, [attempt("x", [])], { masked: { openai: 1 } }))).toBe(false);
    expect(w.unit(unit(3, [{ ...attempt("y", []), trial: "0" as unknown as number }]))).toBe(false); // a string where a number goes
    expect(w.unit(b)).toBe(true);
    const { packed } = w.finish();
    // two units: canonical (index 0, not a hit: code 0), 2 and 1 attempts, 2 NaN tokens each
    expect([...packed.units]).toEqual([0, 2, 2, 0, 1, 2]);
    expect(packed.formats).toEqual(["canonical"]);
    // a chunk ends at each refused unit: t1 t2 (and t1's event) before, t3 after
    expect(packed.chunks.map((c) => [c.table, c.rows, c.endOrdinal])).toEqual([
      ["attempts", 2, 2],
      ["events", 1, 1],
      ["attempts", 1, 3],
    ]);
    // the main thread's ids for ordinals 0, 1, 2; its own rows of the same attempts, for the bytes to compare with
    const ids = [41, 42, 50];
    const values: (string | number | boolean | null)[] = [];
    const origin = { sourceId: 0, line: 1, location: null, format: "canonical", lineHash: "abc=", nonFinite: 2 };
    const expected = (table: "attempts" | "events", rows: (string | number | boolean | null)[][]) => {
      const t = new TableColumns(TABLES[table], packed.chunks.find((c) => c.table === table)!.capacity);
      for (const r of rows) t.row(r);
      return t;
    };
    const run = (t: CanonicalAttempt) => ({ ...t, run_id: "run.jsonl" }); // --run-per-file: the source's name
    const first = gatheredRows(packed.chunks[0], ids)!;
    const mine = expected("attempts", [
      attemptRow([...values], 41, origin, run(attempt("t1", ev))),
      attemptRow([...values], 42, origin, run(attempt("t2", []))),
    ]);
    for (let c = 0; c < first.columns.length; c++) {
      const n = first.rows * [4, 8, 8, 1, 16][first.columns[c].layout];
      // long strings' slots are DuckDB's to write: compare the inlined ones, and the long ones apart
      if (first.columns[c].layout !== 4) expect(first.columns[c].data.subarray(0, n), TABLES.attempts[c].name).toEqual(mine.columns[c].data.subarray(0, n));
      expect(first.columns[c].valid[0], TABLES.attempts[c].name).toBe(mine.columns[c].valid[0]);
    }
    expect(getInt64(first.columns[0], 1)).toBe(42);
    // long strings (past 12 characters, or not ASCII): the error message of both rows, as UTF-8 bytes
    const long = packed.chunks[0].long;
    const text = (k: number) => Buffer.from(long.bytes, k === 0 ? 0 : long.ends[k - 1], long.ends[k] - (k === 0 ? 0 : long.ends[k - 1])).toString("utf8");
    const col = (name: string) => TABLES.attempts.findIndex((x) => x.name === name);
    expect([...long.rows].map((r, k) => [TABLES.attempts[long.columns[k]].name, r, text(k)])).toEqual([
      ["error_message", 0, "é漢🙂"],
      ["error_message", 1, "é漢🙂"],
    ]);
    expect(long.columns[0]).toBe(col("error_message"));
    // the event: attempt id 41, seq 0, type inlined, its args long
    const events = gatheredRows(packed.chunks[1], ids)!;
    expect([getInt64(events.columns[0], 0), events.columns[1].i32[0]]).toEqual([41, 0]);
    expect(packed.chunks[1].long.rows.length).toBe(1);
    // not loaded (its source gave up): no rows; loaded: the third attempt's id (written in place of its ordinal)
    expect(gatheredRows(packed.chunks[2], [41, 42, -1])).toBeNull();
    expect(getInt64(gatheredRows(packed.chunks[2], ids)!.columns[0], 0)).toBe(50);
  });
});
