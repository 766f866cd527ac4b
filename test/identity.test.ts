/**
 * A run is its run_id and its agent and model: records that differ in agent or
 * model never belong to one run, in one file or across files, so they are never
 * each other's duplicates. Every count below is worked out by hand from the records.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cell, denom, jsonl } from "./helpers.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "denom-identity-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** 30 tasks t0..t29: agent a passes t0..t19 (20), agent b passes t0..t9 (10); b's records end a day later. */
function twoAgents(extra: (agent: "a" | "b") => Record<string, unknown> = () => ({})): object[] {
  const of = (agent: "a" | "b", passed: number, day: string) =>
    Array.from({ length: 30 }, (_, i) => ({
      task_id: `t${i}`,
      status: i < passed ? "success" : "failure",
      ended_at: `2025-01-0${day}T00:00:00Z`,
      agent,
      ...extra(agent),
    }));
  return [...of("a", 20, "1"), ...of("b", 10, "2")];
}

describe("a run is run_id + agent + model", () => {
  it("keeps two agents' records of one file, with no run_id, as two runs: no duplicate dropped", async () => {
    const dir = folder({ "ab.jsonl": jsonl(...twoAgents()) });
    const r = await denom(["report", "--json", join(dir, "ab.jsonl")]);
    expect(r.code).toBe(0);
    const out = r.json();
    // 60 records, 60 trials in 2 runs; before, one run: 30 differing duplicates dropped, b's 10/30
    expect(out.accounting).toMatchObject({ records: 60, duplicates: 0, duplicates_differing: 0 });
    expect(out.meta).toMatchObject({ runs: 2, trials: 60, tasks: 30 });
    expect(cell(out, "final/total")).toMatchObject({ successes: 30, count: 60 });
    expect(out.inventory.runs.map((x: { run_id: string | null; agent: string; trials_present: number }) => [x.run_id, x.agent, x.trials_present])).toEqual([
      [null, "a", 30],
      [null, "b", 30],
    ]);
    // nothing is said about duplicates, since there are none
    expect(r.stderr).not.toContain("differing copies");
  });

  it("lets compare FILE --by agent --baseline a pair the two agents: 20/30 against 10/30", async () => {
    const dir = folder({ "ab.jsonl": jsonl(...twoAgents()) });
    const r = await denom(["compare", "--json", join(dir, "ab.jsonl"), "--by", "agent", "--baseline", "a"]);
    expect(r.code).toBe(0);
    const out = r.json().comparisons[0];
    expect(out.baseline.group).toBe("a");
    expect(out.candidate.group).toBe("b");
    expect(out.coverage).toMatchObject({ common_tasks: 30, only_baseline: 0, only_candidate: 0 });
    const strict = out.cells.find((c: { basis: string; denominator: string }) => c.basis === "final" && c.denominator === "total");
    // t10..t19: a passed, b failed (10 discordant one way, none the other); d = -10/30
    expect(strict).toMatchObject({ tasks: 30, baseline: { successes: 20, count: 30 }, candidate: { successes: 10, count: 30 }, test: "mcnemar_exact" });
    expect(strict.discordant).toEqual({ baseline_only: 10, candidate_only: 0 });
    expect(strict.difference).toBeCloseTo(-1 / 3, 12);
  });

  it("keeps two agents in two files, with no run_id, apart too", async () => {
    const records = twoAgents();
    const dir = folder({ "a.jsonl": jsonl(...records.slice(0, 30)), "b.jsonl": jsonl(...records.slice(30)) });
    const r = await denom(["report", "--json", dir]);
    const out = r.json();
    expect(out.accounting.duplicates).toBe(0);
    expect(out.meta.runs).toBe(2);
    expect(cell(out, "final/total")).toMatchObject({ successes: 30, count: 60 });
    expect(r.stderr).not.toContain("differing copies");
  });

  it("keeps one run_id of two models as two runs", async () => {
    const records = twoAgents((agent) => ({ agent: "x", run_id: "r1", model: agent === "a" ? "m1" : "m2" }));
    const dir = folder({ "r.jsonl": jsonl(...records) });
    const out = (await denom(["report", "--json", join(dir, "r.jsonl")])).json();
    expect(out.accounting.duplicates).toBe(0);
    expect(out.meta.runs).toBe(2);
    expect(out.inventory.runs.map((x: { run_id: string; model: string }) => [x.run_id, x.model])).toEqual([
      ["r1", "m1"],
      ["r1", "m2"],
    ]);
  });

  it("still collapses one agent's resumed run split over two files (no run_id): the later copy is kept", async () => {
    // t0..t29 of agent a in both files; the second file's copies end later and all fail
    const first = twoAgents().slice(0, 30);
    const second = first.map((r) => ({ ...r, status: "failure", ended_at: "2025-01-05T00:00:00Z" }));
    const dir = folder({ "part1.jsonl": jsonl(...first), "part2.jsonl": jsonl(...second) });
    const r = await denom(["report", "--json", dir]);
    const out = r.json();
    expect(out.meta.runs).toBe(1);
    // t0..t19 differ (success vs failure), t20..t29 differ in ended_at only: 30 differing copies dropped
    expect(out.accounting).toMatchObject({ duplicates: 30, duplicates_differing: 30, duplicates_across_sources: 30 });
    expect(cell(out, "final/total")).toMatchObject({ successes: 0, count: 30 });
    expect(r.stderr).toContain("hold 30 differing copies of the same (run, task, trial, attempt)");
  });

  it("gives a record without agent its run's metadata's, so it joins the records that name that agent", async () => {
    // Terminal-Bench: run_metadata.json names agent and model for run r; one trial names neither
    const meta = { run_id: "r", dataset_name: "terminal-bench", agent_name: "ag", model_name: "mo" };
    const trial = (task: string, resolved: boolean) => ({ task_id: task, trial_name: `${task}.1-of-1.r`, is_resolved: resolved, failure_mode: "unset" });
    const dir = folder({
      "run_metadata.json": JSON.stringify(meta),
      "results.json": JSON.stringify({ results: [trial("t1", true), trial("t2", false)], accuracy: 0.5 }),
    });
    const out = (await denom(["report", "--json", dir])).json();
    expect(out.meta.runs).toBe(1);
    expect(out.inventory.runs).toMatchObject([{ run_id: "r", agent: "ag", model: "mo", trials_present: 2 }]);
    expect(cell(out, "final/total")).toMatchObject({ successes: 1, count: 2 });
  });
});
