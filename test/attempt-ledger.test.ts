/**
 * The attempt ledger across runs: a later run that re-ran an earlier run's
 * errored trials holds further attempts of those trials (the first try kept),
 * recognised on its own for a format that declares it (Harbor: the same agent,
 * model and benchmark, started after the earlier job ended, only tasks it
 * errored on), else named with --rerun-of RERUN=ORIGINAL; a re-run trial the
 * original holds no record of has its first try gone (missing), never the
 * re-run passed off as a first try. Every expected figure is counted by hand
 * from the records written here, or from the PROVENANCE hand count of the real
 * folder.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReruns } from "../src/definitions.js";
import { cell, denom, hasShared, jsonl, once, REAL, tempDir } from "./helpers.js";

type Out = any;

/** A temporary folder holding `files` (paths with folders, made as needed). */
function folderOf(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
const grid = (out: Out, key: string) => [cell(out, key).successes, cell(out, key).count];

/** A Harbor TrialResult of `task` in job `job`, by `agent`/`model`, `reward` (null: none) and exception type (null: none), from `start` for a minute. */
function trial(job: string, task: string, suffix: string, o: { reward: number | null; exception?: string; start: string; model?: string }): string {
  const end = new Date(Date.parse(o.start) + 60_000).toISOString();
  return JSON.stringify({
    id: `uuid-${job}-${task}-${suffix}`,
    task_name: task,
    trial_name: `${task}__${suffix}`,
    task_id: { org: "org", name: task, ref: "v1" },
    source: "bench",
    config: { trial_name: `${task}__${suffix}`, trials_dir: `jobs/${job}`, agent: { name: "agent-x", model_name: o.model ?? "model-y" }, job_id: job },
    agent_info: { name: "agent-x", version: "1" },
    agent_result: null,
    verifier_result: o.reward === null ? null : { rewards: { reward: o.reward } },
    exception_info: o.exception ? { exception_type: o.exception, exception_message: "boom", occurred_at: end } : null,
    started_at: o.start,
    finished_at: end,
  });
}

describe("a Harbor job re-run of another job's errored trials (hand-made jobs)", () => {
  // job-1 (10:00-10:03): a errored (RuntimeError, no reward), b errored, c passed (reward 1)
  const job1 = {
    "job-1/a__1/result.json": trial("job-1", "a", "1", { reward: null, exception: "RuntimeError", start: "2026-01-05T10:00:00Z" }),
    "job-1/b__1/result.json": trial("job-1", "b", "1", { reward: null, exception: "RuntimeError", start: "2026-01-05T10:01:00Z" }),
    "job-1/c__1/result.json": trial("job-1", "c", "1", { reward: 1, start: "2026-01-05T10:02:00Z" }),
  };

  it("continues the errored trials when the later job holds only them: first try 1/3, final 2/3", async () => {
    // job-2 (11:00, after job-1 ended at 10:03): a passes, b fails.
    //   trials: a (aborted -> success), b (aborted -> failure), c (success): first 1/3, final 2/3;
    //   first/attributable 1/1 (a and b aborted, environment), final/attributable 2/3
    const dir = folderOf({
      ...job1,
      "job-2/a__2/result.json": trial("job-2", "a", "2", { reward: 1, start: "2026-01-05T11:00:00Z" }),
      "job-2/b__2/result.json": trial("job-2", "b", "2", { reward: 0, start: "2026-01-05T11:01:00Z" }),
    });
    const r = await denom(["report", dir, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(grid(out, "first/total")).toEqual([1, 3]);
    expect(grid(out, "final/total")).toEqual([2, 3]);
    expect(grid(out, "first/attributable")).toEqual([1, 1]);
    expect(grid(out, "final/attributable")).toEqual([2, 3]);
    expect(out.meta.attempt_ledger).toEqual({
      planned_trials: 3,
      recorded_trials: 3,
      missing_trials: 0,
      observed_attempts: 5,
      dropped_attempts: 0,
      first_tries_gone: 0,
      reruns: [{ run: "job-2", rerun_of: "job-1", recognised_by: "errored_trials", attempts: 2, trials: 2, first_tries_gone: 0, owed_without_record: 0 }],
    });
    const text = await denom(["report", dir]);
    expect(text.stdout).toContain(
      "re-run job-2 continues 2 trials of job-1 with 2 attempts (recognised: same agent, model and benchmark, started after it ended, only tasks it errored on)",
    );
  });

  it.each([
    // c passed in job-1: a job that runs it again is a second job, not a re-run
    ["a task the earlier job did not error on", { "job-2/c__2/result.json": trial("job-2", "c", "2", { reward: 1, start: "2026-01-05T11:00:00Z" }) }],
    // starts at 10:02:30, before job-1's last trial ended (10:03)
    ["a job that began before the earlier one ended", { "job-2/a__2/result.json": trial("job-2", "a", "2", { reward: 1, start: "2026-01-05T10:02:30Z" }) }],
    ["another model", { "job-2/a__2/result.json": trial("job-2", "a", "2", { reward: 1, start: "2026-01-05T11:00:00Z", model: "model-z" }) }],
  ])("is two runs for %s: 4 trials, nothing continued", async (_what, later) => {
    // job-1's 3 trials + job-2's 1 trial, each its own trial; 2 successes (c, and job-2's trial)
    const r = await denom(["report", folderOf({ ...job1, ...later }), "--json"]);
    const out = JSON.parse(r.stdout);
    expect(out.meta.attempt_ledger.reruns).toEqual([]);
    expect(grid(out, "final/total")).toEqual([2, 4]);
    expect(grid(out, "first/total")).toEqual([2, 4]);
  });

  it("--run-per-file makes every file its own run: nothing is recognised", async () => {
    const dir = folderOf({ ...job1, "job-2/a__2/result.json": trial("job-2", "a", "2", { reward: 1, start: "2026-01-05T11:00:00Z" }) });
    const out = JSON.parse((await denom(["report", dir, "--json", "--run-per-file"])).stdout);
    expect(out.meta.attempt_ledger.reruns).toEqual([]);
    expect(grid(out, "final/total")).toEqual([2, 4]);
  });
});

describe("--rerun-of RERUN=ORIGINAL (canonical records, which are never recognised on their own)", () => {
  // run A: t1 error (aborted), t2 success, t3 failure; run B (an hour later): t1 success, t4 success
  const file = tempDir({
    "runs.jsonl": jsonl(
      { run_id: "A", task_id: "t1", status: "error", started_at: "2026-01-01T00:00:00Z", ended_at: "2026-01-01T00:01:00Z" },
      { run_id: "A", task_id: "t2", status: "success", started_at: "2026-01-01T00:00:00Z", ended_at: "2026-01-01T00:01:00Z" },
      { run_id: "A", task_id: "t3", status: "failure", started_at: "2026-01-01T00:00:00Z", ended_at: "2026-01-01T00:01:00Z" },
      { run_id: "B", task_id: "t1", status: "success", started_at: "2026-01-01T01:00:00Z", ended_at: "2026-01-01T01:01:00Z" },
      { run_id: "B", task_id: "t4", status: "success", started_at: "2026-01-01T01:00:00Z", ended_at: "2026-01-01T01:01:00Z" },
    ),
  });
  const runs = join(file, "runs.jsonl");

  it("without it: two runs, 5 trials, 3 successes", async () => {
    const out = JSON.parse((await denom(["report", runs, "--json"])).stdout);
    expect(out.meta.attempt_ledger.reruns).toEqual([]);
    expect(grid(out, "final/total")).toEqual([3, 5]);
  });

  it("with it: B's t1 is attempt 2 of A's t1; B's t4 is a trial whose first try is gone (missing), 1/4 first, 3/4 final", async () => {
    // trials: t1 (aborted -> success), t2 success, t3 failure, t4 (first try gone -> success)
    //   first: success t2 = 1 of 4; first/attributable drops t1 (aborted) and t4 (missing): 1/2
    //   final: t1, t2, t4 = 3 of 4, nothing removed: 3/4
    const r = await denom(["report", runs, "--json", "--rerun-of", "B=A"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(grid(out, "first/total")).toEqual([1, 4]);
    expect(grid(out, "first/attributable")).toEqual([1, 2]);
    expect(grid(out, "final/total")).toEqual([3, 4]);
    expect(grid(out, "final/attributable")).toEqual([3, 4]);
    expect(out.status_counts.first).toEqual({ aborted: 1, failure: 1, missing: 1, success: 1 });
    expect(out.status_detail_counts).toContainEqual({ status: "missing", status_detail: "first try gone", first: 1, final: 0 });
    expect(out.meta.attempt_ledger).toMatchObject({ planned_trials: 4, observed_attempts: 5, first_tries_gone: 1 });
    expect(out.meta.attempt_ledger.reruns).toEqual([
      { run: "B", rerun_of: "A", recognised_by: "named", attempts: 2, trials: 2, first_tries_gone: 1, owed_without_record: 0 },
    ]);
    const text = await denom(["report", runs, "--rerun-of", "B=A"]);
    expect(text.stdout).toContain("first try gone: 1 trial re-run with no record of the first try (first try counted as missing)");
  });

  it("two re-runs of one original: one trial, the later re-run's attempt after the earlier's, its outcome the final", async () => {
    // O: t1 error (aborted); A (an hour later): t1 success; B (two hours later): t1 failure.
    // One trial of O, attempts 1 (O), 2 (A), 3 (B): first aborted, final failure; 0/1 both ways.
    const dir = tempDir({
      "runs.jsonl": jsonl(
        { run_id: "O", task_id: "t1", status: "error", started_at: "2026-01-01T00:00:00Z", ended_at: "2026-01-01T00:01:00Z" },
        // B written first: the order of the re-runs is their start, not the file's
        { run_id: "B", task_id: "t1", status: "failure", started_at: "2026-01-01T02:00:00Z", ended_at: "2026-01-01T02:01:00Z" },
        { run_id: "A", task_id: "t1", status: "success", started_at: "2026-01-01T01:00:00Z", ended_at: "2026-01-01T01:01:00Z" },
      ),
    });
    const args = [join(dir, "runs.jsonl"), "--rerun-of", "A=O", "--rerun-of", "B=O"];
    const out = JSON.parse((await denom(["report", ...args, "--json"])).stdout);
    expect(grid(out, "first/total")).toEqual([0, 1]);
    expect(grid(out, "final/total")).toEqual([0, 1]);
    expect(out.meta.attempt_ledger).toMatchObject({ planned_trials: 1, recorded_trials: 1, observed_attempts: 3, first_tries_gone: 0 });
    const trials = (await denom(["export", "--what", "trials", ...args, "--format", "json"])).json();
    expect(trials).toHaveLength(1);
    expect(trials[0]).toMatchObject({
      run_id: "O",
      task_id: "t1",
      attempts: 3,
      first_attempt: 1,
      final_attempt: 3,
      first_status: "aborted",
      final_status: "failure",
    });
  });

  it("a pair that names no loaded run is a usage error (exit 2), never the re-run left as trials of its own", async () => {
    const r = await denom(["report", runs, "--rerun-of", "C=A"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--rerun-of C=A: no loaded run has that run_id");
  });

  it("parses pairs and refuses malformed ones", () => {
    expect(parseReruns(["B=A", " C = A "])).toEqual([
      { rerun: "B", original: "A" },
      { rerun: "C", original: "A" },
    ]);
    expect(() => parseReruns(["B"])).toThrow(/expected RERUN=ORIGINAL/);
    expect(() => parseReruns(["=A"])).toThrow(/expected RERUN=ORIGINAL/);
    expect(() => parseReruns(["A=A"])).toThrow(/cannot re-run itself/);
    expect(() => parseReruns(["B=A", "B=C"])).toThrow(/already a re-run of A/);
    expect(() => parseReruns(["B=A", "C=B"])).toThrow(/both a re-run and an original/);
  });
});

describe.skipIf(!hasShared)("harbor-gemma-tb2-full-plus-rerun (PROVENANCE hand count)", () => {
  const folder = join(REAL, "harbor-gemma-tb2-full-plus-rerun");
  const report = once(async () => JSON.parse((await denom(["report", folder, "--json"])).stdout));

  it("takes the re-run job as retries of job 1's 41 errored trials: 17/89 = 0.191, first try 16/89", async () => {
    // job 1 owes 89: 88 trial folders (16 reward 1, 31 reward 0, 41 exceptions) + sanitize-git-repo with no folder;
    // job 2 re-ran exactly the 41 errored tasks: 40 result.json (1 pass), password-recovery's absent.
    //   first: 16/89; attributable removes the 41 aborted and the 1 missing: 16/47
    //   final: 16 + 1 = 17/89; attributable removes password-recovery (still aborted: its re-run has no record)
    //   and sanitize-git-repo (missing): 17/87
    const out = await report();
    expect(grid(out, "first/total")).toEqual([16, 89]);
    expect(grid(out, "final/total")).toEqual([17, 89]);
    expect(grid(out, "first/attributable")).toEqual([16, 47]);
    expect(grid(out, "final/attributable")).toEqual([17, 87]);
    expect(out.meta.attempt_ledger).toEqual({
      planned_trials: 89,
      recorded_trials: 88,
      missing_trials: 1,
      observed_attempts: 128,
      dropped_attempts: 0,
      first_tries_gone: 0,
      reruns: [
        {
          run: "c5b3178a-b309-4e2d-bd04-4528fb6e8209",
          rerun_of: "8c5fa7a7-0c7b-4faf-9e92-2ca471a8351c",
          recognised_by: "errored_trials",
          attempts: 40,
          trials: 40,
          first_tries_gone: 0,
          // job 2's result.json owes 41 trials, 40 recorded
          owed_without_record: 1,
        },
      ],
    });
  });

  it("reads both jobs' config.json as Harbor job configs (no side file left unrecognised)", async () => {
    const out = await report();
    expect(out.meta.skipped_files.filter((f: { name: string }) => f.name.endsWith("config.json"))).toEqual([]);
  });

  it("audit reproduces 0.191 by final successes over all trials", async () => {
    const r = await denom(["audit", folder, "--claim", "0.191", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.matches[0]).toMatchObject({ basis: "final", successes: 17, count: 89 });
  });
});

describe.skipIf(!hasShared)("audit names the definition of each real folder's published figure", () => {
  it("swebench-v-minisweagent-gemini3-sbcli 74.2%: final successes over all trials 371/500, the first try 358/500 beside it", async () => {
    // PROVENANCE: 371 resolved of 500; 15 instances re-run after a RetryError, 13 of them resolved: 358 on the first pass
    const r = await denom(["audit", join(REAL, "swebench-v-minisweagent-gemini3-sbcli"), "--claim", "74.2%", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.matches[0]).toMatchObject({ basis: "final", exclude: [], successes: 371, count: 500 });
    expect(out.first_try).toMatchObject({ successes: 358, count: 500 });
    expect((await denom(["audit", join(REAL, "swebench-v-minisweagent-gemini3-sbcli"), "--claim", "74.2%"])).stdout).toContain(
      "first try: first-try successes over all trials: 358/500 = 71.6%",
    );
  });

  it("harbor-gemma-tb2-full-plus-rerun 17/89: final successes over all trials, the re-run named as retries", async () => {
    const r = await denom(["audit", join(REAL, "harbor-gemma-tb2-full-plus-rerun"), "--claim", "17/89"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("1. final successes over all trials: 17/89 = 19.101%");
    expect(r.stdout).toContain("first try: first-try successes over all trials: 16/89 = 17.978%");
    expect(r.stdout).toContain(
      "re-run as retries: c5b3178a-b309-4e2d-bd04-4528fb6e8209 continues 40 trials of 8c5fa7a7-0c7b-4faf-9e92-2ca471a8351c (recognised: only tasks it errored on)",
    );
  });

  it("swebench-docker-golden-lite 98.45%: report.json's own run, 318/323, once each file is its own run; merged, the audit says so", async () => {
    // report.json resolved 318 of 323, results.json 320: merged as one run the kept copies give 320/323
    const folder = join(REAL, "swebench-docker-golden-lite");
    const merged = await denom(["audit", folder, "--claim", "98.45%"]);
    expect(merged.code).toBe(3);
    expect(merged.stdout).toContain(
      "2 differing copies of the same trials came from different sources and were merged as one run: --run-per-file audits each file as its own run",
    );
    const r = await denom(["audit", folder, "--claim", "98.45%", "--run-per-file", "--json"]);
    expect(r.code).toBe(0);
    const match = JSON.parse(r.stdout).matches[0];
    expect(match).toMatchObject({ basis: "final", successes: 318, count: 323 });
    expect(match.group.value).toMatch(/report\.json/);
  });
});
