/**
 * Issue 9 (9a): run records as harnesses write them. Object documents read entry
 * by entry (SWE-bench results.json id lists, SWE-Bench Pro `{id: bool}`,
 * OpenHands Index `{id: {resolved, cost}}`), the format chosen per source, an
 * unrecognised input refused, `--input-format`, `denom formats`, and the
 * published figures of ../shared/data/real reproduced (or not). Every expected
 * value is worked out by hand from the input (the real files were counted with
 * jq; the counts are written beside each assertion).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_FORMATS, DOCUMENT_FORMATS } from "../src/formats/index.js";
import { fitDocument } from "../src/formats/shape.js";
import { readUnits } from "../src/ingest/records/reader.js";
import type { Unit } from "../src/ingest/types.js";
import { cell, denom, FIXTURES, hasShared, jsonl, REAL, tempDir } from "./helpers.js";

/** final/total, final/valid, final/attributable as [successes, count]. */
function finals(out: { rates: Parameters<typeof cell>[0]["rates"] }) {
  return ["total", "valid", "attributable"].map((d) => {
    const c = cell(out, `final/${d}`);
    return [c.successes, c.count];
  });
}

/** Reads `text` in `chunk`-byte pieces with the real document adapters offered. */
async function readEntries(text: string, chunk: number) {
  const units: Unit[] = [];
  const rejects: string[] = [];
  const bytes = Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const summary = await readUnits(
    chunks(),
    new Set(["results"]),
    { unit: (u) => units.push(u), blank: () => {}, reject: (_l, location, reason) => rejects.push(`${location}: ${reason}`) },
    null,
    { chooseDocument: (first) => DOCUMENT_FORMATS.find((f) => fitDocument(f.shape, first, "x.json")) ?? null },
  );
  return { summary, units, rejects };
}

describe("object documents, streamed entry by entry", () => {
  // a SWE-bench report: 2 counts, then resolved [a], a bookkeeping list, unresolved_ids [b, c]
  const report = { total_instances: 3, resolved_instances: 1, resolved: ["a"], completed_ids: ["a", "b", "c"], unresolved_ids: ["b", "c"] };

  for (const [label, text] of [
    ["minified", JSON.stringify(report)],
    ["pretty-printed", JSON.stringify(report, null, 2)],
  ] as const) {
    for (const chunk of [1, 5, 13, 4096]) {
      it(`reads the id lists of a ${label} SWE-bench report, ${chunk}-byte chunks: one unit per id, bookkeeping skipped`, async () => {
        const { summary, units, rejects } = await readEntries(text, chunk);
        expect(summary.format).toBe("json");
        expect(rejects).toEqual([]);
        // resolved[0] = a; unresolved_ids[0] = b, [1] = c; completed_ids and the counts are no records
        expect(units.map((u) => [u.location, u.entry?.value, u.document?.name])).toEqual([
          ["resolved[0]", "a", "swe-bench-results"],
          ["unresolved_ids[0]", "b", "swe-bench-results"],
          ["unresolved_ids[1]", "c", "swe-bench-results"],
        ]);
        expect(units.map((u) => u.line)).toEqual([1, 2, 3]);
      });
    }
  }

  it("claims {id: bool} and {id: {resolved, cost}} objects by their first entries, and leaves a canonical object alone", async () => {
    const pro = await readEntries(JSON.stringify({ x1: true, x2: false, x3: false, x4: true }), 3);
    expect(pro.units.map((u) => [u.location, u.entry?.value, u.document?.name])).toEqual([
      ["x1", true, "swe-bench-pro"],
      ["x2", false, "swe-bench-pro"],
      ["x3", false, "swe-bench-pro"],
      ["x4", true, "swe-bench-pro"],
    ]);
    const oh = await readEntries(JSON.stringify({ t1: { resolved: true, cost: 1 }, t2: { resolved: null, cost: null } }), 2);
    expect(oh.units.map((u) => [u.location, u.document?.name])).toEqual([
      ["t1", "openhands-index"],
      ["t2", "openhands-index"],
    ]);
    // a single canonical record written as a document: one unit, the object itself
    const one = await readEntries(JSON.stringify({ task_id: "t", status: "success", resolved: true }, null, 2), 4);
    expect(one.units.map((u) => [u.location, u.document, u.value])).toEqual([["value 1", undefined, { task_id: "t", status: "success", resolved: true }]]);
  });
});

