/**
 * mini-swe-agent's batch outputs: the exit-status file of each pass
 * (`exit_statuses_<epoch>.yaml`), `preds.json` and `.traj.json`, beside the
 * sb-cli report that grades the run. A pass that ended with an exception is an
 * attempt before the report's verdict, so a resumed run shows its first try and
 * its final figure. Expected values are counted by hand (the real files with
 * python over the YAML lists and the report's id lists).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cell, denom, FIXTURES, hasShared, REAL, tempDir } from "./helpers.js";

const RUN = join(FIXTURES, "real", "swebench-v-minisweagent-gemini3-sbcli");

function cells(out: any, keys: string[]) {
  return keys.map((k) => [cell(out, k).successes, cell(out, k).count]);
}

/** A run folder `run/` holding `files` (path -> content). */
function runFolder(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, "run", name, ".."), { recursive: true });
    writeFileSync(join(dir, "run", name), content);
  }
  return join(dir, "run");
}

const report = JSON.stringify({ total_instances: 3, resolved_instances: 1, schema_version: 2, resolved_ids: ["a"], unresolved_ids: ["b", "c"] });

describe("mini-swe-agent exit-status passes", () => {
  it("numbers a trial's passes by their start, the report's verdict last", async () => {
    // pass 100: a RetryError, b RetryError, c Submitted; pass 200: a Submitted (b never re-run)
    const run = runFolder({
      "exit_statuses_200.5.yaml": "instances_by_exit_status:\n    Submitted:\n    - a\n",
      "exit_statuses_100.25.yaml": "instances_by_exit_status:\n    RetryError:\n    - a\n    - b\n    Submitted:\n    - c\n",
      "sb-cli-reports/r.json": report,
    });
    const r = await denom(["report", "--json", run]);
    expect(r.code).toBe(0);
    const out = r.json();
    // first: a aborted, b aborted, c failure -> 0/3; attributable drops a and b -> 0/1
    // final: a success (pass 200, graded), b failure (graded on its empty patch), c failure -> 1/3
    expect(cells(out, ["first/total", "first/attributable", "final/total"])).toEqual([
      [0, 3],
      [0, 1],
      [1, 3],
    ]);
    expect(out.status_counts.first).toEqual({ aborted: 2, failure: 1 });
    expect(out.meta.pooling).toEqual([]);
    expect(out.inventory.runs.map((x: any) => x.run_id)).toEqual(["run"]);
    const trials = (await denom(["export", "--what", "attempts", "--format", "json", run])).json<any[]>();
    const seen = trials.map((t) => [t.task_id, t.attempt, t.status, t.status_detail ?? null]).sort();
    expect(seen).toEqual([
      ["a", 1, "aborted", "RetryError"],
      ["a", 2, "success", null],
      ["b", 1, "aborted", "RetryError"],
      ["b", 2, "failure", null],
      ["c", 1, "failure", null],
    ]);
  });

  it("takes the run's model from preds.json and reads a trajectory as holding no attempt", async () => {
    const pred = (id: string) => ({ instance_id: id, model_name_or_path: "prov/m1", model_patch: "diff" });
    const run = runFolder({
      "exit_statuses_1.yaml": "instances_by_exit_status:\n    Submitted:\n    - a\n    - b\n    - c\n",
      "preds.json": JSON.stringify({ a: pred("a"), b: pred("b"), c: pred("c") }, null, 2),
      "a/a.traj.json": JSON.stringify({
        info: { exit_status: "Submitted", submission: "diff", model_stats: { instance_cost: 0.1, api_calls: 3 } },
        messages: [],
        trajectory_format: "mini-swe-agent-1",
        instance_id: "a",
      }),
      "sb-cli-reports/r.json": report,
    });
    const out = (await denom(["report", "--json", run])).json();
    expect(Object.fromEntries(out.meta.sources.map((s: any) => [s.name.split("/run/")[1], [s.adapter, s.records, s.attempts]]))).toEqual({
      "a/a.traj.json": ["mini-swe-agent-trajectory", 1, 0],
      "exit_statuses_1.yaml": ["mini-swe-agent-exit-statuses", 1, 0],
      "preds.json": ["mini-swe-agent-preds", 3, 0],
      "sb-cli-reports/r.json": ["swe-bench-results", 3, 3],
    });
    expect(out.inventory.runs.map((x: any) => [x.run_id, x.model])).toEqual([["run", "prov/m1"]]);
    expect(cells(out, ["first/total", "final/total"])).toEqual([
      [1, 3],
      [1, 3],
    ]);
  });

  it("rejects an exit-status file that is not YAML, or whose lists are not instance ids, naming the file", async () => {
    const bad = runFolder({ "exit_statuses_1.yaml": "instances_by_exit_status: [\n", "sb-cli-reports/r.json": report });
    const r = await denom(["report", bad]);
    expect(r.stderr).toMatch(/exit_statuses_1\.yaml.*not YAML/);
    const wrong = runFolder({ "exit_statuses_1.yaml": "instances_by_exit_status:\n    RetryError: 7\n", "sb-cli-reports/r.json": report });
    const w = await denom(["report", wrong]);
    expect(w.stderr).toMatch(/exit_statuses_1\.yaml.*instances_by_exit_status\.RetryError: expected a list of instance ids, got 7/);
  });

  it("reads the real resumed run: first try 358/500, final 371/500", async () => {
    const r = await denom(["report", "--json", RUN]);
    expect(r.code).toBe(0);
    const out = r.json();
    // 15 instances RetryError in pass 1763506501 (10) or 1763508350 (5), re-run in 1763512725; 13 of them resolved
    expect(cells(out, ["first/total", "first/attributable", "final/total"])).toEqual([
      [358, 500],
      [358, 485],
      [371, 500],
    ]);
    expect(out.status_counts.first).toEqual({ success: 358, failure: 127, aborted: 15 });
    expect(out.status_counts.final).toEqual({ success: 371, failure: 129 });
    expect((await denom(["audit", RUN, "--claim", "74.2%"])).code).toBe(0);
  });
});

describe.skipIf(!hasShared)("the shared run folder (read in place)", () => {
  it("swebench-v-minisweagent-gemini3-sbcli: 358/500 first, 371/500 final, the model from preds.json", async () => {
    const out = (await denom(["report", "--json", join(REAL, "swebench-v-minisweagent-gemini3-sbcli")])).json();
    expect(cells(out, ["first/total", "final/total"])).toEqual([
      [358, 500],
      [371, 500],
    ]);
    expect(out.inventory.runs.map((x: any) => x.model)).toEqual(["google/gemini-3-pro-preview"]);
  });
});
if (!hasShared) console.log("skipped: the shared mini-swe-agent folder (../shared/data/real not present)");
