/**
 * Issue 14: Harbor job folders, OpenHands output.jsonl, tau2-bench's dir layout,
 * AgentBench task outputs, and folders as harnesses leave them (side files no
 * format reads are skipped and listed; a folder that yields no record exits 1).
 *
 * Expected figures are worked out by hand from the files: the hand-made Harbor
 * job (test/fixtures/harbor-job, one trial per row of the comment below), the
 * real folders by the hand counts of their PROVENANCE.md (copied into
 * test/fixtures/real when their licence is MIT or Apache-2.0; the Kimi Harbor
 * records, with no licence, are read in place and skip without ../shared).
 */
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { exceptionRule, EXCEPTION_RULES } from "../src/formats/harbor.js";
import { classifyError } from "../src/formats/openhands-output.js";
import { cell, denom, FIXTURES, hasShared, jsonl, once, REAL, tempDir } from "./helpers.js";
import { mkdirSync, writeFileSync } from "node:fs";

type Out = any;
const grid = (out: Out, key: string) => [cell(out, key).successes, cell(out, key).count];
const details = (out: Out) =>
  Object.fromEntries(
    (out.status_detail_counts as { status: string; status_detail: string | null; final: number }[]).map((d) => [
      `${d.status}/${d.status_detail ?? "-"}`,
      d.final,
    ]),
  );
const REAL_COPY = join(FIXTURES, "real");

describe("Harbor exception table", () => {
  it("maps every exception type of the issue's table to its status and detail", () => {
    const read = (type: string, message = "") => {
      const r = exceptionRule(type, message);
      return `${r.status}/${r.detail}`;
    };
    expect(read("AgentTimeoutError")).toBe("timeout/AgentTimeoutError");
    for (const t of ["VerifierTimeoutError", "RewardFileNotFoundError", "RewardFileEmptyError", "VerifierOutputParseError"])
      expect(read(t)).toBe("aborted/grader_error");
    for (const t of ["EnvironmentStartTimeoutError", "AgentSetupTimeoutError", "DaytonaError", "DockerComposeError"])
      expect(read(t)).toBe("aborted/environment");
    // a provider's HTTP error named in the message, whatever the type
    expect(read("RuntimeError", "litellm.RateLimitError: Error code: 429")).toBe("aborted/external_api_error");
    expect(read("NonZeroAgentExitCodeError", "upstream returned 503 Service Unavailable")).toBe("aborted/external_api_error");
    expect(read("NonZeroAgentExitCodeError", "Command failed (exit 137)")).toBe("reward/NonZeroAgentExitCodeError");
    expect(read("CancelledError")).toBe("aborted/cancelled");
    expect(read("ValueError", "bad value")).toBe("reward/type");
    // an exit code is not an HTTP status
    expect(read("NonZeroAgentExitCodeError", "Command failed (exit 1): wrote 500 lines")).toBe("reward/NonZeroAgentExitCodeError");
    expect(EXCEPTION_RULES.length).toBe(7);
  });
});

