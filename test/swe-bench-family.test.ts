/**
 * The SWE-bench family beyond the sb-cli report: the legacy evaluation report
 * (id lists per stage, `report.json` / `results.json`) and the per-instance
 * harness report (`logs/<instance_id>/report.json`). Every expected value is
 * counted by hand from the input (the real files with python's
 * `len(set(list))` and `resolved` per file; counts beside each assertion).
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cell, denom, FIXTURES, hasShared, REAL, tempDir } from "./helpers.js";

const GOLDEN = join(FIXTURES, "real", "swebench-docker-golden-lite", "SWE-bench_Lite_golden");
const INSTANCES = join(FIXTURES, "real", "swebench-instance-reports-sample");

/** [successes, count] of each cell named. */
function cells(out: any, keys: string[]) {
  return keys.map((k) => [cell(out, k).successes, cell(out, k).count]);
}

/** The trials as exported: task -> [status, status_detail] of the final attempt. */
async function trialsOf(path: string) {
  const r = await denom(["export", "--what", "trials", "--format", "json", path]);
  expect(r.code).toBe(0);
  const rows = r.json<any[]>();
  return Object.fromEntries(rows.map((t) => [t.task_id, [t.final_status, t.final_status_detail ?? null]]));
}

describe("legacy SWE-bench evaluation report (id lists per stage)", () => {
  // ten instances, one per deciding stage; the lists are cumulative as the harness writes them
  const report = {
    no_generation: ["j"],
    generated: ["a", "b", "c", "d", "e", "f", "g", "h", "i"],
    with_logs: ["a", "b", "c", "d", "e", "f", "g", "h"],
    install_fail: ["e"],
    reset_failed: ["f"],
    no_apply: ["g"],
    applied: ["a", "b", "c", "d"],
    test_errored: ["d"],
    test_timeout: ["c"],
    resolved: ["a"],
  };

  it("gives each instance the status of its deepest deciding stage", async () => {
    const dir = tempDir({ "report.json": JSON.stringify(report, null, 4) });
    const r = await denom(["report", "--json", join(dir, "report.json")]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.sources[0]).toMatchObject({ adapter: "swe-bench-legacy", records: 1, attempts: 10, rejected: 0 });
    // a success; b, g (no_apply), j (no_generation) failures; c timeout; d, e, f, h, i aborted (environment)
    expect(out.status_counts.final).toEqual({ success: 1, failure: 3, timeout: 1, aborted: 5 });
    // total 10; valid 10 (no broken task); attributable 10 - 5 environment = 5; completable 5 - 1 timeout = 4
    expect(cells(out, ["final/total", "final/valid", "final/attributable", "final/completable"])).toEqual([
      [1, 10],
      [1, 10],
      [1, 5],
      [1, 4],
    ]);
    const details = Object.fromEntries(out.status_detail_counts.map((s: any) => [`${s.status}/${s.status_detail}`, s.final]));
    expect(details).toEqual({
      "success/null": 1,
      "failure/null": 1,
      "failure/no_apply": 1,
      "failure/no_generation": 1,
      "timeout/test_timeout": 1,
      "aborted/test_errored": 1,
      "aborted/install_fail": 1,
      "aborted/reset_failed": 1,
      "aborted/with_logs": 1,
      "aborted/generated": 1,
    });
    expect(out.inventory.runs.map((x: any) => x.run_id)).toEqual([dir.split("/").pop()]);
  });

  it("counts the agent's unapplied patches in the denominator: 54/300, not 54/245", async () => {
    // 300 instances: 20 without a patch, 280 patched, 35 of them not applying, 245 applied, 54 resolved
    const ids = Array.from({ length: 300 }, (_, i) => `t${i}`);
    const generated = ids.slice(20);
    const applied = generated.slice(35);
    const big = {
      no_generation: ids.slice(0, 20),
      generated,
      with_logs: generated,
      install_fail: [],
      reset_failed: [],
      no_apply: generated.slice(0, 35),
      applied,
      test_errored: [],
      test_timeout: [],
      resolved: applied.slice(0, 54),
    };
    const dir = tempDir({ "results.json": JSON.stringify(big) });
    const out = (await denom(["report", "--json", dir])).json();
    // no_generation and no_apply are the agent's failures: every denominator keeps them
    expect(cells(out, ["final/total", "final/attributable"])).toEqual([
      [54, 300],
      [54, 300],
    ]);
    expect(out.meta.notes.join("\n")).toContain("resolved/applied");
    // 18% = 54/300 reproduced; 22.04% = 54/245 is no denominator of denom
    expect((await denom(["audit", dir, "--claim", "18%"])).code).toBe(0);
    expect((await denom(["audit", dir, "--claim", "22.04%"])).code).toBe(3);
  });

  it("refuses a stage list holding a non-string as a near miss of its format, naming what is wrong", async () => {
    const dir = tempDir({ "report.json": JSON.stringify({ ...report, resolved: ["a", 7] }) });
    const r = await denom(["report", join(dir, "report.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "report.json: looks like swe-bench-legacy (the stage lists) but resolved: expected a list of strings, element 1 is a number: not read as another format",
    );
    expect(r.stderr).toContain("--input-format NAME");
  });

  it("reads SWE-bench-docker's gold run: report.json 318/323, results.json 320/323", async () => {
    // hand count: resolved 318 in report.json, 320 in results.json, 323 instance ids in each
    const one = (await denom(["report", "--json", join(GOLDEN, "report.json")])).json();
    expect(cells(one, ["first/total", "final/total"])).toEqual([
      [318, 323],
      [318, 323],
    ]);
    const other = (await denom(["report", "--json", join(GOLDEN, "results.json")])).json();
    expect(cells(other, ["final/total"])).toEqual([[320, 323]]);
    // the folder README's 98.45% is 318/323, report.json's figure
    expect((await denom(["audit", join(GOLDEN, "report.json"), "--claim", "98.45%"])).code).toBe(0);
  });

  it("reads the two reports of one run as one run and names the 2 instances they disagree on", async () => {
    const r = await denom(["report", "--json", GOLDEN]);
    expect(r.code).toBe(0);
    const out = r.json();
    // 321 instances agree (identical copies), 2 differ (django__django-13660, pydicom__pydicom-1413): results.json, the later file, kept
    expect(out.accounting).toMatchObject({ duplicates_identical: 321, duplicates_differing: 2, duplicates_across_sources: 2 });
    expect(r.stderr).toMatch(/results\.json and .*report\.json hold 2 differing copies/);
    expect(cells(out, ["final/total"])).toEqual([[320, 323]]);
    // each file its own run: 318 + 320 of 646
    const apart = (await denom(["report", "--json", "--run-per-file", GOLDEN])).json();
    expect(cells(apart, ["final/total"])).toEqual([[638, 646]]);
  });
});

describe("per-instance SWE-bench report (logs/<instance_id>/report.json)", () => {
  it("reads each file as one instance named by its folder, resolved deciding: 2/4", async () => {
    const r = await denom(["report", "--json", INSTANCES]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.sources.map((s: any) => [s.adapter, s.attempts])).toEqual(Array(4).fill(["swe-bench-instance", 1]));
    // 14182 false, 14365 true, 7166 true, 8707 false
    expect(cells(out, ["final/total"])).toEqual([[2, 4]]);
    expect(out.inventory.runs.map((x: any) => [x.run_id, x.tasks_present])).toEqual([["20251118_gemini-3-pro-74pct", 4]]);
    expect(await trialsOf(INSTANCES)).toEqual({
      "astropy__astropy-14182": ["failure", null],
      "astropy__astropy-14365": ["success", null],
      "astropy__astropy-7166": ["success", null],
      "astropy__astropy-8707": ["failure", null],
    });
  });

  it("reads the newer form keyed by the instance id, and says why an unresolved one failed", async () => {
    const dir = tempDir();
    const verdict = (applied: boolean, resolved: boolean) => ({
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: applied,
      resolved,
      tests_status: {},
    });
    for (const [id, v] of [
      ["x__y-1", verdict(false, false)],
      ["x__y-2", verdict(true, true)],
    ] as const) {
      mkdirSync(join(dir, "run7", "logs", id), { recursive: true });
      writeFileSync(join(dir, "run7", "logs", id, "report.json"), JSON.stringify({ [id]: v }, null, 2));
    }
    const out = (await denom(["report", "--json", dir])).json();
    expect(out.meta.sources.map((s: any) => s.adapter)).toEqual(["swe-bench-instance", "swe-bench-instance"]);
    expect(cells(out, ["final/total"])).toEqual([[1, 2]]);
    expect(out.inventory.runs.map((x: any) => x.run_id)).toEqual(["run7"]);
    expect(await trialsOf(dir)).toEqual({ "x__y-1": ["failure", "patch_not_applied"], "x__y-2": ["success", null] });
  });

  it("never reads a report as SWE-Bench Pro's {id: bool}, and refuses one whose resolved is not a boolean", async () => {
    const good = { patch_is_None: false, patch_exists: true, patch_successfully_applied: true, resolved: true, tests_status: {} };
    const dir = tempDir({ "report.json": JSON.stringify(good) });
    const r = (await denom(["report", "--json", join(dir, "report.json")])).json();
    // one instance, not 4 "tasks" of booleans
    expect(cells(r, ["final/total"])).toEqual([[1, 1]]);
    const bad = tempDir({ "report.json": JSON.stringify({ ...good, resolved: "true" }) });
    const b = await denom(["report", join(bad, "report.json")]);
    expect(b.code).toBe(1);
    expect(b.stdout).toBe("");
  });
});

describe.skipIf(!hasShared)("the shared real folders (read in place)", () => {
  it("swebench-instance-reports-sample: 15/25 (PROVENANCE hand count)", async () => {
    const out = (await denom(["report", "--json", join(REAL, "swebench-instance-reports-sample")])).json();
    expect(cells(out, ["final/total"])).toEqual([[15, 25]]);
  });

  it("swebench-docker-golden-lite: 320/323 with the disagreement named", async () => {
    const r = await denom(["report", "--json", join(REAL, "swebench-docker-golden-lite")]);
    expect(cells(r.json(), ["final/total"])).toEqual([[320, 323]]);
    expect(r.stderr).toContain("hold 2 differing copies");
  });
});
if (!hasShared) console.log("skipped: shared real SWE-bench folders (../shared/data/real not present)");
