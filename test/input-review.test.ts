/**
 * What a new user found on the ingest side, whole-command: epoch timestamps in
 * any unit, minified and misnamed documents, --strict on a broken archive,
 * Terminal-Bench's run_metadata.json and typed fields, retries counted by number
 * in the audit. Every expected value is worked out from the input beside it.
 */
import { join } from "node:path";
import { gzipSync, constants as zlibConstants } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { cell, denom, hasShared, jsonl, REAL, tarOf, tempDir } from "./helpers.js";

/** A Terminal-Bench trial of run `run`: resolved or not, failure_mode unset (so success or failure). */
const trial = (task: string, resolved: boolean, run = "r1", more: object = {}) => ({
  task_id: task,
  trial_name: `${task}.1-of-1.${run}`,
  is_resolved: resolved,
  failure_mode: "unset",
  ...more,
});

/** `report --json --by KEY`: the output, and each group's final/total cell by its value (`"null"` for none). */
async function finalTotalBy(inputs: string[], key: string) {
  const out = (await denom(["report", "--json", ...inputs, "--by", key])).json();
  type Group = { value: string | null; rates: Parameters<typeof cell>[0]["rates"] };
  const groups = Object.fromEntries(out.groups.map((g: Group) => [String(g.value), cell(g, "final/total")]));
  return { out, groups };
}

