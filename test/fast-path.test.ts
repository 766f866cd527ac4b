/**
 * The JSONL fast path (issue 20, src/ingest/fast.ts) against the per-line path,
 * its reference: for every input under test/fixtures and ../shared/cases, for
 * corrupted logs (test/corrupted-logs.ts) and for generated canonical records
 * with every field, events and arguments, both paths must give the same tables
 * row for row (attempts, events, rejects, sources, masked_secrets, ...), the
 * same rejects told in the same order, and the same warnings. Then the fast
 * path's boundaries by hand, each with its accounting worked out from the lines.
 */
import fc from "fast-check";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { createTables, TABLES } from "../src/db/schema.js";
import { canonicalFormat } from "../src/ingest/formats/canonical.js";
import { CONTAINER_KEYS, FORMATS } from "../src/ingest/formats/index.js";
import { sniff } from "../src/ingest/reader.js";
import { ingest } from "../src/ingest/ingest.js";
import { fastPathLines, useFastPath } from "../src/ingest/fast.js";
import { corruptedLog } from "./corrupted-logs.js";
import { FIXTURES, SHARED, tempDir } from "./helpers.js";

type Mode = "always" | "never";

/** Every table as rows sorted by all columns, numbers keeping -0 apart; `sources` without its load time. */
async function dump(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of Object.keys(TABLES)) {
    const columns = TABLES[table].filter((c) => c.name !== "loaded_at").map((c) => c.name);
    const rows = await db.all(`SELECT ${columns.join(", ")} FROM ${table} ORDER BY ALL`);
    out[table] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Object.is(v, -0) ? "-0" : v])));
  }
  return out;
}

interface Outcome {
  tables: Record<string, unknown[]>;
  rejects: string[];
  warnings: string[];
  error: string | null;
  result: unknown;
}

/** Reads `inputs` into the (emptied) database with the fast path forced on or off. */
async function load(db: Database, inputs: string[], mode: Mode, stdin: Buffer = Buffer.alloc(0)): Promise<Outcome> {
  for (const table of Object.keys(TABLES)) await db.run(`DELETE FROM ${table}`);
  const before = process.env.DENOM_FAST_PATH;
  process.env.DENOM_FAST_PATH = mode;
  const rejects: string[] = [];
  const warnings: string[] = [];
  let error: string | null = null;
  let result: unknown = null;
  try {
    result = await ingest(db, inputs, {
      stdin: Readable.from([stdin]),
      onReject: (r) => rejects.push(JSON.stringify(r)),
      onWarning: (w) => warnings.push(w),
    });
  } catch (e) {
    error = String(e);
  } finally {
    if (before === undefined) delete process.env.DENOM_FAST_PATH;
    else process.env.DENOM_FAST_PATH = before;
  }
  return { tables: await dump(db), rejects, warnings, error, result };
}

/** Both paths on `inputs`: the same outcome; returns the fast path's. */
async function same(db: Database, inputs: string[], stdin?: Buffer): Promise<Outcome> {
  const reference = await load(db, inputs, "never", stdin);
  const fast = await load(db, inputs, "always", stdin);
  expect(fast).toEqual(reference);
  return fast;
}

/**
 * Files under `dir` (recursively) read as JSONL, the only reading the fast path
 * changes: named `.jsonl` (or `.jsonl.gz`), or sniffed as JSONL by their first
 * bytes (reader.ts sniff), as a `.json`, `.txt` or `.log` may be.
 */
function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    if (!statSync(path).isFile() || /expected/.test(name)) continue;
    if (/\.jsonl(\.gz)?$/i.test(name)) out.push(path);
    else if (/\.(json|txt|log)$/i.test(name)) {
      const head = readFileSync(path).subarray(0, 1 << 20);
      if (sniff(head, statSync(path).size <= head.length, CONTAINER_KEYS) === "jsonl") out.push(path);
    }
  }
  return out.sort();
}

let db: Database;
beforeAll(async () => {
  db = await Database.open();
  await createTables(db);
});
afterAll(() => db.close());