describe("a hand-made Harbor job (test/fixtures/harbor-job)", () => {
  // 23 trial folders, 21 tasks; result.json says n_total_trials 26 (3 with no folder):
  //   success: t-success (reward 1), t-exit-pass (NonZeroAgentExitCodeError, reward 1), repeat-task x2 (reward 1)  = 4
  //   failure: t-fail (0), t-partial (0.5), t-exit-137 (no reward), t-other-verified (KeyError, 0), repeat-task (0) = 5
  //   timeout: t-timeout-pass (reward 1: a late pass), t-timeout (0)                                            = 2
  //   aborted: grader_error x5 (VerifierTimeout, RewardFileNotFound, RewardFileEmpty, VerifierOutputParse,
  //            no verifier_result), environment x3 (EnvironmentStartTimeout, AgentSetupTimeout, Daytona),
  //            external_api_error x2 (429, 503), cancelled x1, ValueError x1                                    = 12
  //   missing: 26 - 23 = 3
  const job = join(FIXTURES, "harbor-job");
  /** `report JOB --json`, run once for the read-only tests below */
  const jobReport = once(() => denom(["report", job, "--json"]));

  it("reads each trial's result.json as one attempt, the statuses of the table", async () => {
    const r = await jobReport();
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.tasks).toBe(21);
    expect(out.meta.trials).toBe(23);
    expect(out.status_counts.final).toEqual({ success: 4, failure: 5, timeout: 2, aborted: 12, missing: 3 });
    expect(details(out)).toEqual({
      "success/-": 3,
      "success/NonZeroAgentExitCodeError": 1,
      "failure/-": 3,
      "failure/NonZeroAgentExitCodeError": 1,
      "failure/KeyError": 1,
      "timeout/AgentTimeoutError": 2,
      "aborted/grader_error": 5,
      "aborted/environment": 3,
      "aborted/external_api_error": 2,
      "aborted/cancelled": 1,
      "aborted/ValueError": 1,
      "missing/announced, no record": 3,
    });
    expect(out.diagnostics).toMatchObject({ timeouts_with_passing_score: 1, grader_errors: 5, missing: 3 });
    // total 26; valid 26; attributable removes the 12 aborted and the 3 missing: 11; completable the 2 timeouts: 9
    expect(grid(out, "final/total")).toEqual([4, 26]);
    expect(grid(out, "final/attributable")).toEqual([4, 11]);
    expect(grid(out, "final/completable")).toEqual([4, 9]);
    // override_timeout_sec 600 x timeout_multiplier 1.0; t-timeout has multiplier 2.0
    expect(out.meta.timeout_limits).toEqual([
      { timeout_limit_s: 600, attempts: 22 },
      { timeout_limit_s: 1200, attempts: 1 },
    ]);
    // cost_usd 0.25 on t-success, t-fail, t-timeout-pass and repeat-task__ccccccc, null elsewhere
    expect(out.efficiency.cost_usd_total).toBeCloseTo(1.0, 10);
    expect(out.accounting.duplicates).toBe(0);
  });

  it("numbers a task's repeats in started_at order, not by folder name", async () => {
    // repeat-task__ccccccc starts at 10:19 (reward 1), __bbbbbbb at 10:20 (1), __aaaaaaa at 10:21 (0)
    const csv = join(tempDir(), "attempts.csv");
    expect((await denom(["export", job, "--what", "attempts", "--out", csv])).code).toBe(0);
    const rows = readFileSync(csv, "utf8").trim().split("\n");
    const head = rows[0].split(",");
    const [source, task, trial] = ["source", "task_id", "trial"].map((c) => head.indexOf(c));
    const repeats = rows
      .slice(1)
      .map((l) => l.split(","))
      .filter((c) => c[task] === "repeat-task")
      .map((c) => [c[trial], c[source].split("/").at(-2)]);
    expect(repeats.sort()).toEqual([
      ["0", "repeat-task__ccccccc"],
      ["1", "repeat-task__bbbbbbb"],
      ["2", "repeat-task__aaaaaaa"],
    ]);
    const q = (await jobReport()).json();
    // only repeat-task has 3 trials: pass@3 over that one task = 1, pass^3 = C(2,3)/C(3,3) = 0
    expect(q.pass_at_k.find((p: { k: number }) => p.k === 3)).toMatchObject({ tasks: 1, pass_at_k: 1, pass_hat_k: 0 });
  });

  it("classifies both timeouts as the agent's (unknown cause), the agent phase having run", async () => {
    const out = (await jobReport()).json();
    expect(out.timeout_causes).toEqual({ queue: 0, external: 0, loop: 0, sluggish: 0, unknown: 2 });
  });

  it("lists the side file it skipped and says retries were not recorded", async () => {
    const r = await jobReport();
    const out = r.json();
    expect(out.meta.skipped_files).toEqual([
      { name: join(job, "job-2026-01-05", "notes.json"), reason: "no input format recognises it", top_keys: ["owner", "comment"] },
    ]);
    expect(r.stderr).toContain("notes.json: skipped: no input format recognises it; top keys owner, comment");
    expect(out.meta.notes.join(" ")).toContain("retries");
  });
});

