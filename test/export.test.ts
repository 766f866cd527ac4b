/**
 * `denom export`: CSV that survives a round trip through a CSV library byte for
 * byte, formula cells neutralised (or not, with --raw-csv), numbers kept as
 * numbers, Parquet equal to the view it came from, and FILE.meta.json beside
 * every file.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { openRuns } from "../src/ingest/runs.js";
import { DEFAULT_THRESHOLDS } from "../src/definitions.js";
import { VERSION } from "../src/version.js";
import { denom, jsonl, ROOT, tempDir } from "./helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");

/** error messages that break naive CSV writers or that a spreadsheet would run */
const MESSAGES: Record<string, string> = {
  comma: "expected 3, got 4",
  quotes: 'he said "no" and left',
  newline: "line one\nline two",
  crlf: "first\r\nsecond",
  unicode: "échec: 失敗しました 😀",
  equals: '=HYPERLINK("http://example.com","click")',
  plus: "+1 more retry",
  minus: "-rf was refused",
  at: "@SUM(A1:A2)",
  tab: "\tindented",
  cr: "\rcarriage",
  inner: "a = b + c - d @ e",
};
const FORMULA_LIKE = new Set(["equals", "plus", "minus", "at", "tab", "cr"]);

function messagesInput(): string {
  const records = Object.entries(MESSAGES).map(([task_id, error_message]) => ({ task_id, status: "failure", error_message }));
  // a negative number must stay a number: only text cells are neutralised
  records.push({ task_id: "negative-score", status: "failure", error_message: "score below zero", score: -1 } as never);
  return jsonl(...records);
}

/** Runs `denom export INPUT... --out DIR/NAME ...rest`, expects exit 0 and returns the file written. */
async function exportTo(dir: string, name: string, args: string[]): Promise<string> {
  const out = join(dir, name);
  const r = await denom(["export", ...args, "--out", out]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain(`${out}.meta.json`);
  return out;
}

function parseCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path), { columns: true, encoding: "utf8" }) as Record<string, string>[];
}

describe("export CSV", () => {
  it("round-trips every error message, neutralising cells a spreadsheet would run", async () => {
    const dir = tempDir({ "attempts.jsonl": messagesInput() });
    const out = await exportTo(dir, "attempts.csv", [join(dir, "attempts.jsonl"), "--what", "attempts"]);
    const rows = parseCsv(out);
    // 12 messages + the negative score = 13 attempts, one row each
    expect(rows).toHaveLength(13);
    const byTask = new Map(rows.map((row) => [row.task_id, row]));
    for (const [task, message] of Object.entries(MESSAGES)) {
      const want = FORMULA_LIKE.has(task) ? `'${message}` : message;
      expect(byTask.get(task)?.error_message, task).toBe(want);
    }
    // score is DOUBLE: written -1.0, never '-1
    expect(byTask.get("negative-score")?.score).toBe("-1.0");
    const text = readFileSync(out, "utf8");
    expect(text.startsWith("source,")).toBe(true); // header row
    expect(text.split("\r\n").length).toBeGreaterThan(13); // CRLF between records (RFC 4180)
  });

  it("writes every message as it is with --raw-csv", async () => {
    const dir = tempDir({ "attempts.jsonl": messagesInput() });
    const out = await exportTo(dir, "attempts.csv", [join(dir, "attempts.jsonl"), "--what", "attempts", "--raw-csv"]);
    const byTask = new Map(parseCsv(out).map((row) => [row.task_id, row.error_message]));
    for (const [task, message] of Object.entries(MESSAGES)) expect(byTask.get(task), task).toBe(message);
  });

  it("keeps rates as fractions and counts as integers", async () => {
    // 8 tasks, 7 successes, 1 failure: first/total = 7/8 = 0.875
    const records = [...Array.from({ length: 7 }, (_, i) => ({ task_id: `s${i}`, status: "success" })), { task_id: "f", status: "failure" }];
    const dir = tempDir({ "runs.jsonl": jsonl(...records) });
    const out = await exportTo(dir, "rates.csv", [join(dir, "runs.jsonl"), "--what", "rates"]);
    const rows = parseCsv(out);
    expect(rows).toHaveLength(8); // 2 bases x 4 denominators
    const total = rows.find((row) => row.basis === "first" && row.denominator === "total");
    expect(total).toMatchObject({ successes: "7", count: "8", rate: "0.875" });
  });

  it("lists rejects with their source and line", async () => {
    const dir = tempDir({ "runs.jsonl": '{"task_id": "a", "status": "success"}\nnot json\n' });
    const out = await exportTo(dir, "rejects.csv", [join(dir, "runs.jsonl"), "--what", "rejects"]);
    const rows = parseCsv(out);
    // line 2 is the one bad line
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: join(dir, "runs.jsonl"), line: "2" });
  });
});

