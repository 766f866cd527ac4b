/**
 * Issue 7, property-based: valid logs corrupted at random (cut, splice, flipped
 * bytes, duplicated and reordered lines) must always give lines = records +
 * blank + rejected, never a crash, and the rates of the records that survived.
 *
 * The expected figures come from an oracle written here from DESIGN sections
 * 3, 4 and 8 (never from denom's output): it splits the corrupted bytes into
 * lines itself, decides for each line blank / record / reject, collapses
 * duplicates (the later line wins: the generated records carry no ended_at),
 * and counts the eight cells of the rate grid.
 */
import fc from "fast-check";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { queryCatalog } from "../src/db/queries.js";
import { Session, setDefinitions } from "../src/db/session.js";
import { DEFAULT_THRESHOLDS } from "../src/definitions.js";
import { DataError } from "../src/errors.js";
import { ingest } from "../src/ingest/ingest.js";
import { createTables, TABLES } from "../src/db/schema.js";
import { denom, tempDir } from "./helpers.js";

/** Status aliases of DESIGN section 3 (matched after trim and lower-case). */
const ALIASES: Record<string, string> = {};
for (const [status, words] of Object.entries({
  success: "success succeeded pass passed resolved correct ok",
  failure: "failure fail failed unresolved incorrect wrong",
  timeout: "timeout timed_out time_limit agent_timeout deadline_exceeded",
  aborted: "aborted error errored env_failure environment_error infra_error crashed cancelled",
  invalid: "invalid invalid_task",
}))
  for (const w of words.split(" ")) ALIASES[w] = status;

/** What the generator writes: the canonical fields that decide the grid, and statuses from every class. */
const record = fc.record(
  {
    run_id: fc.constantFrom("r1", "r2"),
    task_id: fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6"),
    trial: fc.integer({ min: 0, max: 2 }),
    attempt: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom("success", "passed", "failure", "incorrect", "timeout", "error", "infra_error", "invalid", "weird_status", "Success "),
  },
  { requiredKeys: ["task_id", "status"] },
);