describe("the fast path gives what the per-line path gives", () => {
  it("is off unless DENOM_FAST_PATH=always forces it (measured slower, docs/benchmarks.md)", () => {
    expect(useFastPath(1e12, {})).toBe(false);
    expect(useFastPath(Infinity, {})).toBe(false); // stdin
    expect(useFastPath(0, { DENOM_FAST_PATH: "always" })).toBe(true);
    expect(useFastPath(1e12, { DENOM_FAST_PATH: "never" })).toBe(false);
  });

  it("reads a record of only canonical fields as canonical (no other adapter claims one)", () => {
    const all = {
      run_id: "r", task_id: "t", trial: 0, attempt: 1, status: "success", status_detail: "x", fault: "agent",
      submitted_at: "2025-01-01T00:00:00Z", started_at: "2025-01-01T00:00:00Z", ended_at: "2025-01-01T00:00:00Z",
      timeout_limit_s: 1, waiting_s: 0, last_event: "x", last_event_ts: "2025-01-01T00:00:00Z", repeated_tool_calls: 0,
      llm_tokens: 0, tool_call_count: 0, cost_usd: 0, score: 1, resolved: true, constraint_ok: true, grader_error: "x",
      error_message: "x", agent: "a", model: "m", category: "c", difficulty: "d", invocation: "i", events: [],
    };
    for (const f of FORMATS) if (f !== canonicalFormat) expect(f.detect(all), f.name).toBe(false);
    expect(canonicalFormat.detect(all)).toBe(true);
  });

  it("on every JSONL input of test/fixtures", async () => {
    const files = jsonlFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) await same(db, [file]);
  }, 300_000);

  it.skipIf(!existsSync(join(SHARED, "cases")))("on every JSONL input of ../shared/cases and ../shared/cases-compare", async () => {
    for (const dir of ["cases", "cases-compare"]) {
      const root = join(SHARED, dir);
      if (!existsSync(root)) continue;
      for (const file of jsonlFiles(root)) await same(db, [file]);
    }
  }, 300_000);

  it("on corrupted logs, from a file and from stdin", async () => {
    const dir = tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(corruptedLog, async (bytes) => {
        const file = join(dir, `run-${run++}.jsonl`);
        writeFileSync(file, bytes);
        // a file named .jsonl is read line by line; stdin is sniffed first
        await (run % 2 ? same(db, [file]) : same(db, ["-"], bytes));
      }),
      { numRuns: 24, seed: 20251201, endOnFailure: true },
    );
  }, 300_000);

  it("on generated records with every field, events and arguments", async () => {
    // mostly values of the field's own type (plain lines, loaded in SQL), with their edge values;
    // now and then anything (lines for the per-line path)
    const mostly = <T,>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: good, weight: 60 }, { arbitrary: bad, weight: 1 });
    const text = fc.oneof(fc.constantFrom("", " ", "a", "x y", "é", "日本", "tab\there", 'quote"d', "back\\slash", "nl\nx", "\u2028", "/path/a", "\u00a0", "😀", "-0"), fc.string({ maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 4 }));
    const num = fc.oneof(fc.integer({ min: -3, max: 2 ** 31 }), fc.double({ noNaN: true }), fc.constantFrom(0, -0, 1e21, 1e-7, 2 ** 53, 2 ** 53 - 1, 2 ** 53 + 2, 0.1, 300, 1.5, 2 ** 31 - 1, 2 ** 31));
    const anything = fc.oneof(text, num, fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 2 }), fc.constantFrom("5", " 1 ", "true"));
    const goodStamp = fc.oneof(
      fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d{3}Z$/, "Z")),
    );
    const stamp = mostly(
      goodStamp,
      fc.oneof(
        fc.date({ min: new Date("1969-12-31T00:00:00Z"), max: new Date("2201-01-02T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom("2025-02-29T00:00:00Z", "2025-04-01 08:00:00", "2025-04-01T08:00:00+02:00", "2025-04-31T08:00:00.123Z", "2025-04-28T23:59:59.999Z", 1743494400, "x"),
      ),
    );
    const argValue = fc.oneof(text, fc.integer(), fc.constantFrom(2 ** 53 - 1, 2 ** 53, -(2 ** 53 - 1), 0, -0), fc.boolean(), fc.constant(null), fc.double({ noNaN: true }));
    const argKey = fc.oneof(fc.constantFrom("path", "line", "a", "B", "é", "a b", "z"), fc.string({ maxLength: 3 }));
    const args = mostly(fc.dictionary(argKey, argValue, { maxKeys: 3 }), anything);
    const event = mostly(fc.record({ ts: mostly(stamp, anything), type: mostly(text, anything), name: mostly(text, anything), args, status: mostly(text, anything) }, { requiredKeys: [] }), anything);
    const whole = (min: number) => mostly(fc.integer({ min, max: 2 ** 31 - 1 }), num);
    const error = mostly(fc.oneof(text, fc.boolean(), fc.constant(null)), anything);
    const rec = fc.record(
      {
        run_id: mostly(text, anything), task_id: mostly(fc.oneof(fc.constantFrom("t1", "t2", "task-1", "日本"), fc.string({ minLength: 1, maxLength: 5 })), anything), trial: whole(0), attempt: whole(1), status: mostly(text, anything),
        status_detail: mostly(text, anything), fault: mostly(fc.constantFrom("agent", "environment"), fc.constantFrom("Agent", " agent", "x", 1)),
        submitted_at: stamp, started_at: stamp, ended_at: stamp, timeout_limit_s: mostly(fc.double({ min: 0, noNaN: true }), num), waiting_s: mostly(fc.double({ min: 0, max: 1e6, noNaN: true }), num),
        last_event: mostly(text, anything), last_event_ts: stamp, repeated_tool_calls: whole(0), llm_tokens: mostly(fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(2 ** 53 - 1, 2 ** 53)), num),
        tool_call_count: whole(0), cost_usd: mostly(fc.double({ min: 0, max: 100, noNaN: true }), num), score: mostly(fc.double({ noNaN: true, noDefaultInfinity: true }), anything),
        resolved: mostly(fc.boolean(), num), constraint_ok: mostly(fc.boolean(), anything), grader_error: error, error_message: error,
        agent: mostly(text, anything), model: mostly(text, anything), category: text, difficulty: text, invocation: text,
        events: mostly(fc.array(event, { maxLength: 4 }), anything),
      },
      { requiredKeys: ["task_id", "status"] },
    );
    // started before ended, mostly (one ISO form sorts as it reads)
    const ordered = rec.map((r) => {
      const { started_at: a, ended_at: b } = r as Record<string, unknown>;
      return typeof a === "string" && typeof b === "string" && a.length === b.length && b < a ? { ...r, started_at: b, ended_at: a } : r;
    });
    // a key of no canonical field (kept in extra), an alias or retry: now and then
    const line = fc.tuple(ordered, fc.constantFrom(null, null, null, null, null, null, null, null, "retry", "id", "extra_key", "epoch")).map(([r, k]) => (k ? { ...r, [k]: 1 } : r));
    const dir = tempDir();
    let run = 0;
    const plainBefore = fastPathLines.plain;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 20 }), async (records) => {
        const file = join(dir, `gen-${run++}.jsonl`);
        writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
        await same(db, [file]);
      }),
      { numRuns: 40, seed: 42, endOnFailure: true },
    );
    // some of them are plain, and are loaded in SQL (the rest compares the per-line path with itself)
    expect(fastPathLines.plain - plainBefore).toBeGreaterThan(20);
  }, 300_000);
});

