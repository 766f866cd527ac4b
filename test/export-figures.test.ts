/**
 * `denom export` for spreadsheets: every figure of the report (pass@k,
 * durations, cost, per-call, timeout causes) and --by; attempts without denom's
 * internal columns; timestamps in ISO 8601 UTC; run_id as written; plain numbers
 * and ids never neutralised; --excel (UTF-8 BOM, CRLF); TSV; stdout.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { denom, jsonl, tempDir } from "./helpers.js";

/**
 * Two tasks in one run whose id looks like a number, "-2.5e3":
 *   a, trial 0: success in 60 s, $0.50, model m1, two llm calls (ok, timeout)
 *   a, trial 1: failure in 120 s (start written at +02:00), $0.25, model m1
 *   =b, trial 0: timeout after 300 s ($1), then a retry that succeeds in 90 s ($0.25), model m2
 * So: 3 trials, 2 final successes, 4 attempts, $2.00 in all. Two models make two groups
 * (each its own figures); the figures below are over both, with --pool.
 */
const RUN = "-2.5e3";
const INPUT = jsonl(
  {
    run_id: RUN,
    task_id: "a",
    trial: 0,
    attempt: 1,
    status: "success",
    model: "m1",
    cost_usd: 0.5,
    started_at: "2025-01-01T00:00:00.5Z",
    ended_at: "2025-01-01T00:01:00.5Z",
    events: [
      { ts: "2025-01-01T00:00:10Z", type: "llm_call", status: "ok" },
      { ts: "2025-01-01T00:00:20Z", type: "llm_call", status: "timeout" },
    ],
  },
  {
    run_id: RUN,
    task_id: "a",
    trial: 1,
    attempt: 1,
    status: "failure",
    model: "m1",
    cost_usd: 0.25,
    started_at: "2025-01-01T02:00:00+02:00",
    ended_at: "2025-01-01T00:02:00Z",
  },
  {
    run_id: RUN,
    task_id: "=b",
    trial: 0,
    attempt: 1,
    status: "timeout",
    model: "m2",
    cost_usd: 1,
    timeout_limit_s: 300,
    started_at: "2025-01-01T00:00:00Z",
    ended_at: "2025-01-01T00:05:00Z",
  },
  {
    run_id: RUN,
    task_id: "=b",
    trial: 0,
    attempt: 2,
    status: "success",
    model: "m2",
    cost_usd: 0.25,
    started_at: "2025-01-01T00:10:00Z",
    ended_at: "2025-01-01T00:11:30Z",
  },
);