describe("swe-bench-results, swe-bench-pro and openhands-index, whole-command", () => {
  it("maps each outcome list to its status, keeping the list's name as status_detail", async () => {
    // 5 instances: a resolved, b unresolved, c empty patch, d harness error, e never evaluated
    const dir = tempDir({
      "results.json": JSON.stringify({
        total_instances: 5,
        resolved: ["a"],
        unresolved_ids: ["b"],
        empty_patch_ids: ["c"],
        error_ids: ["d"],
        incomplete_ids: ["e"],
        submitted_ids: ["a", "b", "c", "d"],
      }),
    });
    const r = await denom(["report", "--json", join(dir, "results.json")]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    // success a; failure b, c (the agent's); aborted d, e (environment): total 5, attributable 3
    expect(finals(out)).toEqual([
      [1, 5],
      [1, 5],
      [1, 3],
    ]);
    expect(out.status_counts.final).toEqual({ success: 1, failure: 2, aborted: 2 });
    const exclusions = out.meta.exclusions
      .filter((e: { basis: string }) => e.basis === "final")
      .map((e: { reason: string; trials: number }) => [e.reason, e.trials]);
    expect(exclusions).toEqual([
      ["aborted (error_ids)", 1],
      ["aborted (incomplete_ids)", 1],
    ]);
    // the 5 ids are the source's records; submitted_ids and the count are not
    expect(out.meta.sources[0]).toMatchObject({ adapter: "swe-bench-results", lines: 5, records: 5, rejected: 0 });
  });

  it("rejects an id that is not a string, naming the list and the element", async () => {
    const dir = tempDir({ "results.json": JSON.stringify({ total_instances: 2, resolved: ["a", 7] }) });
    const out = (await denom(["report", "--json", join(dir, "results.json")])).json();
    expect(out.rejects).toEqual([
      expect.objectContaining({ location: "resolved[1]", reason: "resolved[1]: expected an instance id (a non-empty string), got 7" }),
    ]);
  });

  it("reads OpenHands' null outcome as an unrecognized status and 0.0 cost as not recorded", async () => {
    // m/instance_results/bench.json: t1 resolved ($2), t2 unresolved ($0.0 = not captured), t3 null
    const dir = tempDir();
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(dir, "m", "instance_results"), { recursive: true });
    const path = join(dir, "m", "instance_results", "bench.json");
    writeFileSync(path, JSON.stringify({ t1: { resolved: true, cost: 2 }, t2: { resolved: false, cost: 0.0 }, t3: { resolved: null, cost: null } }));
    const out = (await denom(["report", "--json", path, "--by", "run_id"])).json();
    // total 3; valid drops t3 (fault unknown): 1/2
    expect(finals(out)).toEqual([
      [1, 3],
      [1, 2],
      [1, 2],
    ]);
    expect(out.unrecognized_statuses).toEqual([{ value: "outcome_unknown", attempts: 1 }]);
    // only t1's $2 is a recorded cost; t2 and t3 are counted as missing, never as $0
    expect(out.efficiency).toMatchObject({ cost_usd_total: 2, cost_missing_attempts: 2 });
    expect(out.groups.map((g: { value: string }) => g.value)).toEqual(["m/bench"]);
  });

  it("reads the MIT-licensed SWE-Bench Pro gpt-4o-paper copy: 36 resolved of 619; 36/731 = 4.9% with --expect-count 731", async () => {
    const file = join(FIXTURES, "swe-bench-pro", "gpt-4o-paper", "eval_results.json");
    const plain = (await denom(["report", "--json", file])).json();
    // jq: 619 entries, 36 true, 583 false
    expect(finals(plain)).toEqual([
      [36, 619],
      [36, 619],
      [36, 619],
    ]);
    expect(plain.meta.sources[0]).toMatchObject({ adapter: "swe-bench-pro", records: 619 });
    const r = await denom(["report", "--json", file, "--expect-count", "731"]);
    const out = r.json();
    // 731 - 619 = 112 missing: in total, removed again by attributable
    expect(finals(out)).toEqual([
      [36, 731],
      [36, 731],
      [36, 619],
    ]);
    expect(out.diagnostics.missing).toBe(112);
    expect(cell(out, "final/total").rate).toBeCloseTo(36 / 731, 12);
    expect((cell(out, "final/total").rate * 100).toFixed(1)).toBe("4.9");
    const audit = await denom(["audit", file, "--expect-count", "731", "--claim", "4.9%", "--json"]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.json().strict).toEqual({ successes: 36, count: 731, rate: 36 / 731 });
  });

  it("audits with the missing trials in every count: 4.9% is the strict figure, 5.8% leaves the 112 missing out", async () => {
    const file = join(FIXTURES, "swe-bench-pro", "gpt-4o-paper", "eval_results.json");
    const r = await denom(["audit", file, "--expect-count", "731", "--claim", "5.8%", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    // 36/619 = 5.816%: final successes over trials that did not hit an environment failure (the missing ones)
    expect(r.json().matches[0]).toMatchObject({ successes: 36, count: 619, exclude: [{ class: "environment", scope: "basis" }] });
  });

  it("takes --expect FILE with these formats: an expected id absent from the file enters total as missing", async () => {
    const dir = tempDir({ "eval_results.json": JSON.stringify({ i1: true, i2: false, i3: false }), "ids.txt": "i1\ni2\ni3\ni4\n" });
    const out = (await denom(["report", "--json", join(dir, "eval_results.json"), "--expect", join(dir, "ids.txt")])).json();
    // i4 missing: 1/4 strict, 1/3 attributable
    expect(finals(out)).toEqual([
      [1, 4],
      [1, 4],
      [1, 3],
    ]);
    expect(out.diagnostics.missing).toBe(1);
  });
});

describe("the format of each source", () => {
  it("loads a folder mixing several formats, each file with its own adapter, and names the adapter per source", async () => {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const dir = tempDir({
      // canonical JSONL: one success, one failure (run r)
      "a.jsonl": jsonl({ run_id: "r", task_id: "c1", status: "success" }, { run_id: "r", task_id: "c2", status: "failure" }),
      // SWE-Bench Pro: p1 resolved, p2 not
      "eval_results.json": JSON.stringify({ p1: true, p2: false }),
      // Terminal-Bench results.json: one resolved trial
      "results.json": JSON.stringify({ results: [{ task_id: "tb1", trial_name: "tb1.1-of-1.run", is_resolved: true, failure_mode: "unset" }], accuracy: 1 }),
      // seed-article summary: timeout then success
      "summary.jsonl": jsonl({ task_id: "s1", first_status: "timeout", final_status: "success" }),
    });
    mkdirSync(join(dir, "m", "instance_results"), { recursive: true });
    // OpenHands: o1 resolved
    writeFileSync(join(dir, "m", "instance_results", "gaia.json"), JSON.stringify({ o1: { resolved: true, cost: 0.5 } }));
    mkdirSync(join(dir, "sub", "results"), { recursive: true });
    // SWE-bench report: w1 resolved, w2 incomplete
    writeFileSync(join(dir, "sub", "results", "results.json"), JSON.stringify({ total_instances: 2, resolved: ["w1"], incomplete_ids: ["w2"] }));
    const r = await denom(["report", "--json", dir]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    const adapters = Object.fromEntries(out.meta.sources.map((s: { name: string; adapter: string }) => [s.name.slice(dir.length + 1), s.adapter]));
    expect(adapters).toEqual({
      "a.jsonl": "canonical",
      "eval_results.json": "swe-bench-pro",
      "m/instance_results/gaia.json": "openhands-index",
      "results.json": "terminal-bench",
      "sub/results/results.json": "swe-bench-results",
      "summary.jsonl": "task-summary",
    });
    // successes c1, p1, tb1, s1, o1, w1 = 6 of 2 + 2 + 1 + 1 + 1 + 2 = 9 trials
    expect(cell(out, "final/total")).toMatchObject({ successes: 6, count: 9 });
    const text = await denom(["report", dir]);
    // {"p1":true,"p2":false} is 22 bytes
    expect(text.stdout).toContain("eval_results.json  22 B  read as swe-bench-pro");
    const md = await denom(["report", dir, "--format", "md"]);
    expect(md.stdout).toMatch(/\| `[^`]*eval_results\.json` \| json \| swe-bench-pro \|/);
  });

  it("refuses an input no format recognises: exit 1, naming the file and the formats tried", async () => {
    const dir = tempDir({ "odd.json": JSON.stringify({ name: "x", values: [1, 2] }, null, 2), "odd.jsonl": jsonl({ foo: 1 }, { foo: 2 }) });
    for (const name of ["odd.json", "odd.jsonl"]) {
      const r = await denom(["report", join(dir, name)]);
      expect(r.code, name).toBe(1);
      expect(r.stdout).toBe("");
      const tried = ALL_FORMATS.map((f) => f.name).join(", ");
      expect(r.stderr).toContain(`denom: ${join(dir, name)}: no input format recognises it (tried ${tried})`);
      expect(r.stderr).toContain("--input-format NAME");
    }
  });

  it("keeps a stray line of a recognised log a reject, as before, even as the first line", async () => {
    // line 1 looks like nothing; line 2 is a canonical attempt; line 3 is an attempt without a status
    const dir = tempDir({ "a.jsonl": jsonl({ foo: 1 }, { task_id: "t", status: "success" }, { task_id: "u" }) });
    const out = (await denom(["report", "--json", join(dir, "a.jsonl")])).json();
    expect(out.accounting).toMatchObject({ lines: 3, records: 1, rejected: 2 });
    expect(out.rejects.map((x: { line: number; reason: string }) => [x.line, x.reason])).toEqual([
      [1, "task_id: missing"],
      [3, "status: missing"],
    ]);
  });

  it("gives up on a source whose first 20 records no format reads, even when later ones are attempts", async () => {
    // 21 lines {n: i} then one canonical attempt: nothing of it may be loaded in part
    const lines = Array.from({ length: 21 }, (_, i) => ({ n: i }));
    const dir = tempDir({ "notes.jsonl": jsonl(...lines, { task_id: "t", status: "success" }) });
    const r = await denom(["report", join(dir, "notes.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("notes.jsonl: no input format recognises it");
    expect(r.stderr).toContain("its first record has keys n;");
    // with 20 such lines the attempt on line 21 shows the format: the 20 are rejects
    const dir20 = tempDir({ "notes.jsonl": jsonl(...lines.slice(0, 20), { task_id: "t", status: "success" }) });
    const out = (await denom(["report", "--json", join(dir20, "notes.jsonl")])).json();
    expect(out.accounting).toMatchObject({ lines: 21, records: 1, rejected: 20 });
  });

  it("reads a --db file written before sources had an adapter column, and adds the column when ingesting into it", async () => {
    const { Database } = await import("../src/db/database.js");
    const dir = tempDir({ "a.jsonl": jsonl({ task_id: "t", status: "success" }), "b.json": JSON.stringify({ p: true }) });
    const file = join(dir, "old.duckdb");
    expect((await denom(["ingest", join(dir, "a.jsonl"), "--db", file])).code).toBe(0);
    const db = await Database.open({ path: file });
    await db.run("ALTER TABLE sources DROP COLUMN adapter");
    db.close();
    const read = await denom(["report", "--json", "--db", file]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.json().meta.sources[0].adapter).toBeNull();
    const added = await denom(["ingest", join(dir, "b.json"), "--db", file, "--json"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.json().added).toEqual([expect.objectContaining({ adapter: "swe-bench-pro", attempts: 1 })]);
    const after = (await denom(["report", "--json", "--db", file])).json();
    expect(after.meta.sources.map((s: { adapter: string | null }) => s.adapter)).toEqual([null, "swe-bench-pro"]);
  });

  it("reads every source with --input-format NAME (or --format NAME), and refuses an unknown name (exit 2)", async () => {
    // {"a": 1}: no format claims it; read as swe-bench-pro, its entry is a reject naming the key
    const dir = tempDir({ "x.json": JSON.stringify({ a: true, task_id: false }) });
    const detected = await denom(["report", "--json", join(dir, "x.json")]);
    // task_id is a canonical name, so swe-bench-pro does not claim it; canonical rejects task_id false,
    // and a source of lines but no record is an error
    expect(detected.code).toBe(1);
    expect(detected.stderr).toContain("x.json:1: task_id: expected a string, got a boolean");
    expect(detected.stderr).toContain("x.json: 1 line but no record (1 rejected)");
    const forced = await denom(["report", "--json", join(dir, "x.json"), "--input-format", "swe-bench-pro"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(finals(forced.json())).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    for (const args of [
      ["report", "--format", "swe-bench-pro"],
      ["timeouts", "--format", "swe-bench-pro"],
      ["audit", "--claim", "50%", "--format", "swe-bench-pro"],
    ]) {
      const r = await denom([...args, join(dir, "x.json")]);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
    }
    const bad = await denom(["report", join(dir, "x.json"), "--input-format", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--input-format nope: no such format; use one of swe-bench-results, mini-swe-agent-preds, openhands-index, swe-bench-pro");
    const two = await denom(["report", join(dir, "x.json"), "--input-format", "canonical", "--format", "swe-bench-pro"]);
    expect(two.code).toBe(2);
  });

  it("reads an OpenHands scores.json given to --claims: one claim per benchmark, scoped to it", async () => {
    const { parseClaimsText } = await import("../src/formats/claims.js");
    const claims = parseClaimsText(
      JSON.stringify([
        { benchmark: "gaia", score: 72.7, metric: "accuracy" },
        { benchmark: "commit0", score: 12.5 },
      ]),
      "m/scores.json",
    );
    expect(claims.map((c) => [c.text, c.label, c.benchmark])).toEqual([
      ["72.7%", "gaia (accuracy), scores.json", "gaia"],
      ["12.5%", "commit0, scores.json", "commit0"],
    ]);
  });

  it("denom formats lists every adapter with the fields it reads", async () => {
    const r = await denom(["formats", "--json"]);
    expect(r.code).toBe(0);
    const { formats } = r.json();
    expect(formats.map((f: { name: string }) => f.name)).toEqual(ALL_FORMATS.map((f) => f.name));
    const pro = formats.find((f: { name: string }) => f.name === "swe-bench-pro");
    expect(pro.kind).toBe("document");
    expect(pro.reads).toContainEqual(expect.objectContaining({ source: "<value> true / false", canonical: "status success / failure" }));
    const report = formats.find((f: { name: string }) => f.name === "swe-bench-results");
    expect(report.reads.map((x: { source: string }) => x.source)).toEqual(
      expect.arrayContaining(["resolved[]", "unresolved_ids[]", "empty_patch_ids[]", "error_ids[]", "incomplete_ids[]"]),
    );
    const text = await denom(["formats"]);
    expect(text.stdout).toContain("openhands-index (document)");
    expect(text.stdout).toContain("  resolved: null -> status outcome_unknown");
  });
});

describe.skipIf(!hasShared)("published figures (../shared/data/real, read in place)", () => {
  const OH = join(REAL, "openhands-index");
  const report = async (args: string[]) => {
    const r = await denom(["report", "--json", ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };

  it("OpenHands Index claude-sonnet-4-5: swe-bench 371/500, gaia 120/165, commit0 2/16 as claimed", async () => {
    // jq '[.[]|.resolved]': swe-bench 500 rows, 371 true; gaia 165, 120; commit0 16, 2; no null
    for (const [bench, s, n, claim] of [
      ["swe-bench", 371, 500, "74.2"],
      ["gaia", 120, 165, "72.7"],
      ["commit0", 2, 16, "12.5"],
    ] as const) {
      const out = await report([join(OH, "claude-sonnet-4-5", "instance_results", `${bench}.json`)]);
      expect(cell(out, "final/total"), bench).toMatchObject({ successes: s, count: n });
      expect((cell(out, "final/total").rate * 100).toFixed(1)).toBe(claim);
      expect(out.meta.sources[0].adapter).toBe("openhands-index");
    }
  });

  it("OpenHands Index claude-sonnet-4-5 swt-bench: 68.8% only with --expect-count 433 (3 instances missing)", async () => {
    const file = join(OH, "claude-sonnet-4-5", "instance_results", "swt-bench.json");
    // jq: 430 rows, 298 true: 298/430 = 69.3%
    const plain = await report([file]);
    expect(cell(plain, "final/total")).toMatchObject({ successes: 298, count: 430 });
    expect((cell(plain, "final/total").rate * 100).toFixed(1)).toBe("69.3");
    const out = await report([file, "--expect-count", "433"]);
    // 298/433 = 0.68822
    expect(cell(out, "final/total")).toMatchObject({ successes: 298, count: 433 });
    expect((cell(out, "final/total").rate * 100).toFixed(1)).toBe("68.8");
    expect(out.diagnostics.missing).toBe(3);
  });

  it("audit: DeepSeek-V4-Pro swt-bench's claimed 68.1% is not reproduced; the strict figure is 264/433 = 61.0% (exit 3)", async () => {
    // scores.json: swt-bench score 68.1 (accuracy); jq: 433 rows, 264 true
    const r = await denom(["audit", join(OH, "DeepSeek-V4-Pro"), "--claim", "68.1%", "--json"]);
    expect(r.code, r.stderr).toBe(3);
    const out = r.json();
    expect(out.reproduced).toBe(false);
    expect(out.strict).toEqual({ successes: 264, count: 433, rate: 264 / 433 });
    expect((out.strict.rate * 100).toFixed(1)).toBe("61.0");
    // the folder holds scores.json too: read as claims, holding no attempt
    const meta = (await report([join(OH, "DeepSeek-V4-Pro")])).meta;
    expect(meta.sources.map((s: { name: string; adapter: string; attempts: number }) => [s.name.slice(OH.length + 1), s.adapter, s.attempts])).toEqual([
      ["DeepSeek-V4-Pro/instance_results/swt-bench.json", "openhands-index", 433],
      ["DeepSeek-V4-Pro/scores.json", "openhands-scores", 0],
    ]);
    const sonnet = (await report([join(OH, "claude-sonnet-4-5")])).meta.sources;
    expect(sonnet.find((s: { name: string }) => s.name.endsWith("metadata.json")).adapter).toBe("openhands-metadata");
  });

  it("audit --claims scores.json: each claim against its own benchmark's records", async () => {
    // DeepSeek-V4-Pro holds swt-bench only: of its scores.json claims, swt-bench 68.1 is audited: not reproduced
    const deepseek = await denom(["audit", join(OH, "DeepSeek-V4-Pro"), "--claims", join(OH, "DeepSeek-V4-Pro", "scores.json"), "--json"]);
    expect(deepseek.code, deepseek.stderr).toBe(3);
    expect(deepseek.json()).toEqual([
      expect.objectContaining({
        claim: "68.1%",
        label: "swt-bench (accuracy), scores.json",
        reproduced: false,
        strict: { successes: 264, count: 433, rate: 264 / 433 },
      }),
    ]);
    expect(deepseek.stderr).toMatch(/claims of the --claims file not audited: the inputs hold swt-bench only/);
    // claude-sonnet-4-5 swt-bench 68.8 = 298/433 once the 3 missing instances count
    const sonnet = await denom([
      "audit",
      join(OH, "claude-sonnet-4-5", "instance_results", "swt-bench.json"),
      "--expect-count",
      "433",
      "--claims",
      join(OH, "claude-sonnet-4-5", "scores.json"),
      "--json",
    ]);
    expect(sonnet.code, sonnet.stderr).toBe(0);
    expect(sonnet.json()[0]).toMatchObject({ claim: "68.8%", reproduced: true, strict: { successes: 298, count: 433 } });
    // a whole model folder mixes benchmarks: no pooled figure is any benchmark's
    const mixed = await denom(["audit", join(OH, "claude-sonnet-4-5"), "--claims", join(OH, "claude-sonnet-4-5", "scores.json")]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain("the inputs hold 5 benchmarks (commit0, gaia, swe-bench, swe-bench-multimodal, swt-bench)");
  });

  it("SWE-Bench Pro gpt-4o-paper: 36 resolved; 36/731 = 4.9% strict with --expect-count 731", async () => {
    const out = await report([join(REAL, "swe-bench-pro", "gpt-4o-paper", "eval_results.json"), "--expect-count", "731"]);
    expect(cell(out, "final/total")).toMatchObject({ successes: 36, count: 731 });
    expect((cell(out, "final/total").rate * 100).toFixed(1)).toBe("4.9");
  });

  it("Multi-SWE-bench java: resolved gpt-4o 6, deepseek-coder-v2 7, gpt-4o-mini 1; every listed id a trial", async () => {
    const results = (sub: string) => join(REAL, "multi-swe-bench-java", sub, "results", "results.json");
    // jq: [resolved, unresolved_ids, empty_patch_ids, error_ids, incomplete_ids] lengths, 91 unique ids each
    // gpt-4o [6, 76, 3, 0, 6]: 6/91 strict; the 6 incomplete leave attributable: 6/85
    const gpt4o = await report([results("20240825_SWE-agent_gpt-4o-2024-05-13")]);
    expect(finals(gpt4o)).toEqual([
      [6, 91],
      [6, 91],
      [6, 85],
    ]);
    expect(gpt4o.status_counts.final).toEqual({ success: 6, failure: 79, aborted: 6 });
    expect(gpt4o.meta.exclusions.filter((e: { basis: string }) => e.basis === "final")).toEqual([
      expect.objectContaining({ denominator: "attributable", reason: "aborted (incomplete_ids)", trials: 6 }),
    ]);
    // deepseek-coder-v2 [7, 78, 6, 0, 0]
    const deepseek = await report([results("20240825_SWE-agent_deepseek-coder-v2")]);
    expect(finals(deepseek)).toEqual([
      [7, 91],
      [7, 91],
      [7, 91],
    ]);
    // gpt-4o-mini [1, 0, 0, 0, 90]: 90 of 91 never evaluated; 1/91 strict, 1/1 over the evaluated one
    const mini = await report([results("20240825_SWE-agent_gpt-4o-mini-2024-07-18")]);
    expect(finals(mini)).toEqual([
      [1, 91],
      [1, 91],
      [1, 1],
    ]);
    expect(mini.status_counts.final).toEqual({ success: 1, aborted: 90 });
  });

  it("Multi-SWE-bench gpt-4o submission folder: predictions, report and trajectories, each with its own adapter", async () => {
    const dir = join(REAL, "multi-swe-bench-java", "20240825_SWE-agent_gpt-4o-2024-05-13");
    const out = await report([dir, "--by", "run_id"]);
    const read = out.meta.sources.map((s: { name: string; adapter: string; records: number; attempts: number }) => [
      s.name.slice(dir.length + 1),
      s.adapter,
      s.records,
      s.attempts,
    ]);
    // all_preds.jsonl: 85 lines (wc -l), predictions holding no attempt; results.json: 91 ids; 5 .traj files, one attempt each
    expect(read).toEqual([
      ["all_preds.jsonl", "swe-bench-preds", 85, 0],
      ["results/results.json", "swe-bench-results", 91, 91],
      ["trajs/apache__dubbo-11781.traj", "swe-agent", 1, 1],
      ["trajs/fasterxml__jackson-core-1053.traj", "swe-agent", 1, 1],
      ["trajs/fasterxml__jackson-core-1142.traj", "swe-agent", 1, 1],
      ["trajs/fasterxml__jackson-core-1172.traj", "swe-agent", 1, 1],
      ["trajs/fasterxml__jackson-core-1309.traj", "swe-agent", 1, 1],
    ]);
    // the report's run is the submission folder: 6/91
    const submission = out.groups.find((g: { value: string }) => g.value === "20240825_SWE-agent_gpt-4o-2024-05-13");
    expect(cell(submission, "final/total")).toMatchObject({ successes: 6, count: 91 });
  });
});

if (!hasShared) console.log("skipped: published-figure tests (../shared/data/real not present)");
