/**
 * `denom report` end to end: the rate grid, the denominator chain, status counts,
 * duplicates, status precedence, and the real Terminal-Bench file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { CASES, REAL, cell, denom, hasShared, jsonl, once, tarOf, tempDir } from "./helpers.js";

const SEED = join(CASES, "seed-100");
/** `report --json` of seed-100's attempts.jsonl, run once for the read-only tests below */
const seedReport = once(() => denom(["report", "--json", join(SEED, "attempts.jsonl")]));

describe("report on seed-100 (DESIGN section 4 worked example)", () => {
  // 100 tasks, 300 s limit: 70 pass first try; 8 time out then pass; 12 time out then
  // give up (9 time out again, 3 fail); 4 hit an external API error then pass; 6 hit it twice.
  const grid = {
    "first/total": [70, 100], // every trial
    "first/valid": [70, 100], // no broken task, no unrecognized status
    "first/attributable": [70, 90], // minus the 4 + 6 first-attempt API errors
    "first/completable": [70, 70], // minus the 8 + 12 first-attempt timeouts
    "final/total": [82, 100], // 70 + 8 + 4
    "final/valid": [82, 100],
    "final/attributable": [82, 94], // minus the 6 that failed twice on the API
    "final/completable": [82, 85], // minus the 9 final timeouts
  };

  for (const file of ["attempts.jsonl", "tasks.jsonl"]) {
    it(`gives the eight cells from ${file}`, async () => {
      const out = (await (file === "attempts.jsonl" ? seedReport() : denom(["report", "--json", join(SEED, file)]))).json();
      for (const [key, [s, n]] of Object.entries(grid)) {
        expect([cell(out, key).successes, cell(out, key).count], key).toEqual([s, n]);
        expect(cell(out, key).rate).toBeCloseTo(s / n, 12);
      }
    });
  }

  it("counts statuses on both bases and the first -> final transitions", async () => {
    const out = (await seedReport()).json();
    expect(out.status_counts).toEqual({
      first: { success: 70, timeout: 20, aborted: 10 },
      final: { success: 82, timeout: 9, aborted: 6, failure: 3 },
    });
    expect(out.transitions).toEqual([
      { first: "success", final: "success", count: 70 },
      { first: "timeout", final: "timeout", count: 9 },
      { first: "timeout", final: "success", count: 8 },
      { first: "aborted", final: "aborted", count: 6 },
      { first: "aborted", final: "success", count: 4 },
      { first: "timeout", final: "failure", count: 3 },
    ]);
  });

  it("says what each step of the chain removed, and why", async () => {
    const out = (await seedReport()).json();
    const removed = out.meta.exclusions.map((e: Record<string, unknown>) => [e.basis, e.denominator, e.reason, e.trials]);
    expect(removed).toEqual([
      ["first", "attributable", "aborted (external_api_error)", 10],
      ["first", "completable", "timeout, cause unknown", 20],
      ["final", "attributable", "aborted (external_api_error)", 6],
      ["final", "completable", "timeout, cause unknown", 9],
    ]);
  });

  it("prints the meta block: sources, lines, limits, retry policy", async () => {
    const out = (await seedReport()).json();
    // 100 first attempts + 8 + 12 + 4 + 6 retries = 130 lines, one attempt each
    expect(out.accounting).toMatchObject({ lines: 130, records: 130, blank: 0, rejected: 0, duplicates: 0, unrecognized: 0 });
    expect(out.meta).toMatchObject({ tasks: 100, trials: 100, attempts: 130 });
    expect(out.meta.timeout_limits).toEqual([{ timeout_limit_s: 300, attempts: 130 }]);
    // 30 trials had a second attempt: 20 after a timeout, 10 after an API error
    expect(out.meta.retry_policy).toEqual({ max_attempts: 2, trials_retried: 30, retried_statuses: { timeout: 20, aborted: 10 } });
    expect(out.meta.sources[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("prints the grid as text with n/a never standing in for 0", async () => {
    const r = await denom(["report", join(SEED, "attempts.jsonl")]);
    expect(r.code).toBe(0);
    // 70/90 = 77.8%, Wilson 95% [68.15, 85.13]; 82/94 = 87.2%
    expect(r.stdout).toMatch(/attributable\s+70\/90\s+77\.8%\s+\[68\.2, 85\.1\]\s+82\/94\s+87\.2%/);
    // 80 columns, but for the line naming the source path
    const wide = r.stdout.split("\n").filter((l) => l.length > 80 && !l.includes(SEED));
    expect(wide).toEqual([]);
  });
});

describe("status model (DESIGN section 3)", () => {
  it("matches aliases exactly after trim and lower-case, never by substring", async () => {
    const input = jsonl(
      { task_id: "1", status: " PASSED " }, // success
      { task_id: "2", status: "incorrect" }, // failure, not "correct"
      { task_id: "3", status: "unsuccessful" }, // unrecognized
      { task_id: "4", status: "timed_out" }, // timeout
    );
    const out = (await denom(["report", "--json", "-"], input)).json();
    expect(out.status_counts.final).toEqual({ success: 1, failure: 1, unrecognized: 1, timeout: 1 });
    expect(out.unrecognized_statuses).toEqual([{ value: "unsuccessful", attempts: 1 }]);
    // valid drops the unrecognized one: 1 success of 3
    expect([cell(out, "final/valid").successes, cell(out, "final/valid").count]).toEqual([1, 3]);
  });

  it("adds aliases with --status-map", async () => {
    const input = jsonl({ task_id: "1", status: "unsuccessful" }, { task_id: "2", status: "success" });
    const out = (await denom(["report", "--json", "--status-map", "Unsuccessful=failure", "-"], input)).json();
    expect(out.status_counts.final).toEqual({ success: 1, failure: 1 });
    expect(out.meta.status_map).toEqual({ unsuccessful: "failure" });
  });

  it("lets a grader error and a violated constraint override the status", async () => {
    const input = jsonl(
      { task_id: "1", status: "success", constraint_ok: false }, // failure (constraint_violation)
      { task_id: "2", status: "success", grader_error: "judge returned 500" }, // aborted, environment
      { task_id: "3", status: "timeout", score: 1 }, // still a timeout, a late pass
      { task_id: "4", status: "aborted", status_detail: "safety_stop" }, // aborted, but the agent's fault
      { task_id: "5", status: "success", grader_error: false }, // no grader error: still a success
    );
    const out = (await denom(["report", "--json", "-"], input)).json();
    expect(out.status_counts.final).toEqual({ aborted: 2, failure: 1, timeout: 1, success: 1 });
    expect(out.diagnostics).toEqual({ timeout_attempts: 1, timeouts_with_passing_score: 1, constraint_violations: 1, grader_errors: 1, missing: 0 });
    // attributable removes only the grader error: 5 - 1 = 4 trials, one success (5)
    expect([cell(out, "final/attributable").successes, cell(out, "final/attributable").count]).toEqual([1, 4]);
  });

  it("takes an abort for the agent's when its detail starts with safety or policy, in any case, else for the environment's", async () => {
    const input = jsonl(
      { task_id: "1", status: "aborted", status_detail: "Policy_Refusal" }, // the agent's
      { task_id: "2", status: "aborted", status_detail: "SAFETY" }, // the agent's
      { task_id: "3", status: "aborted", status_detail: "rate_limited" }, // the environment's
      { task_id: "4", status: "aborted" }, // no detail: the environment's
      { task_id: "5", status: "success" },
    );
    const out = (await denom(["report", "--json", "-"], input)).json();
    // attributable removes the environment's two aborts (3, 4): 5 - 2 = 3 trials, one success (5)
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([1, 5]);
    expect([cell(out, "final/attributable").successes, cell(out, "final/attributable").count]).toEqual([1, 3]);
  });
});

describe("duplicates (DESIGN section 4)", () => {
  it("collapses identical lines and keeps the latest ended_at of differing ones", async () => {
    const first = { task_id: "t", attempt: 1, status: "failure", ended_at: "2025-03-12T09:05:00Z" };
    const later = { task_id: "t", attempt: 1, status: "success", ended_at: "2025-03-12T09:09:00Z" };
    // the identical copy of `first` collapses; `later` wins over `first` by ended_at
    const input = jsonl(later, first, first, { task_id: "u", status: "success" });
    const out = (await denom(["report", "--json", "-"], input)).json();
    expect(out.accounting).toMatchObject({ records: 4, duplicates: 2, duplicates_identical: 1, duplicates_differing: 1 });
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([2, 2]);
  });

  it("treats records without run_id in two files as one run (a resumed run)", async () => {
    const dir = tempDir({
      "part1.jsonl": jsonl({ task_id: "t", status: "timeout", ended_at: "2025-03-12T09:00:00Z" }),
      "part2.jsonl": jsonl({ task_id: "t", status: "success", ended_at: "2025-03-12T10:00:00Z" }),
    });
    const out = (await denom(["report", "--json", dir])).json();
    // one trial, the later line kept
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([1, 1]);
  });

  it("keeps trials of different runs apart", async () => {
    const input = jsonl({ run_id: "r1", task_id: "t", status: "success" }, { run_id: "r2", task_id: "t", status: "failure" });
    const out = (await denom(["report", "--json", "-"], input)).json();
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([1, 2]);
    expect(out.meta.runs).toBe(2);
  });
});

describe("bad input (DESIGN section 8)", () => {
  const input =
    '{"task_id":"a","status":"success"}\n\n{"task_id":"b",\n{"status":"success"}\n{"task_id":"c","status":"success","started_at":"2025-03-12T09:00:10Z","ended_at":"2025-03-12T09:00:00Z"}\n';

  it("reports every bad line with file and line, and goes on", async () => {
    const dir = tempDir({ "run.jsonl": input });
    const r = await denom(["report", "--json", join(dir, "run.jsonl")]);
    expect(r.code).toBe(0);
    // 5 lines = 1 record + 1 blank + 3 rejected
    expect(r.json().accounting).toMatchObject({ lines: 5, records: 1, blank: 1, rejected: 3, unaccounted: 0 });
    const err = r.stderr.trim().split("\n");
    expect(err[0]).toMatch(new RegExp(`^denom: ${join(dir, "run.jsonl")}:3: invalid JSON \\(.*\\); the line was skipped, --strict makes this fatal$`));
    expect(err[1]).toMatch(/:4: task_id: missing; the line was skipped/);
    expect(err[2]).toMatch(/:5: ended_at is before started_at \(10 s earlier\)/);
    expect(r.json().rejects.map((x: { line: number }) => x.line)).toEqual([3, 4, 5]);
  });

  it("says a broken JSON document was not read on, apart from a skipped element", async () => {
    const dir = tempDir({ "run.json": '[{"task_id":"a","status":"success"},\n 7,\n {"task_id":"b",' });
    const file = join(dir, "run.json");
    const r = await denom(["report", "--json", file]);
    expect(r.code).toBe(0);
    const err = r.stderr.trim().split("\n");
    expect(err[0]).toBe(`denom: ${file} ([1]): expected a JSON object, got 7; the element was skipped, --strict makes this fatal`);
    expect(err[1]).toMatch(
      new RegExp(
        `^denom: ${file} \\(\\[2\\]\\): invalid JSON document at element 3 \\(.+\\): the elements before it are kept, the rest of the document was not read; --strict makes this fatal$`,
      ),
    );
    // 3 elements = 1 record + 2 rejected (the bare 7, the broken rest)
    expect(r.json().accounting).toMatchObject({ lines: 3, records: 1, blank: 0, rejected: 2, unaccounted: 0 });
  });

  it("keeps the 1,000 elements before a bad token of a 1,500-element document and counts each", async () => {
    const element = (i: number) => `{"task_id":"t${i}","status":"success"}`;
    const all = Array.from({ length: 1500 }, (_, i) => element(i));
    const dir = tempDir({
      "run.json": `[\n${[...all.slice(0, 1000), "}x", ...all.slice(1000)].join(",\n")}\n]\n`,
      "small.json": `[${element(0)}, ${element(1)}, }x, ${element(2)}]`,
    });
    for (const [name, records] of [
      ["run.json", 1000],
      ["small.json", 2],
    ] as const) {
      const file = join(dir, name);
      const r = await denom(["report", "--json", file]);
      expect(r.code).toBe(0);
      expect(r.stderr.trim()).toBe(
        `denom: ${file} ([${records}]): invalid JSON document at element ${records + 1} (Parser cannot parse input: expected a value): ` +
          "the elements before it are kept, the rest of the document was not read; --strict makes this fatal",
      );
      // the elements read = the records before the bad token + the one reject of the rest
      expect(r.json().accounting).toMatchObject({ lines: records + 1, records, blank: 0, rejected: 1, unaccounted: 0 });
      expect(r.json().meta.trials).toBe(records);
    }
  });

  it("warns when the lines of a source do not add up", async () => {
    const dir = tempDir({ "run.jsonl": input });
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    // a source row whose buckets miss 2 of its lines (as a bug in the reader would leave it)
    const file = await Database.open({ path: db });
    await file.run("UPDATE sources SET lines = lines + 2");
    file.close();
    const json = (await denom(["report", "--json", "--db", db])).json();
    // 5 + 2 lines, 1 record + 1 blank + 3 rejected: 7 - 5 = 2 unaccounted
    expect(json.accounting).toMatchObject({ lines: 7, records: 1, blank: 1, rejected: 3, unaccounted: 2 });
    const text = await denom(["report", "--db", db]);
    expect(text.stdout).toContain("  ! lines do not add up: 2 = lines - records - blank - rejected (should be 0; please report it)");
  });

  it("prints the report and exits 1 under --strict", async () => {
    const r = await denom(["report", "--json", "--strict", "-"], input);
    expect(r.code).toBe(1);
    expect(r.json().accounting.rejected).toBe(3);
    expect(r.stderr).toMatch(/3 lines rejected and --strict is set/);
  });

  it("exits 2 on a usage error, naming the flag", async () => {
    expect((await denom(["report"])).code).toBe(2);
    const r = await denom(["report", "--queue-share", "40", "x.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("denom: --queue-share 40: expected a fraction in (0, 1], e.g. 0.25\n");
    expect((await denom(["report", "--status-map", "x=great", "x.jsonl"])).code).toBe(2);
    expect((await denom(["frobnicate"])).code).toBe(2);
  });
});

describe.skipIf(!hasShared)("report on real Terminal-Bench results (../shared/data/real)", () => {
  const file = join(REAL, "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet", "results.json");

  // MAPPING: 144 resolved = 117 success (failure_mode unset) + 27 late passes
  // (agent_timeout, is_resolved true); 117 agent_timeout = timeout; 10 unknown_agent_error
  // = aborted; the other 156 (unset+false 137, test_timeout 11, parse_error 8) = failure.
  function expectFigures(out: any) {
    expect(out.meta).toMatchObject({ trials: 400, tasks: 80 });
    expect(out.status_counts.final).toEqual({ success: 117, timeout: 117, failure: 156, aborted: 10 });
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([117, 400]);
    expect([cell(out, "final/attributable").successes, cell(out, "final/attributable").count]).toEqual([117, 390]);
    expect(out.diagnostics.timeouts_with_passing_score).toBe(27);
  }

  it("reads results.json", async () => {
    expectFigures((await denom(["report", "--json", file])).json());
  });

  it("gives the same figures from stdin", async () => {
    expectFigures((await denom(["report", "--json", "-"], readFileSync(file))).json());
  });

  it("gives the same figures from a .tar.gz holding it", async () => {
    const archive = await tarOf({ "20250902_orchestrator_claude-4-sonnet/results.json": readFileSync(file) });
    const dir = tempDir({ "task_logs.tar.gz": gzipSync(archive) });
    expectFigures((await denom(["report", "--json", join(dir, "task_logs.tar.gz")])).json());
  });
});

describe("timeout rate and the chain's steps on seed-100", () => {
  it("gives final timeouts over all trials, and what each step removed", async () => {
    const out = (await seedReport()).json();
    // 9 trials end in a timeout (12 gave up: 9 time out again, 3 fail) of 100
    expect(out.timeout_rate).toEqual({ timeouts: 9, trials: 100, rate: 0.09 });
    // first: valid 100-100, attributable 100-90, completable 90-70; final: 0, 100-94, 94-85
    expect(out.denominator_steps.map((s: { basis: string; denominator: string; removed: number | null }) => [s.basis, s.denominator, s.removed])).toEqual([
      ["first", "total", null],
      ["first", "valid", 0],
      ["first", "attributable", 10],
      ["first", "completable", 20],
      ["final", "total", null],
      ["final", "valid", 0],
      ["final", "attributable", 6],
      ["final", "completable", 9],
    ]);
    // 20 first-attempt timeouts + 9 second-attempt ones
    expect(out.diagnostics.timeout_attempts).toBe(29);
  });
});

if (!hasShared) console.log("skipping the real-record tests: ../shared/data/real is not beside this checkout");
