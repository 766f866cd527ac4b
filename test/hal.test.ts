/**
 * HAL harness uploads: the synthetic `<run_id>_UPLOAD.json` of test/fixtures/hal-upload-scicode
 * (PROVENANCE.md: written in the shape of hal-harness's BaseBenchmark.process_results for scicode,
 * 2 of 5 problems in results.successful_tasks, accuracy 0.4 = s/(s+f)), and variants built from it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accuracyDenominatorOf, uploadClaims } from "../src/formats/hal.js";
import { cell, denom, FIXTURES, tempDir } from "./helpers.js";

const RUN = "scicode_scicode_tool_calling_agent_1745272123";
const UPLOAD = join(FIXTURES, "hal-upload-scicode", "results", "scicode", RUN, `${RUN}_UPLOAD.json`);
const upload = JSON.parse(readFileSync(UPLOAD, "utf8")) as { results: Record<string, unknown> } & Record<string, unknown>;

/** The fixture's upload with `results` changed, as a file of its own in a temporary folder. */
function variant(results: Record<string, unknown>): string {
  const dir = tempDir({ [`${RUN}_UPLOAD.json`]: JSON.stringify({ ...upload, results: { ...upload.results, ...results } }, null, 2) });
  return join(dir, `${RUN}_UPLOAD.json`);
}

type Trial = { task_id: string; final_status: string; agent: string; model: string; category: string };

describe("HAL uploads", () => {
  it("one trial per id of successful_tasks (2) and failed_tasks (3): 2/5 on every denominator, run, agent, model and benchmark from config", async () => {
    const out = (await denom(["report", "--json", UPLOAD])).json();
    expect([out.accounting.records, out.accounting.rejected]).toEqual([1, 0]);
    expect(out.meta.sources[0].adapter).toBe("hal-upload");
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([2, 5]);
    // the upload records no error, timeout or retry: nothing is removed on the way down
    expect([cell(out, "first/completable").successes, cell(out, "first/completable").count]).toEqual([2, 5]);
    expect(out.status_counts.final).toEqual({ success: 2, failure: 3 });
    expect(out.meta.notes.join("\n")).toContain("no cost per task");
    const trials: Trial[] = JSON.parse((await denom(["export", "--format", "json", UPLOAD, "-o", "-"])).stdout);
    expect(trials.map((t) => [t.task_id, t.final_status])).toEqual([
      ["13", "success"],
      ["2", "failure"],
      ["35", "success"],
      ["5", "failure"],
      ["71", "failure"],
    ]);
    expect(new Set(trials.map((t) => `${t.agent} | ${t.model} | ${t.category}`))).toEqual(
      new Set(["Scicode Tool Calling Agent | gpt-4o-2024-11-20 | scicode"]),
    );
  });

  it("results.accuracy 0.4 is a claim, its denominator named (s/(s+f) for scicode): reproduced by final/total, 2/5", async () => {
    const r = await denom(["audit", "--json", UPLOAD, "--claims", UPLOAD]);
    expect(r.code).toBe(0);
    const [audit] = r.json();
    expect(audit).toMatchObject({ claim: "0.4", reproduced: true, strict: { successes: 2, count: 5 } });
    expect(audit.label).toBe(`scicode results.accuracy, denominator: the tasks in successful_tasks and failed_tasks (scicode.py), ${RUN}_UPLOAD.json`);
    expect(audit.matches[0]).toMatchObject({ basis: "final", exclude: [], successes: 2, count: 5 });
  });

  it("names each benchmark's denominator as its get_metrics divides: the whole benchmark, a fixed 50, or undeclared", () => {
    expect(accuracyDenominatorOf("assistantbench")).toContain("every task of the benchmark, run or not");
    expect(accuracyDenominatorOf("swebench_verified_mini")).toContain("50, fixed");
    expect(accuracyDenominatorOf("swebench_verified")).toContain("total_instances");
    expect(accuracyDenominatorOf("taubench_airline")).toContain("sum of rewards");
    expect(accuracyDenominatorOf("mystery_bench")).toBe("undeclared (the benchmark's own get_metrics)");
    expect(accuracyDenominatorOf(null)).toBe("undeclared (the benchmark's own get_metrics)");
    // a file that is no upload is not one's claims; an upload without an accuracy is an error
    expect(uploadClaims('{"config": {}}', "x.json")).toBeNull();
    expect(() => uploadClaims(JSON.stringify({ ...upload, results: { ...upload.results, accuracy: "40%" } }), "u.json")).toThrow(
      "--claims u.json: a HAL upload without results.accuracy in [0, 1]",
    );
  });

  it("a task in both lists is rejected with the reason, never guessed: the upload holds no other record, so the read fails (exit 1)", async () => {
    const r = await denom(["report", "--json", variant({ successful_tasks: ["13", "35"], failed_tasks: ["2", "35"] })]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'hal-upload: task "35" is in both results.successful_tasks and results.failed_tasks: its verdict is not guessed, the upload is not read; the element was skipped',
    );
    expect(r.stderr).toContain("lines but no record (1 rejected)");
  });

  it("a list element that is not an id is rejected naming it; the same id twice in one list is one trial and a duplicate", async () => {
    const bad = await denom(["report", "--json", variant({ failed_tasks: ["2", { id: 5 }] })]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('hal-upload: results.failed_tasks[1] is not a task id ({"id":5}): the upload is not read');
    const twice = (await denom(["report", "--json", variant({ successful_tasks: ["13", "35", "13"] })])).json();
    expect([cell(twice, "final/total").successes, cell(twice, "final/total").count]).toEqual([2, 5]);
    expect([twice.accounting.duplicates, twice.accounting.duplicates_identical]).toEqual([1, 1]);
  });

  it("a list of the wrong type is refused as a malformed upload (exit 1), never read as another format", async () => {
    const r = await denom(["report", variant({ successful_tasks: "13,35" })]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("looks like hal-upload (a run's upload (<run_id>_UPLOAD.json)) but results.successful_tasks: expected an array, got a string");
    const gone = JSON.parse(JSON.stringify(upload));
    delete gone.results.failed_tasks;
    const dir = tempDir({ "u_UPLOAD.json": JSON.stringify(gone) });
    const missing = await denom(["report", join(dir, "u_UPLOAD.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("looks like hal-upload");
    expect(missing.stderr).toContain("results.failed_tasks: missing");
  });
});