describe("epoch timestamps", () => {
  it("reads nanoseconds and microseconds by magnitude, and rejects an instant out of range without failing the run", async () => {
    // 1743494401 s = 2025-04-01T08:00:01Z (2025-01-01 is 1735689600; + 90 days of Jan..Mar = 1743465600; + 8 h 0 min 1 s)
    const dir = tempDir({
      "e.jsonl": jsonl(
        { task_id: "t1", status: "success", started_at: 1743494401000000000, ended_at: 1743494461000000000 }, // ns: 60 s
        { task_id: "t2", status: "failure", started_at: 1743494401000000, ended_at: 1743494521000000 }, // µs: 120 s
        { task_id: "t3", status: "success", started_at: 1743494401000000000000 }, // 1.7e21 ns: the year 57219
      ),
    });
    const r = await denom(["report", "--json", join(dir, "e.jsonl")]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.accounting).toMatchObject({ lines: 3, records: 2, rejected: 1 });
    expect(out.rejects).toEqual([
      expect.objectContaining({ line: 3, reason: expect.stringMatching(/^started_at: timestamp out of range: 1\.743494401e\+21 \(read as epoch nanoseconds/) }),
    ]);
    // from t1's start to t2's end: 08:00:01 + 120 s = 08:02:01
    expect(out.meta.window).toEqual({ start: "2025-04-01T08:00:01Z", end: "2025-04-01T08:02:01Z" });
    // (60 + 120) / 2
    expect(out.efficiency.duration_s.mean).toBe(90);
  });
});

describe("JSON documents and JSONL, told apart", () => {
  // one line: {"results": [success a, 7, failure b], "accuracy": 0.5}
  const minified = JSON.stringify({ results: [trial("a", true), 7, trial("b", false)], accuracy: 0.5 }) + "\n";

  it("reads a minified results.json element by element: one bad element is one reject", async () => {
    const dir = tempDir({ "results.json": minified });
    for (const [args, stdin] of [
      [[join(dir, "results.json")], ""],
      [["-"], minified],
    ] as const) {
      const r = await denom(["report", "--json", ...args], stdin);
      expect(r.code, r.stderr).toBe(0);
      const out = r.json();
      // 3 elements = 2 records (a, b) + 0 blank + 1 rejected (the 7)
      expect(out.accounting).toMatchObject({ lines: 3, records: 2, blank: 0, rejected: 1 });
      expect(out.rejects).toEqual([expect.objectContaining({ line: 2, location: "results[1]", reason: "expected a JSON object, got 7" })]);
      expect(cell(out, "final/total")).toMatchObject({ successes: 1, count: 2 });
    }
  });

  it("rejects a whole results file on one line of a .jsonl with a reason saying how to read it", async () => {
    const dir = tempDir({ "r.jsonl": minified + jsonl({ task_id: "c", status: "success" }) });
    const out = (await denom(["report", "--json", join(dir, "r.jsonl")])).json();
    // line 1 (the whole results file) rejected, line 2 a record
    expect(out.accounting).toMatchObject({ lines: 2, records: 1, rejected: 1 });
    expect(out.rejects[0].reason).toMatch(/^a whole Terminal-Bench results file as one record: .*name the file \.json/);
  });

  // a first line that starts like a JSON array, then 20 records: t0..t19, the even ones successes
  const broken = "[truncated garbage\n" + jsonl(...Array.from({ length: 20 }, (_, i) => ({ task_id: `t${i}`, status: i % 2 === 0 ? "success" : "failure" })));

  it("reads a .jsonl whose first line starts with [ line by line, also as .jsonl.gz and as an archive member", async () => {
    const dir = tempDir({
      "x.jsonl": broken,
      "x.jsonl.gz": gzipSync(broken),
      "logs.tar": await tarOf({ "run/member.jsonl": broken }),
    });
    for (const name of ["x.jsonl", "x.jsonl.gz", "logs.tar"]) {
      const r = await denom(["report", "--json", join(dir, name)]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const out = r.json();
      // 21 lines = 20 records + 0 blank + 1 rejected (line 1)
      expect(out.accounting, name).toMatchObject({ lines: 21, records: 20, blank: 0, rejected: 1 });
      expect(out.meta.sources[0].format, name).toBe("jsonl");
      expect(
        out.rejects.map((x: { line: number }) => x.line),
        name,
      ).toEqual([1]);
      // t0, t2, ..., t18: 10 successes of 20
      expect(cell(out, "final/total"), name).toMatchObject({ successes: 10, count: 20 });
    }
  });
});

describe("--strict and a broken source", () => {
  // a gzip stream cut at a line end: both lines inflate whole, the stream has no end
  const cut = gzipSync(jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" }), { finishFlush: zlibConstants.Z_SYNC_FLUSH });

  it("counts the broken source apart from the lines, which still add up", async () => {
    const dir = tempDir({ "cut.jsonl.gz": cut });
    const r = await denom(["report", "--json", join(dir, "cut.jsonl.gz")]);
    expect(r.code).toBe(0);
    // 2 lines = 2 records + 0 blank + 0 rejected; nothing rejected, one source broken
    expect(r.json().accounting).toMatchObject({ lines: 2, records: 2, blank: 0, rejected: 0, unaccounted: 0, broken_sources: 1 });
    expect(r.stderr).toMatch(/warning: .*cut\.jsonl\.gz: gzip stream ended early/);
  });

  it("exits 1 under --strict in report, timeouts, audit and export, and ingest --strict adds nothing", async () => {
    const dir = tempDir({ "cut.jsonl.gz": cut });
    const input = join(dir, "cut.jsonl.gz");
    const commands = [
      ["report", input],
      ["timeouts", input],
      ["audit", input, "--claim", "50%"], // a 1/2 success: reproduced, so 0 without --strict
      ["export", input, "--out", join(dir, "trials.csv")],
    ];
    for (const args of commands) {
      expect((await denom(args)).code, args[0]).toBe(0);
      const strict = await denom([...args, "--strict"]);
      expect(strict.code, args[0]).toBe(1);
      expect(strict.stderr, args[0]).toContain("denom: 1 source broken part-way (warned above) and --strict is set");
    }
    const db = join(dir, "runs.duckdb");
    const ingest = await denom(["ingest", input, "--db", db, "--strict"]);
    expect(ingest.code).toBe(1);
    expect(ingest.stderr).toContain(`1 source broken part-way (warned above) and --strict is set; nothing was added to ${db}`);
    const stored = await Database.open({ path: db, readOnly: true });
    try {
      expect((await stored.one("SELECT count(*) AS n FROM sources"))?.n).toBe(0);
    } finally {
      stored.close();
    }
  });
});

describe("Terminal-Bench run_metadata.json and typed fields", () => {
  const metadata = { run_id: "r1", dataset_name: "terminal-bench-core", agent_name: "agent-x", model_name: "model-y" };

  it("gives a run's attempts the agent and model of its run_metadata.json when they name none", async () => {
    const dir = tempDir({
      "r1-results.json": JSON.stringify({ results: [trial("a", true), trial("b", false)], accuracy: 0.5 }, null, 2),
      "r1-run_metadata.json": JSON.stringify(metadata, null, 2),
      "r2-results.json": JSON.stringify({ results: [trial("c", true, "r2")], accuracy: 1 }, null, 2),
      // run r1 too, but naming its own agent: kept
      "r1-extra.jsonl": jsonl({ run_id: "r1", task_id: "d", status: "failure", agent: "own" }),
    });
    const { out, groups } = await finalTotalBy([dir], "agent");
    // agent-x: a (success), b (failure); own: d (failure); run r2 has no metadata: c (success) under null
    expect(groups).toEqual({
      "agent-x": expect.objectContaining({ successes: 1, count: 2 }),
      own: expect.objectContaining({ successes: 0, count: 1 }),
      null: expect.objectContaining({ successes: 1, count: 1 }),
    });
    // the metadata file is one record without attempts
    const source = out.meta.sources.find((s: { name: string }) => s.name.endsWith("r1-run_metadata.json"));
    expect([source.records, source.attempts]).toEqual([1, 0]);
  });

  it("rejects a trial whose is_resolved is not a boolean or whose token count is not a number, naming the field", async () => {
    const dir = tempDir({
      "results.json": JSON.stringify(
        {
          results: [
            trial("a", true),
            trial("b", false, "r1", { is_resolved: "yes" }),
            trial("c", true, "r1", { total_input_tokens: "many" }),
            trial("d", false, "r1", { total_input_tokens: 100, total_output_tokens: 20 }),
            trial("", true),
          ],
          accuracy: 0.5,
        },
        null,
        2,
      ),
    });
    const out = (await denom(["report", "--json", join(dir, "results.json")])).json();
    // 5 elements = 2 records (a, d) + 3 rejected (b, c, the empty task id)
    expect(out.accounting).toMatchObject({ lines: 5, records: 2, rejected: 3 });
    expect(out.rejects.map((x: { location: string; reason: string }) => [x.location, x.reason])).toEqual([
      ["results[1]", 'is_resolved: expected true or false, got "yes"'],
      ["results[2]", 'total_input_tokens: expected a number, got "many"'],
      ["results[4]", 'task_id: empty ("")'],
    ]);
    // a success, d a failure; d's 100 + 20 tokens, a's none reported: mean over the one attempt that reports
    expect(cell(out, "final/total")).toMatchObject({ successes: 1, count: 2 });
    expect(out.efficiency.llm_tokens_mean).toBe(120);
  });
});

describe.skipIf(!hasShared)("run_metadata.json of a real Terminal-Bench run (../shared/data/real)", () => {
  it("groups the run that has one under its model, and the four without under none", async () => {
    const folder = join(REAL, "terminal-bench-1", "20250825_swe-agent-mini_claude-4-sonnet");
    const { groups } = await finalTotalBy([folder], "model");
    // 2025-08-15__19-28-24/run_metadata.json: model_name anthropic/claude-sonnet-4-0; its results.json has
    // 80 trials and n_resolved 6 (all with failure_mode unset). The other four runs: 4 x 80 = 320 trials,
    // resolved with failure_mode unset 2 + 5 + 6 + 12 = 25 (their agent_timeout passes are late passes)
    expect(groups).toEqual({
      "anthropic/claude-sonnet-4-0": expect.objectContaining({ successes: 6, count: 80 }),
      null: expect.objectContaining({ successes: 25, count: 320 }),
    });
  });
});
if (!hasShared) console.log("skipped: run_metadata.json on real records (../shared/data/real not found)");

describe("audit: retried trials counted by attempt number", () => {
  it("counts a trial whose log holds only its attempt 2 as retried in what a definition hides", async () => {
    // t1 succeeds; t2's log holds only attempt 2, an infrastructure error: 2 attempts made, never a success
    const dir = tempDir({ "r.jsonl": jsonl({ task_id: "t1", status: "success" }, { task_id: "t2", attempt: 2, status: "infra_error" }) });
    const r = await denom(["audit", "--json", join(dir, "r.jsonl"), "--claim", "100%"]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    // 100% = 1/1: every match leaves out t2 only, which never succeeded and was retried
    expect(out.matches.length).toBeGreaterThan(0);
    for (const m of out.matches) expect(m.hides).toEqual({ trials: 1, never_succeeded: 1, never_succeeded_retried: 1, late_passes_counted: 0 });
  });
});