/** One corruption of the bytes of a log. */
type Corruption =
  | { kind: "cut"; at: number }
  | { kind: "splice"; from: number; length: number; to: number }
  | { kind: "flip"; at: number; value: number }
  | { kind: "duplicate"; line: number }
  | { kind: "reorder"; a: number; b: number }
  | { kind: "drop"; from: number; length: number };

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("splice" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 120 }), to: fc.nat() }),
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("reorder" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("drop" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
);

/** Applies one corruption; positions are taken modulo the current size. */
function corrupt(bytes: Buffer, c: Corruption): Buffer {
  const n = bytes.length;
  if (n === 0) return bytes;
  switch (c.kind) {
    case "cut":
      return bytes.subarray(0, c.at % n);
    case "splice": {
      // a piece of the log pasted elsewhere, as a hand-concatenated log holds
      const from = c.from % n;
      const piece = bytes.subarray(from, Math.min(n, from + c.length));
      const to = c.to % (n + 1);
      return Buffer.concat([bytes.subarray(0, to), piece, bytes.subarray(to)]);
    }
    case "flip": {
      const out = Buffer.from(bytes);
      out[c.at % n] = c.value;
      return out;
    }
    case "drop": {
      const from = c.from % n;
      return Buffer.concat([bytes.subarray(0, from), bytes.subarray(Math.min(n, from + c.length))]);
    }
    case "duplicate":
    case "reorder": {
      const lines = splitLines(bytes);
      if (lines.length === 0) return bytes;
      if (c.kind === "duplicate") {
        const i = c.line % lines.length;
        lines.splice(i, 0, lines[i]);
      } else {
        const a = c.a % lines.length;
        const b = c.b % lines.length;
        [lines[a], lines[b]] = [lines[b], lines[a]];
      }
      return Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
    }
  }
}

/** Physical lines of a JSONL file: `\n` ends a line; a last line without one still counts. */
function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

interface Expected {
  lines: number;
  records: number;
  blank: number;
  rejected: number;
  cells: Record<string, [number, number]>;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** A whole number within [min, 2^31 - 1], also written as a numeric string; undefined when absent; NaN when wrong. */
function whole(v: unknown, min: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= min && n <= 2_147_483_647 ? n : NaN;
}

/** The oracle: what DESIGN sections 3, 4 and 8 say denom must find in `bytes`. */
function oracle(bytes: Buffer): Expected {
  let body = bytes;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  const lines = splitLines(body);
  let records = 0;
  let blank = 0;
  let rejected = 0;
  // (run, task, trial, attempt) -> status of the later line
  const attempts = new Map<string, { trialKey: string; attempt: number; status: string }>();
  for (const raw of lines) {
    const bytesOfLine = raw.length > 0 && raw[raw.length - 1] === 13 ? raw.subarray(0, -1) : raw;
    let text: string;
    try {
      text = decoder.decode(bytesOfLine);
    } catch {
      rejected++;
      continue;
    }
    if (text.trim() === "") {
      blank++;
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      rejected++;
      continue;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      rejected++;
      continue;
    }
    const o = v as Record<string, unknown>;
    const pick = (...keys: string[]) => keys.map((k) => o[k]).find((x) => x !== undefined && x !== null);
    const task = pick("task_id", "instance_id", "sample_id", "id");
    const run = o.run_id;
    const trial = whole(pick("trial", "epoch", "sample"), 0) ?? 0;
    const attempt = whole(o.attempt, 1) ?? 1;
    const taskOk = (typeof task === "string" && task.trim() !== "") || (typeof task === "number" && Number.isFinite(task));
    const runOk = run === undefined || run === null || typeof run === "string" || (typeof run === "number" && Number.isFinite(run));
    if (!taskOk || !runOk || typeof o.status !== "string" || Number.isNaN(trial) || Number.isNaN(attempt) || o.retry !== undefined) {
      // the generator writes no retry field; a corruption cannot make one, but refuse to guess
      rejected++;
      continue;
    }
    records++;
    const trialKey = JSON.stringify([run ?? null, String(task), trial]);
    attempts.set(`${trialKey}|${attempt}`, { trialKey, attempt, status: ALIASES[o.status.trim().toLowerCase()] ?? "unrecognized" });
  }
  // trials: first = lowest attempt, final = highest
  const trials = new Map<string, { first: { attempt: number; status: string }; final: { attempt: number; status: string } }>();
  for (const a of attempts.values()) {
    const t = trials.get(a.trialKey);
    if (!t) trials.set(a.trialKey, { first: a, final: a });
    else {
      if (a.attempt < t.first.attempt) t.first = a;
      if (a.attempt > t.final.attempt) t.final = a;
    }
  }
  // denominators (DESIGN section 4): no times and no events, so every timeout is the agent's
  const keeps: Record<string, (s: string) => boolean> = {
    total: () => true,
    valid: (s) => s !== "invalid" && s !== "unrecognized",
    attributable: (s) => s !== "invalid" && s !== "unrecognized" && s !== "aborted",
    completable: (s) => s !== "invalid" && s !== "unrecognized" && s !== "aborted" && s !== "timeout",
  };
  const cells: Record<string, [number, number]> = {};
  for (const basis of ["first", "final"] as const) {
    for (const [denominator, keep] of Object.entries(keeps)) {
      const kept = [...trials.values()].map((t) => t[basis].status).filter(keep);
      cells[`${basis}/${denominator}`] = [kept.filter((s) => s === "success").length, kept.length];
    }
  }
  return { lines: lines.length, records, blank, rejected, cells };
}

/** Arbitrary corrupted logs: 1 to 30 generated records, then 1 to 4 corruptions. */
const corruptedLog = fc
  .tuple(fc.array(record, { minLength: 1, maxLength: 30 }), fc.array(corruption, { minLength: 1, maxLength: 4 }))
  .map(([records, corruptions]) => {
    let bytes = Buffer.from(records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    for (const c of corruptions) bytes = corrupt(bytes, c);
    return bytes;
  });

/**
 * How the corrupted log is written, none of which may change a count:
 * as is; with CR line endings (only when the bytes hold no CR of their own, so
 * the oracle's LF lines are the file's CR lines); as two concatenated gzip
 * members cut at `at`; or those followed by stray bytes (trailing garbage, which
 * breaks the source: broken_sources 1, every record before it kept).
 */
type Packaging = { kind: "plain" } | { kind: "cr" } | { kind: "gzip-members"; at: number } | { kind: "gzip-garbage"; at: number; garbage: number[] };

const packaging: fc.Arbitrary<Packaging> = fc.oneof(
  fc.constant({ kind: "plain" as const }),
  fc.constant({ kind: "cr" as const }),
  fc.record({ kind: fc.constant("gzip-members" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("gzip-garbage" as const), at: fc.nat(), garbage: fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 6 }) }),
);

/** The file's name and bytes for one packaging; `broken` when the source must be reported broken. */
function pack(bytes: Buffer, p: Packaging): { ending: string; bytes: Buffer; broken: number } {
  if (p.kind === "cr" && !bytes.includes(13)) return { ending: ".jsonl", bytes: Buffer.from(bytes.map((b) => (b === 10 ? 13 : b))), broken: 0 };
  if (p.kind === "gzip-members" || p.kind === "gzip-garbage") {
    const at = bytes.length ? p.at % (bytes.length + 1) : 0;
    const members = Buffer.concat([gzipSync(bytes.subarray(0, at)), gzipSync(bytes.subarray(at))]);
    // garbage starting 0x1f 0x8b would be a (broken) third member: still broken, still every record kept
    if (p.kind === "gzip-garbage") return { ending: ".jsonl.gz", bytes: Buffer.concat([members, Buffer.from(p.garbage)]), broken: 1 };
    return { ending: ".jsonl.gz", bytes: members, broken: 0 };
  }
  return { ending: ".jsonl", bytes, broken: 0 };
}

/** True when the oracle finds lines but no record: denom then refuses the input (exit 1). */
function noRecord(e: Expected): boolean {
  return e.records === 0 && e.lines > e.blank;
}

/** denom's accounting and grid, as `report --json` gives them, checked against the oracle. */
function check(
  accounting: Record<string, number>,
  rates: { basis: string; denominator: string; successes: number; count: number; rate: number | null }[],
  expected: Expected,
): void {
  expect(accounting.lines).toBe(accounting.records + accounting.blank + accounting.rejected);
  expect(accounting.unaccounted).toBe(0);
  const { lines, records, blank, rejected } = accounting;
  expect({ lines, records, blank, rejected }).toEqual({ lines: expected.lines, records: expected.records, blank: expected.blank, rejected: expected.rejected });
  expect(rates).toHaveLength(8);
  for (const c of rates) {
    const [successes, count] = expected.cells[`${c.basis}/${c.denominator}`];
    expect([c.basis, c.denominator, c.successes, c.count, c.rate]).toEqual([c.basis, c.denominator, successes, count, count === 0 ? null : successes / count]);
  }
}

describe("corrupted logs (property-based)", () => {
  // one in-memory database, emptied before each run: the property exercises reading
  // and the SQL of queries/, not DuckDB's start-up (the CLI runs below)
  let db: Database;
  beforeAll(async () => {
    db = await Database.open({ threads: 1 });
    await createTables(db);
    await setDefinitions(db, { statusMap: {}, thresholds: DEFAULT_THRESHOLDS, expectation: null });
  });
  afterAll(() => db.close());

  // the 80 runs of one seed, checked a quarter per test (each test well under vitest's limits
  // on a loaded machine): every part generates the same 80 cases in the same order (no
  // shrinking with endOnFailure, so run i is case i) and checks only the runs of its quarter
  const RUNS = 80;
  const PARTS = 4;
  for (let part = 0; part < PARTS; part++) {
    const first = (part * RUNS) / PARTS;
    const last = ((part + 1) * RUNS) / PARTS;
    it(`account for every line and give the rates of the surviving records (runs ${first + 1} to ${last} of ${RUNS})`, async () => {
      const dir = tempDir();
      let run = 0;
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(corruptedLog, packaging, async (bytes, packed) => {
          const index = run++;
          if (index < first || index >= last) return; // another part's run
          checked++;
          const expected = oracle(bytes);
          const file_ = pack(bytes, packed);
          // named .jsonl(.gz), so denom reads it line by line whatever its first bytes (never sniffed as a document)
          const file = join(dir, `run-${index}${file_.ending}`);
          writeFileSync(file, file_.bytes);
          for (const table of Object.keys(TABLES)) await db.run(`DELETE FROM ${table}`);
          try {
            await ingest(db, [file], { stdin: Readable.from([]) });
          } catch (e) {
            // lines but no record: refused, naming what the input looks like
            expect(e instanceof DataError && noRecord(expected), String(e)).toBe(true);
            return;
          } finally {
            rmSync(file);
          }
          expect(noRecord(expected)).toBe(false);
          // what a command's session does: each relation the two marts read, created afresh over
          // this run's tables and materialized as it is (a TEMP table replacing the last run's),
          // which costs less than binding the whole chain of plain views for each of the two queries
          await new Session(db, queryCatalog(), undefined, new Set()).need(["accounting", "rate_grid"]);
          const accounting = (await db.one("SELECT * FROM accounting")) as Record<string, number>;
          const rates = (await db.all("SELECT basis, denominator, successes, count, rate FROM rate_grid ORDER BY basis_order, step")) as never;
          check(accounting, rates, expected);
          expect(accounting.broken_sources).toBe(file_.broken);
        }),
        { numRuns: RUNS, seed: 20250312, endOnFailure: true },
      );
      expect([run, checked]).toEqual([RUNS, last - first]);
    }, 300_000);
  }

  it("never crash the CLI, which prints the same accounting and grid", async () => {
    const dir = tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(corruptedLog, async (bytes) => {
        const file = join(dir, `cli-${run++}.jsonl`);
        writeFileSync(file, bytes);
        const r = await denom(["report", "--json", file]);
        // one line per message, never a stack trace
        expect(r.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("denom: "))).toEqual([]);
        const expected = oracle(bytes);
        expect(r.code, r.stderr).toBe(noRecord(expected) ? 1 : 0);
        if (!noRecord(expected)) check(r.json().accounting, r.json().rates, expected);
      }),
      // each run starts DuckDB and computes every figure: a few runs only
      { numRuns: 4, seed: 7, endOnFailure: true },
    );
  }, 300_000);
});