describe("export meta file", () => {
  it("writes FILE.meta.json with the sources' sha256, definitions and thresholds", async () => {
    const dir = tempDir();
    const out = await exportTo(dir, "trials.csv", [SEED, "--queue-share", "0.5"]);
    const file = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    // seed-100: 100 tasks, one trial each
    expect(file.export).toMatchObject({ what: "trials", format: "csv", rows: 100 });
    expect(file.meta.tool).toBe(`denom ${VERSION}`);
    expect(file.meta.sources).toEqual([expect.objectContaining({ name: SEED, sha256: createHash("sha256").update(readFileSync(SEED)).digest("hex") })]);
    expect(file.meta.thresholds).toEqual({ queue_share: 0.5, loop_min: 5, sluggish_ratio: 2 });
    expect(file.meta.definitions.denominators.map((d: { denominator: string }) => d.denominator)).toEqual(["total", "valid", "attributable", "completable"]);
    // seed-100 first try: 10 external API errors (4 + 6) leave attributable
    expect(file.meta.exclusions).toContainEqual(expect.objectContaining({ basis: "first", denominator: "attributable", trials: 10 }));
    expect(file.accounting).toMatchObject({ lines: 130, records: 130, rejected: 0 });
  });
});

describe("export Parquet and JSON", () => {
  it("writes trials to Parquet that DuckDB reads back equal to the trials view without denom's internal columns, row for row", async () => {
    const dir = tempDir();
    const out = await exportTo(dir, "trials.parquet", [SEED, "--what", "trials"]);
    const session = await openRuns({ inputs: [SEED], statusMap: {}, thresholds: DEFAULT_THRESHOLDS, stdin: Readable.from([]) });
    const db = session.db;
    try {
      await session.need(["trials"]);
      const order = "ORDER BY run_id, task_id, trial";
      // run_key (run_id with '' for none) and the attempt ids are denom's bookkeeping, left out
      const trials = "SELECT * EXCLUDE (run_key, first_attempt_id, final_attempt_id) FROM trials";
      const view = await db.all(`${trials} ${order}`);
      const parquet = await db.all(`SELECT * FROM read_parquet('${out}') ${order}`);
      expect(view).toHaveLength(100); // seed-100: 100 trials
      expect(parquet).toEqual(view);
      expect(await db.all(`DESCRIBE SELECT * FROM read_parquet('${out}')`)).toEqual(await db.all(`DESCRIBE ${trials}`));
    } finally {
      db.close();
    }
  });

  it("writes a JSON array for .json and one object a line for .jsonl, numbers as numbers", async () => {
    const dir = tempDir();
    const json = await exportTo(dir, "rates.json", [SEED, "--what", "rates"]);
    const lines = await exportTo(dir, "timeouts.jsonl", [SEED, "--what", "timeouts"]);
    const rates = JSON.parse(readFileSync(json, "utf8"));
    // DESIGN section 4 worked example: first/total 70/100, final/attributable 82/94
    expect(rates.find((c: { basis: string; denominator: string }) => c.basis === "first" && c.denominator === "total")).toMatchObject({
      successes: 70,
      count: 100,
      rate: 0.7,
    });
    expect(rates.find((c: { basis: string; denominator: string }) => c.basis === "final" && c.denominator === "attributable")).toMatchObject({
      successes: 82,
      count: 94,
    });
    const timeouts = readFileSync(lines, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // timeout attempts: 8 (then pass) + 12 (then give up) + 9 (timed out again) = 29
    expect(timeouts).toHaveLength(29);
    expect(timeouts[0]).toEqual(
      expect.objectContaining({ source: SEED, task_id: expect.any(String), attempt: expect.any(Number), timeout_cause: expect.any(String) }),
    );
  });
});

describe("export usage", () => {
  it("refuses an extension that names no format, before reading anything", async () => {
    const dir = tempDir();
    const r = await denom(["export", join(dir, "does-not-exist.jsonl"), "--out", join(dir, "trials.xlsx")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${join(dir, "trials.xlsx")}`);
  });

  it("refuses to overwrite one of its inputs", async () => {
    const dir = tempDir({ "runs.jsonl": jsonl({ task_id: "a", status: "success" }) });
    const r = await denom(["export", join(dir, "runs.jsonl"), "--out", join(dir, "runs.jsonl")]);
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, "runs.jsonl"), "utf8")).toContain('"task_id"');
    expect(existsSync(join(dir, "runs.jsonl.meta.json"))).toBe(false);
  });
});
