/**
 * SkillsBench leaderboard results: the synthetic nested-layout submission of
 * test/fixtures/skillsbench-leaderboard (PROVENANCE.md: 5 rows in 2 shards, 2 passed, 1 failed,
 * 2 infrastructure failures) and the flat layout, built from the same rows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cell, denom, FIXTURES, tempDir } from "./helpers.js";

const DIR = join(FIXTURES, "skillsbench-leaderboard");
const FILE = join(DIR, "results", "019e0000-0000-7000-8000-0000000000aa.json");
const doc = JSON.parse(readFileSync(FILE, "utf8")) as { results: { results: Record<string, unknown>[] }[] } & Record<string, unknown>;
const rows = doc.results.flatMap((s) => s.results);

type Trial = { task_id: string; run_id: string; agent: string; category: string; final_status: string; final_status_detail: string | null };

/** A flat-layout submission of `rows`, as a file of its own. */
function flat(list: Record<string, unknown>[]): string {
  return join(tempDir({ "flat.json": JSON.stringify({ status: "completed", participants: { agent: "p-1" }, results: list }, null, 2) }), "flat.json");
}

describe("SkillsBench results", () => {
  it("nested layout: 5 rows = 5 trials, 2 passed; the 2 infrastructure failures are aborted, out of attributable (2/3, the leaderboard's Tasks passed)", async () => {
    const out = (await denom(["report", "--json", DIR])).json();
    expect(out.meta.sources[0].adapter).toBe("skillsbench");
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([2, 5]);
    expect([cell(out, "final/valid").successes, cell(out, "final/valid").count]).toEqual([2, 5]);
    expect([cell(out, "final/attributable").successes, cell(out, "final/attributable").count]).toEqual([2, 3]);
    expect(out.status_counts.final).toEqual({ success: 2, failure: 1, aborted: 2 });
    const trials: Trial[] = JSON.parse((await denom(["export", "--format", "json", DIR, "-o", "-"])).stdout);
    expect(trials.map((t) => [t.task_id, t.final_status, t.final_status_detail])).toEqual([
      ["3d-scan-calc", "aborted", "sandbox_error"],
      ["citation-check", "success", null],
      ["court-form-filling", "failure", null],
      ["dialogue-parser", "success", null],
      ["offer-letter-generator", "aborted", "participant_error"],
    ]);
    // the submission's purple agent (not the shard's URL) and its skills condition; the task set is the benchmark
    expect(new Set(trials.map((t) => `${t.run_id} | ${t.agent} | ${t.category}`))).toEqual(
      new Set(["019e0000-0000-7000-8000-0000000000aa | 019e0000-0000-7000-8000-000000000002 with_skills | standard-v1"]),
    );
  });

  it("flat layout: the same rows read alike; an ineligible row without an infrastructure failure is aborted, not_score_eligible", async () => {
    const list = rows.map((r) => (r.task_id === "court-form-filling" ? { ...r, score_eligible: false } : r));
    const out = (await denom(["report", "--json", flat(list)])).json();
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([2, 5]);
    expect([cell(out, "final/attributable").successes, cell(out, "final/attributable").count]).toEqual([2, 2]);
    expect(out.status_detail_counts).toContainEqual({ status: "aborted", status_detail: "not_score_eligible", first: 1, final: 1 });
  });

  it("a row of the wrong shape is refused naming skillsbench (exit 1); a shard holding one is rejected with the reason", async () => {
    const bad = await denom(["report", flat([{ ...rows[0], passed: "yes" }])]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("looks like skillsbench (a public result row) but passed: expected a boolean, got a string");
    const { infra_failure_type: _, ...noInfra } = rows[0];
    const missing = await denom(["report", flat([noInfra])]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("infra_failure_type: missing");
    const shard = { status: "completed", participants: { agent: "u" }, results: [rows[1], { task_id: "x" }] };
    const dir = tempDir({ "s.json": JSON.stringify({ status: "completed", participants: { agent: "p" }, results: [doc.results[0], shard] }) });
    const r = (await denom(["report", "--json", join(dir, "s.json")])).json();
    expect([r.accounting.records, r.accounting.rejected]).toEqual([1, 1]);
    expect(JSON.stringify(r.rejects)).toContain("skillsbench: results[1] of the shard is not a result row");
    expect(cell(r, "final/total").count).toBe(3);
  });
});