describe.skipIf(!hasShared)("Harbor, Kimi K2.7 + mini-swe-agent (../shared/data/real/harbor-science-kimi-mini-swe)", () => {
  const tasks = join(REAL, "harbor-science-kimi-mini-swe", "tasks");

  it("gives the hand counts of PROVENANCE.md over the 108 trial results", async () => {
    if (!hasShared) return;
    const inputs = readdirSync(tasks).map((t) => join(tasks, t, "trajectories"));
    const r = await denom(["report", ...inputs, "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.trials).toBe(108);
    expect(out.meta.tasks).toBe(36);
    // 24 at reward 1.0; 13 partial + 70 at 0.0 = 83 not passing, of which the 5 NonZeroAgentExitCodeError
    // (rewards 0, 0, 0.8667, 0, 0): 2 (ZWu7gZu 0.8667, HkrYVwT 0) end in litellm.ServiceUnavailableError, a
    // provider's 503 named in the message: aborted, external; the other 3 (2 context-limit BadRequestError,
    // 1 exit 137) stay failures. 1 CancelledError with verifier_result null: aborted.
    expect(out.status_counts.final).toEqual({ success: 24, failure: 81, aborted: 3 });
    expect(details(out)).toEqual({
      "success/-": 24,
      "failure/-": 78,
      "failure/NonZeroAgentExitCodeError": 3,
      "aborted/external_api_error": 2,
      "aborted/cancelled": 1,
    });
    expect(grid(out, "final/total")).toEqual([24, 108]);
    expect(grid(out, "final/attributable")).toEqual([24, 105]);
    // cost_usd 0.0 on all 108 (no price mapping): as given
    expect(out.efficiency.cost_usd_total).toBe(0);
    // one job per task, but algobridge-0001 and structharbor-0001 mix two: 38 jobs
    expect(out.meta.runs).toBe(38);
    expect(out.accounting.duplicates).toBe(0);
  });
});

describe("Harbor, OpenThoughts datagen job (test/fixtures/real/harbor-openthoughts-datagen, Apache-2.0)", () => {
  it("gives the hand counts of PROVENANCE.md: 64 trials, all CancelledError, $0.1158", async () => {
    const r = await denom(["report", join(REAL_COPY, "harbor-openthoughts-datagen"), "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.trials).toBe(64);
    expect(out.meta.tasks).toBe(64);
    expect(out.status_counts.final).toEqual({ aborted: 64 });
    expect(details(out)).toEqual({ "aborted/cancelled": 64 });
    // cost_usd on 10 trials: $0.1158 in all (PROVENANCE: sum 0.1158); null on 54
    expect(out.efficiency.cost_usd_total).toBeCloseTo(0.115822, 6);
    // no job result.json (cancelled job): no trial is announced, none missing
    expect(out.diagnostics.missing).toBe(0);
    // agent override_timeout_sec 1800 x timeout_multiplier 1.0
    expect(out.meta.timeout_limits).toEqual([{ timeout_limit_s: 1800, attempts: 64 }]);
    // 10 trials have agent/episode-0/debug.json (litellm debug dumps): side files, skipped and listed
    expect(out.meta.skipped_files.length).toBe(10);
    expect(out.meta.skipped_files.every((f: { name: string }) => f.name.endsWith("/episode-0/debug.json"))).toBe(true);
  });
});

describe("OpenHands output.jsonl (test/fixtures/real/openhands-v0-multiswebench, MIT)", () => {
  it("classifies errors from their text", () => {
    expect(classifyError("RuntimeError: Agent reached maximum iteration in headless mode. Current iteration: 50, max iteration: 50")?.detail).toBe(
      "max_iterations",
    );
    expect(classifyError("litellm.RateLimitError: Error code: 429")?.detail).toBe("external_api_error");
    expect(classifyError("AgentRuntimeDisconnectedError: runtime died")?.detail).toBe("runtime_error");
    expect(classifyError("RuntimeError: something else")?.detail).toBe("agent_error");
    expect(classifyError(null)).toBeNull();
  });

  it("gives the hand counts: 3 instances, 1 error (iteration limit), none evaluated, $0", async () => {
    const folder = join(REAL_COPY, "openhands-v0-multiswebench");
    const r = await denom(["report", folder, "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.trials).toBe(3);
    // test_result holds only git_patch: not evaluated (unrecognized), one with the iteration-limit error
    expect(details(out)).toEqual({ "unrecognized/-": 2, "unrecognized/max_iterations": 1 });
    expect(out.efficiency.cost_usd_total).toBe(0);
    // prompt + completion: (565158 + 2558 + 410169 + 5156 + 938015 + 5627) / 3
    expect(out.efficiency.llm_tokens_mean).toBeCloseTo(1926683 / 3, 6);
    // the Multi-SWE-bench evaluator config and patch.jsonl lie beside it
    expect(out.meta.skipped_files.map((f: { name: string }) => f.name)).toEqual([join(folder, "config.json"), join(folder, "patch.jsonl")]);
  });

  it("reads output.swebench_eval.jsonl instead of output.jsonl beside it, and critic attempts as attempts", async () => {
    const record = (id: string, extra: object) => ({
      instance_id: id,
      test_result: { git_patch: "x" },
      history: [],
      metadata: { agent_class: "CodeActAgent" },
      metrics: {},
      error: null,
      ...extra,
    });
    const dir = tempDir({
      "output.jsonl": jsonl(record("a", {}), record("b", {})),
      "output.swebench_eval.jsonl": jsonl(
        record("a", { test_result: { report: { resolved: true } } }),
        record("b", { test_result: { report: { resolved: false } } }),
      ),
    });
    const out = (await denom(["report", dir, "--json"])).json();
    // a resolved, b not: 1/2; output.jsonl listed as skipped
    expect(grid(out, "final/total")).toEqual([1, 2]);
    expect(out.meta.skipped_files.map((f: { name: string }) => f.name)).toEqual([join(dir, "output.jsonl")]);
    const critic = tempDir({
      "output.jsonl": jsonl(record("a", {})),
      "output.critic_attempt_1.jsonl": jsonl(record("a", { error: "AgentRuntimeDisconnectedError: runtime died" })),
      "output.critic_attempt_2.jsonl": jsonl(record("a", { test_result: { resolved: true } })),
    });
    const c = (await denom(["report", critic, "--json"])).json();
    // one trial: first attempt aborted (runtime), final a success
    expect(c.transitions).toEqual([{ first: "aborted", final: "success", count: 1 }]);
  });
});

describe("OpenHands SWE-bench evaluation logs (test/fixtures/real/openhands-v0-swebench-eval-report, MIT)", () => {
  const folder = join(REAL_COPY, "openhands-v0-swebench-eval-report");

  it("gives the hand counts of PROVENANCE.md from the 50 per-instance logs", async () => {
    const r = await denom(["report", folder, "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.trials).toBe(50);
    // resolved: True 26, resolved: False 22; no result line: django-11265 (log stops after
    // "Starting evaluation": the empty patch) and django-10097 (504 Gateway Timeout, evaluation unfinished)
    expect(details(out)).toEqual({ "success/-": 26, "failure/-": 22, "failure/empty_patch": 1, "aborted/eval_error": 1 });
    expect(grid(out, "final/total")).toEqual([26, 50]);
    expect(grid(out, "final/attributable")).toEqual([26, 49]);
    // metadata.json is read (openhands-run-metadata); the summary .md is not a record file
    expect(out.meta.skipped_files).toEqual([]);
  });

  it("reproduces the summary's resolved 26 of 50 submitted", async () => {
    const r = await denom(["audit", folder, "--claim", "26/50", "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.reproduced).toBe(true);
    expect(out.matches[0]).toMatchObject({ basis: "final", successes: 26, count: 50 });
  });
});

describe("tau2-bench dir layout (test/fixtures/tau2-split, from the MIT telecom file)", () => {
  // run-a/results.json: 3 tasks x num_trials 2 = 6 trials announced; simulations/ holds 4
  // (task 1 trials 0 and 1, tasks 2 and 3 trial 0), one with reward 1: 1 success, 3 failures, 2 missing.
  // empty/results-empty.json: 3 tasks x 1 trial, simulations [] -> 3 missing, with a warning.
  it("reads results.json and simulations/*.json as one run and counts what was announced but not run", async () => {
    const r = await denom(["report", join(FIXTURES, "tau2-split"), "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.status_counts.final).toEqual({ success: 1, failure: 3, missing: 5 });
    expect(grid(out, "final/total")).toEqual([1, 9]);
    expect(r.stderr).toContain("results-empty.json: announces 3 tasks x 1 trials but its simulations are empty: the 3 trials are counted missing");
    // meta.runs counts runs with a record: results-empty has none
    expect(out.meta.runs).toBe(1);
    expect(out.meta.trials).toBe(4);
  });
});

describe("a --db file with the older announced_trials table (before owed_trials held both)", () => {
  // tau2-split as above: 9 trials in all, 5 of them missing (2 of run-a, 3 of results-empty),
  // promised by the runs' metadata; in the old layout their counts sat in announced_trials
  it("is read with the announced trials missing, and moves them into owed_trials when written to", async () => {
    const { Database } = await import("../src/db/database.js");
    const dir = tempDir();
    const file = join(dir, "old.duckdb");
    expect((await denom(["ingest", join(FIXTURES, "tau2-split"), "--db", file])).code).toBe(0);
    const db = await Database.open({ path: file });
    await db.run("CREATE TABLE announced_trials AS SELECT source_id, run_id, task_id, trials FROM owed_trials WHERE promised_by = 'run_metadata'");
    await db.run("DELETE FROM owed_trials");
    for (const column of ["promised_by", "trials"]) await db.run(`ALTER TABLE owed_trials DROP COLUMN ${column}`);
    // the kept layers were computed from the new layout: drop them so the figures come from the tables
    for (const r of await db.all("SELECT table_name FROM duckdb_tables() WHERE table_name LIKE 'layer_%' ORDER BY table_name"))
      await db.run(`DROP TABLE ${r.table_name}`);
    db.close();
    const read = await denom(["report", "--json", "--db", file]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.json().status_counts.final).toEqual({ success: 1, failure: 3, missing: 5 });
    expect(details(read.json())["missing/announced, no record"]).toBe(5);
    // ingest writes: the rows move into owed_trials, promised by the run's metadata
    expect((await denom(["ingest", join(FIXTURES, "tau2-split"), "--db", file])).code).toBe(0);
    const after = await Database.open({ path: file });
    try {
      expect(await after.all("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'announced_trials'")).toEqual([{ n: 0 }]);
      // run-a: 3 tasks x 2 trials; results-empty: 3 tasks x 1 trial: one row per task
      expect(await after.all("SELECT promised_by, count(*) AS tasks, sum(trials) AS trials FROM owed_trials GROUP BY ALL")).toEqual([
        { promised_by: "run_metadata", tasks: 6, trials: 9 },
      ]);
    } finally {
      after.close();
    }
    expect(details((await denom(["report", "--json", "--db", file])).json())["missing/announced, no record"]).toBe(5);
  });
});

describe("AgentBench (test/fixtures/real/agentbench-medagentbench-gemini, Apache-2.0)", () => {
  it("reads runs.jsonl and error.jsonl: 68 trials, 22 errors aborted, none graded, 32 missing of 100", async () => {
    const r = await denom(["report", join(REAL_COPY, "agentbench-medagentbench-gemini"), "--expect-count", "100", "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.meta.trials).toBe(68);
    // runs.jsonl: completed 25 (graded only in overall.json: ungraded), agent invalid action 21; error.jsonl: 22 AGENT_FAILED
    expect(details(out)).toEqual({
      "unrecognized/completed": 25,
      "failure/agent invalid action": 21,
      "aborted/AGENT_FAILED": 22,
      "missing/expected, no record": 32,
    });
    expect(grid(out, "final/total")).toEqual([0, 100]);
  });

  it("audits an overall.json's own figure as a claim", async () => {
    const dir = tempDir();
    const task = join(dir, "gpt-x", "os-std");
    mkdirSync(task, { recursive: true });
    const sample = (index: number, result: boolean) => ({
      index,
      error: null,
      info: null,
      output: { index, status: "completed", result: { result }, history: [] },
      time: { timestamp: 1737158137875 + index },
    });
    writeFileSync(join(task, "runs.jsonl"), jsonl(sample(0, true), sample(1, false), sample(2, true)));
    writeFileSync(
      join(task, "error.jsonl"),
      jsonl({ index: 3, error: "AGENT_FAILED", info: "Failed.", output: { index: null, status: "running" }, time: { timestamp: 1737159055712 } }),
    );
    // AgentBench's own figure: 2 passes of 4 samples
    const overall = join(task, "overall.json");
    writeFileSync(overall, JSON.stringify({ total: 4, validation: { completed: 0.75 }, custom: { overall: { total: 4, pass: 2, wrong: 2, acc: 0.5 } } }));
    const r = await denom(["audit", task, "--claims", overall, "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    const claim = Array.isArray(out) ? out[0] : out;
    expect(claim.reproduced).toBe(true);
    // 0.5 = final successes over total (2/4): the error counts against the run
    expect(claim.strict).toMatchObject({ successes: 2, count: 4 });
  });
});

describe("folders as harnesses leave them", () => {
  it("reports a folder of logs and unknown side files: exit 0, each skipped file listed, every log counted", async () => {
    const dir = tempDir({
      "run-1.jsonl": jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" }),
      "run-2.jsonl": jsonl({ task_id: "c", status: "success" }),
      "setup.json": JSON.stringify({ owner: "x", tasks: ["a", "b", "c"] }),
      "expected_metrics.json": JSON.stringify({ accuracy: 0.66 }),
      "metadata.json": "{}",
    });
    const r = await denom(["report", dir, "--json"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.accounting).toMatchObject({ lines: 3, records: 3, rejected: 0 });
    expect(out.meta.trials).toBe(3);
    expect(out.meta.skipped_files).toEqual([
      { name: join(dir, "expected_metrics.json"), reason: "no input format recognises it", top_keys: ["accuracy"] },
      { name: join(dir, "metadata.json"), reason: "no input format recognises it", top_keys: [] },
      { name: join(dir, "setup.json"), reason: "no input format recognises it", top_keys: ["owner", "tasks"] },
    ]);
    // one stderr line per skipped file
    expect(r.stderr.split("\n").filter((l) => l.includes(": skipped: ")).length).toBe(3);
  });

  it("exits 1 naming what it found when a folder or an archive yields no record", async () => {
    const dir = tempDir({ "notes.json": JSON.stringify({ name: "n", values: [1] }), "empty.jsonl": "" });
    const r = await denom(["report", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${dir}: no record read from it; it holds 2 file(s) that gave none: ${join(dir, "empty.jsonl")} (empty); ${join(dir, "notes.json")} (no input format recognises it; top keys name, values)`,
    );
  });

  it("still stops on a single file no format reads, named as the input", async () => {
    const dir = tempDir({ "notes.json": JSON.stringify({ name: "n", values: [1] }) });
    const r = await denom(["report", join(dir, "notes.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no input format recognises it");
  });
});