async function exported(args: string[]): Promise<Record<string, unknown>[]> {
  const dir = tempDir({ "runs.jsonl": INPUT });
  const r = await denom(["export", join(dir, "runs.jsonl"), "--json", "--pool", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

describe("export: every figure of the report", () => {
  it("pass@k and pass^k", async () => {
    // k=1: a has n=2, c=1 -> 1 - C(1,1)/C(2,1) = 0.5; =b has n=1, c=1 -> 1; mean 0.75 (pass^1 the same)
    // k=2: only a (n=2 >= 2): pass@2 = 1 - C(1,2)/C(2,2) = 1, pass^2 = C(1,2)/C(2,2) = 0; =b skipped
    const rows = await exported(["--what", "pass_at_k"]);
    expect(rows.map((r) => [r.k, r.pass_at_k, r.pass_hat_k, r.tasks, r.skipped])).toEqual([
      [1, 0.75, 0.75, 2, 0],
      [2, 1, 0, 1, 1],
    ]);
  });

  it("durations, nearest-rank, over all attempts and per status", async () => {
    // all: 60, 90, 120, 300 -> mean 142.5; p50 = 2nd of 4 = 90; p95 = ceil(3.8) = 4th = 300
    // success: 60, 90 -> mean 75, p50 = 1st = 60, p95 = 2nd = 90
    const rows = await exported(["--what", "durations"]);
    expect(rows.map((r) => [r.status, r.attempts, r.mean_s, r.p50_s, r.p95_s, r.max_s])).toEqual([
      ["all", 4, 142.5, 90, 300, 300],
      ["failure", 1, 120, 120, 120, 120],
      ["success", 2, 75, 60, 90, 90],
      ["timeout", 1, 300, 300, 300, 300],
    ]);
  });

  it("cost, retries and the rest of efficiency; per-call outcomes; timeout causes", async () => {
    // $0.50 + $0.25 + $1 + $0.25 = $2 over 3 trials and 2 final successes; 4 attempts / 3 trials
    const [e] = await exported(["--what", "efficiency"]);
    expect(e).toMatchObject({ trials: 3, attempts: 4, cost_usd_total: 2, cost_per_success: 1, final_successes: 2, trials_retried: 1, trials_rescued: 1 });
    expect(e.cost_per_trial).toBeCloseTo(2 / 3, 12);
    expect(e.attempts_per_trial).toBeCloseTo(4 / 3, 12);
    // the two llm calls of a/0: one ok, one timeout, half each
    expect((await exported(["--what", "per_call"])).map((r) => [r.type, r.status, r.calls, r.share])).toEqual([
      ["llm_call", "ok", 1, 0.5],
      ["llm_call", "timeout", 1, 0.5],
    ]);
    // one timeout, no events and no queue times: unknown
    expect((await exported(["--what", "timeout_causes"])).map((r) => [r.timeout_cause, r.attempts, r.share])).toEqual([
      ["queue", 0, 0],
      ["external", 0, 0],
      ["loop", 0, 0],
      ["sluggish", 0, 0],
      ["unknown", 1, 1],
    ]);
  });

  it("splits the figures by --by, the value in a first column named after the field", async () => {
    // m1: a/0 success, a/1 failure -> final/total 1/2; m2: =b/0 final success -> 1/1
    const rates = await exported(["--what", "rates", "--by", "model"]);
    const finalTotal = rates.filter((r) => r.basis === "final" && r.denominator === "total");
    expect(finalTotal.map((r) => [r.model, r.successes, r.count])).toEqual([
      ["m1", 1, 2],
      ["m2", 1, 1],
    ]);
    expect(Object.keys(rates[0])[0]).toBe("model");
    // pass@1 per model: m1 0.5 (a: n=2, c=1), m2 1
    const pass = await exported(["--what", "pass_at_k", "--by", "model"]);
    expect(pass.filter((r) => r.k === 1).map((r) => [r.model, r.pass_at_k])).toEqual([
      ["m1", 0.5],
      ["m2", 1],
    ]);
    const dir = tempDir({ "runs.jsonl": INPUT });
    const rows = await denom(["export", join(dir, "runs.jsonl"), "--what", "trials", "--by", "model"]);
    expect(rows.code).toBe(2);
    expect(rows.stderr).toContain("--by model splits the figures");
  });
});

describe("export: rows a spreadsheet reads as written", () => {
  it("attempts without internal columns, timestamps in ISO 8601 UTC, run_id as written", async () => {
    const rows = await exported(["--what", "attempts"]);
    for (const internal of ["attempt_id", "source_id", "line_hash", "run_key", "status_key", "is_kept", "duplicate_kind", "has_grader_error"])
      expect(Object.keys(rows[0])).not.toContain(internal);
    expect(rows.map((r) => [r.run_id, r.task_id, r.trial, r.attempt, r.started_at, r.ended_at])).toEqual([
      [RUN, "=b", 0, 1, "2025-01-01T00:00:00Z", "2025-01-01T00:05:00Z"],
      [RUN, "=b", 0, 2, "2025-01-01T00:10:00Z", "2025-01-01T00:11:30Z"],
      [RUN, "a", 0, 1, "2025-01-01T00:00:00.500000Z", "2025-01-01T00:01:00.500000Z"],
      // 02:00 at +02:00 is midnight UTC
      [RUN, "a", 1, 1, "2025-01-01T00:00:00Z", "2025-01-01T00:02:00Z"],
    ]);
    const trials = await exported(["--what", "trials"]);
    expect(Object.keys(trials[0])).not.toContain("run_key");
    expect(trials.map((t) => t.run_id)).toEqual([RUN, RUN, RUN]);
  });

  it("neutralises formula text but not plain numbers or ids; --excel adds the UTF-8 BOM, CRLF between records; TSV", async () => {
    const dir = tempDir({ "runs.jsonl": INPUT });
    const csv = await denom(["export", join(dir, "runs.jsonl"), "--what", "trials"]);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    // "-2.5e3" is a number to a spreadsheet: left alone; "=b" would run: an apostrophe first
    expect(rows.map((r) => [r.run_id, r.task_id])).toEqual([
      [RUN, "'=b"],
      [RUN, "a"],
      [RUN, "a"],
    ]);
    const file = join(dir, "trials.csv");
    const excel = await denom(["export", join(dir, "runs.jsonl"), "--what", "trials", "--excel", "-o", file]);
    expect(excel.code, excel.stderr).toBe(0);
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    expect(text.startsWith("run_id,task_id,trial,")).toBe(true);
    // a header and three trials, each line ended by CRLF, no bare LF
    expect(text.split("\r\n")).toHaveLength(5);
    expect(text.replaceAll("\r\n", "")).not.toContain("\n");
    const tsv = await denom(["export", join(dir, "runs.jsonl"), "--what", "rates", "--format", "tsv", "--pool"]);
    expect(tsv.stdout.split("\r\n")[0]).toBe("basis\tdenominator\tsuccesses\tcount\trate\tci95_lo\tci95_hi\tci_method");
    // final/total: 2 of 3 trials
    expect(tsv.stdout.split("\r\n").find((l) => l.startsWith("final\ttotal\t"))).toMatch(/^final\ttotal\t2\t3\t0\.666/);
    const bad = await denom(["export", join(dir, "runs.jsonl"), "--excel", "--format", "json"]);
    expect(bad.code).toBe(2);
  });
});