describe("the fast path's boundaries, worked by hand", () => {
  const plain = (task: string) => JSON.stringify({ task_id: task, status: "success" });

  it("keeps every line in one bucket: plain lines, a secret, a repeated key, NaN, a big id, bad UTF-8, \\x01, CRLF, a blank, no last newline", async () => {
    const lines: Buffer[] = [
      Buffer.from(plain("t1")), // 1 plain record
      Buffer.from(JSON.stringify({ task_id: "t2", status: "failure", error_message: "auth sk-proj-abcdefghijklmnopqrstuvwx1234" })), // 2 record, secret masked
      Buffer.from('{"task_id":"t3","status":"failure","status":"success"}'), // 3 record, status repeated (the last wins)
      Buffer.from('{"task_id":"t4","status":"success","score":NaN}'), // 4 record, one non-finite value
      Buffer.from('{"task_id":12345678901234567890123,"status":"success"}'), // 5 record, id kept as its digits
      Buffer.concat([Buffer.from('{"task_id":"t6","status":"'), Buffer.from([0xff]), Buffer.from('"}')]), // 6 reject: not UTF-8
      Buffer.from('{"task_id":"t7","status":"success","status_detail":"a\x01b"}'), // 7 reject: a raw control byte in a string
      Buffer.from(plain("t8") + "\r"), // 8 plain record, CRLF
      Buffer.from("   "), // 9 blank
      Buffer.from('{"task_id":"t10","status":"success",}'), // 10 reject: trailing comma
      Buffer.from(plain("t11")), // 11 plain record, no newline after it
    ];
    const dir = tempDir();
    const file = join(dir, "boundaries.jsonl");
    writeFileSync(file, Buffer.concat(lines.flatMap((l, i) => (i < lines.length - 1 ? [l, Buffer.from("\n")] : [l]))));
    const plainBefore = fastPathLines.plain;
    const out = await same(db, [file]);
    expect(fastPathLines.plain - plainBefore).toBe(3); // lines 1, 8 and 11
    // 11 lines = 7 records (lines 1, 2, 3, 4, 5, 8, 11) + 1 blank (9) + 3 rejected (6, 7, 10); one NaN (4)
    const source = out.tables.sources[0] as Record<string, number>;
    expect([source.physical_lines, source.lines, source.records, source.blank, source.rejected, source.non_finite]).toEqual([11, 11, 7, 1, 3, 1]);
    const attempts = out.tables.attempts as Record<string, unknown>[];
    expect(attempts.map((a) => [a.attempt_id, a.line, a.task_id, a.raw_status])).toEqual([
      [1, 1, "t1", "success"],
      [2, 2, "t2", "failure"],
      [3, 3, "t3", "success"],
      [4, 4, "t4", "success"],
      [5, 5, "12345678901234567890123", "success"],
      [6, 8, "t8", "success"],
      [7, 11, "t11", "success"],
    ]);
    expect(String(attempts[1].error_message)).toMatch(/^auth \[masked api_key #[0-9a-f]{8}\]$/);
    expect((out.tables.masked_secrets as Record<string, unknown>[]).map((m) => [m.line, m.kind, m.secrets])).toEqual([[2, "api_key", 1]]);
    expect((out.tables.duplicate_keys as Record<string, unknown>[]).map((d) => [d.line, d.key])).toEqual([[3, "status"]]);
    expect((out.tables.rejects as Record<string, unknown>[]).map((r) => r.line)).toEqual([6, 7, 10]);
  });

  it("gives plain lines the ids the per-line path gives, around the lines it reads", async () => {
    // lines 1, 3, 4 plain; 2 a per-line record (an alias), 5 a reject, 6 plain
    const dir = tempDir();
    const file = join(dir, "ids.jsonl");
    writeFileSync(file, [plain("a"), '{"instance_id":"b","status":"failure"}', plain("c"), plain("d"), "{", plain("e")].join("\n") + "\n");
    const out = await same(db, [file]);
    expect((out.tables.attempts as Record<string, unknown>[]).map((a) => [a.attempt_id, a.line, a.task_id])).toEqual([
      [1, 1, "a"],
      [2, 2, "b"],
      [3, 3, "c"],
      [4, 4, "d"],
      [5, 6, "e"],
    ]);
  });
});
