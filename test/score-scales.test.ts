/**
 * Declared score scales (DESIGN section 4, Scores): a format whose success a
 * number decides declares its scale (FormatTraits.scoreScale `0-1`); a run
 * whose deciding scores leave that scale is unscored, detail `score_scale`,
 * never guessed, until `--success-threshold X` decides (score >= X). Every
 * log and record here is built in the test; each expected count is worked out
 * by hand from the scores written beside it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSuccessThreshold } from "../src/definitions.js";
import { definitionsFingerprint, DEFAULT_DEFINITIONS } from "../src/db/layer-cache.js";
import { queryCatalog } from "../src/db/queries.js";
import { offScaleLine } from "../src/ingest/notices.js";
import { cell, denom, jsonl, tempDir } from "./helpers.js";

type Out = any;
const grid = (out: Out, key: string) => [cell(out, key).successes, cell(out, key).count];
const details = (out: Out) =>
  Object.fromEntries(
    (out.status_detail_counts as { status: string; status_detail: string | null; final: number }[]).map((d) => [
      `${d.status}/${d.status_detail ?? "-"}`,
      d.final,
    ]),
  );

/** An Inspect `.json` log of one eval (one run): one sample per value, each the first scorer's value; `extra` adds fields to sample i. */
function inspectLog(evalId: string, task: string, values: unknown[], extra: Record<number, Record<string, unknown>> = {}): string {
  return JSON.stringify({
    version: 2,
    status: "success",
    eval: {
      eval_id: evalId,
      run_id: "call-1",
      task,
      model: "openai/gpt-4o",
      dataset: { samples: values.length, sample_ids: values.map((_, i) => i + 1) },
      config: { epochs: 1 },
    },
    results: { total_samples: values.length, completed_samples: values.length },
    samples: values.map((value, i) => ({ id: i + 1, epoch: 1, input: "q", target: "a", scores: { model_graded_qa: { value } }, ...(extra[i] ?? {}) })),
  });
}

/** Model-graded essays, grades 0-10 written as strings, as Inspect's model_graded_qa with a 0-10 template writes them. */
const GRADED = inspectLog("essays", "essay", ["0", "3", "7", "10", "7"]);
/** A run on the declared 0-1 scale: C-style numbers 1, 0, 0.5 (Inspect's P), 1. */
const UNIT = inspectLog("quiz", "qa", [1, 0, 0.5, 1]);

describe("an Inspect run graded 0..10", () => {
  const dir = tempDir({ "graded.json": GRADED });
  const file = join(dir, "graded.json");

  it("is unscored, all five trials, never guessed: 0/5, valid 0/0 n/a, the range and the flag named", async () => {
    const r = await denom(["report", "--json", file]);
    expect(r.code).toBe(0);
    const out = r.json();
    // grades 0, 3, 7, 10, 7: 10 leaves [0, 1], so the run is off scale and all five are unscored (not 1 failure + 4 unscored)
    expect(grid(out, "final/total")).toEqual([0, 5]);
    expect(grid(out, "first/total")).toEqual([0, 5]);
    expect(grid(out, "final/valid")).toEqual([0, 0]);
    expect(cell(out, "final/valid").rate).toBeNull();
    expect(out.status_counts.final).toEqual({ unrecognized: 5 });
    expect(details(out)).toEqual({ "unrecognized/score_scale": 5 });
    expect(out.unrecognized_statuses).toEqual([{ value: "unscored", attempts: 5 }]);
    expect(out.meta.off_scale_runs).toEqual([
      {
        run_id: "essays",
        agent: null,
        model: "openai/gpt-4o",
        formats: "inspect",
        min_score: 0,
        max_score: 10,
        trials: 5,
        unscored: true,
        success_threshold: null,
      },
    ]);
    expect(out.meta.score_rule).toMatchObject({
      success_threshold: null,
      rule: "declared by each format",
      formats: [{ format: "inspect", score_scale: "0-1" }],
    });
    expect(r.stderr).toContain(
      "denom: warning: 1 run has scores off the 0-1 scale their format declares, so 5 trials are unscored (in total only, never a success): essays (openai/gpt-4o): inspect, scores 0..10, 5 trials; --success-threshold X decides",
    );
  });

  it("--success-threshold 7 counts the grades >= 7 (7, 10, 7): 3/5; --success-threshold 10: 1/5; no warning", async () => {
    const seven = await denom(["report", "--json", file, "--success-threshold", "7"]);
    expect(seven.code).toBe(0);
    const out = seven.json();
    expect(grid(out, "final/total")).toEqual([3, 5]);
    expect(grid(out, "final/valid")).toEqual([3, 5]);
    // 0 and 3 fail: the agent's, kept in attributable
    expect(grid(out, "final/attributable")).toEqual([3, 5]);
    expect(out.status_counts.final).toEqual({ success: 3, failure: 2 });
    expect(out.meta.score_rule).toMatchObject({ success_threshold: 7, rule: "score >= 7 (--success-threshold)" });
    expect(out.meta.off_scale_runs[0]).toMatchObject({ trials: 5, unscored: false, success_threshold: 7 });
    expect(seven.stderr).not.toContain("off the 0-1 scale");
    const ten = (await denom(["report", "--json", file, "--success-threshold", "10"])).json();
    expect(grid(ten, "final/total")).toEqual([1, 5]);
    // 0.5 puts every grade but 0 over it: 4/5
    expect(grid((await denom(["report", "--json", file, "--success-threshold", "0.5"])).json(), "final/total")).toEqual([4, 5]);
  });

  it("names the rule and the off-scale run in the text, markdown and HTML reports", async () => {
    const text = (await denom(["report", file])).stdout;
    expect(text.split("\n")[0]).toBe(
      "! 1 run has scores off the 0-1 scale their format declares, so 5 trials are unscored (in total only, never a success): essays (openai/gpt-4o): inspect, scores 0..10, 5 trials; --success-threshold X decides (a success when score >= X, on the scores' own scale)",
    );
    expect(text).toContain(
      "score rule: declared by each format: a score of 1 on the 0-1 scale of inspect; 1 run scored off the 0-1 scale (0..10), 5 trials unscored until --success-threshold X decides",
    );
    expect(text).toContain("* the figure to quote: 0/5 = 0.0%");
    const md = (await denom(["report", file, "--format", "md"])).stdout;
    expect(md).toContain("> **Warning:** 1 run has scores off the 0-1 scale");
    expect(md).toContain("score rule: declared by each format");
    const html = (await denom(["report", file, "--format", "html"])).stdout;
    expect(html).toContain('<section id="warnings"><h2>Warnings</h2><ul><li>1 run has scores off the 0-1 scale');
    expect(html).toContain("scores 0..10, 5 trials");
    const seven = (await denom(["report", file, "--success-threshold", "7"])).stdout;
    expect(seven.startsWith("! ")).toBe(false);
    expect(seven).toContain(
      "score rule: score >= 7 (--success-threshold): a trial a score decides (inspect) is a success when its score >= 7; 1 run scored off the 0-1 scale (0..10)",
    );
    expect(seven).toContain("* the figure to quote: 3/5 = 60.0%");
    const sevenHtml = (await denom(["report", file, "--format", "html", "--success-threshold", "7"])).stdout;
    expect(sevenHtml).not.toContain('id="warnings"');
    expect(sevenHtml).toContain("score rule: score &gt;= 7 (--success-threshold)");
  });

  it("leaves an error, a limit and a missing score as they are: only the trials a score decided are unscored", async () => {
    // samples: "0" and "10" graded; 3 halted by an error, 4 by a time limit (graded "8" as it stood), 5 with no score
    const log = JSON.parse(
      inspectLog("mixed", "essay", ["0", "10", "5", "8", null], {
        2: { error: { message: "boom" } },
        3: { limit: { type: "time", limit: 60 } },
        4: { scores: {} },
      }),
    );
    const d = tempDir({ "mixed.json": JSON.stringify(log) });
    const out = (await denom(["report", "--json", join(d, "mixed.json")])).json();
    expect(grid(out, "final/total")).toEqual([0, 5]);
    expect(details(out)).toEqual({ "unrecognized/score_scale": 2, "aborted/sample_error": 1, "timeout/time_limit": 1, "unrecognized/-": 1 });
    expect(out.meta.off_scale_runs[0]).toMatchObject({ min_score: 0, max_score: 10, trials: 2 });
    // with the threshold, "10" passes and "0" fails; the error, the limit and the missing score stay
    const eight = (await denom(["report", "--json", join(d, "mixed.json"), "--success-threshold", "8"])).json();
    expect(details(eight)).toEqual({ "success/-": 1, "failure/-": 1, "aborted/sample_error": 1, "timeout/time_limit": 1, "unrecognized/-": 1 });
    expect(grid(eight, "final/total")).toEqual([1, 5]);
  });
});

describe("a timeout's score, as a late pass", () => {
  it("passes by the rule of its run: never in a run off scale, >= X under --success-threshold X, else full marks 1", async () => {
    // essays "0" and "10", and one halted by its time limit, graded "8" as it stood
    const off = inspectLog("off", "essay", ["0", "10", "8"], { 2: { limit: { type: "time", limit: 60 } } });
    // on the 0-1 scale: 1, 0, and a timed-out 1
    const on = inspectLog("on", "qa", [1, 0, 1], { 2: { limit: { type: "time", limit: 60 } } });
    const d = tempDir({ "off.json": off, "on.json": on });
    const late = async (file: string, ...flags: string[]) =>
      (await denom(["report", "--json", join(d, file), ...flags])).json().diagnostics.timeouts_with_passing_score;
    // 8 on a run graded 0..10 is no full mark of a 0-1 scale: not a late pass until a threshold says so
    expect(await late("off.json")).toBe(0);
    expect(await late("off.json", "--success-threshold", "8")).toBe(1);
    expect(await late("off.json", "--success-threshold", "9")).toBe(0);
    expect(await late("on.json")).toBe(1);
    // audit's numerator with late passes: 1 success + the late pass 8 >= 8 = 2/3 only under the threshold
    expect((await denom(["audit", join(d, "off.json"), "--claim", "66.67%", "--success-threshold", "8"])).code).toBe(0);
    expect((await denom(["audit", join(d, "off.json"), "--claim", "66.67%"])).code).toBe(3);
  });
});

describe("a run on the declared 0-1 scale", () => {
  it("is untouched: scores 1, 0, 0.5, 1 are 2/4, no warning, no run off scale", async () => {
    const d = tempDir({ "unit.json": UNIT });
    const r = await denom(["report", "--json", join(d, "unit.json")]);
    const out = r.json();
    expect(grid(out, "final/total")).toEqual([2, 4]);
    expect(out.status_counts.final).toEqual({ success: 2, failure: 2 });
    expect(out.meta.off_scale_runs).toEqual([]);
    expect(r.stderr).not.toContain("off the 0-1 scale");
    expect((await denom(["report", join(d, "unit.json")])).stdout).toContain("score rule: declared by each format: a score of 1 on the 0-1 scale of inspect\n");
    // --success-threshold applies on scale too: 0.5 and above pass, 3/4
    expect(grid((await denom(["report", "--json", join(d, "unit.json"), "--success-threshold", "0.5"])).json(), "final/total")).toEqual([3, 4]);
  });

  it("beside a run off its scale in one input, keeps its own figure: only the off-scale run's trials are unscored", async () => {
    const d = tempDir({ "graded.json": GRADED, "unit.json": UNIT });
    const out = (await denom(["report", "--json", "--by", "run_id", d])).json();
    // 2 of the quiz's 4 pass; the essays' 5 are unscored: 2/9 over all, valid 2/4
    expect(grid(out, "final/total")).toEqual([2, 9]);
    expect(grid(out, "final/valid")).toEqual([2, 4]);
    expect(details(out)).toEqual({ "success/-": 2, "failure/-": 2, "unrecognized/score_scale": 5 });
    expect(out.meta.off_scale_runs.map((r: Out) => [r.run_id, r.trials])).toEqual([["essays", 5]]);
    const byRun = Object.fromEntries(out.groups.map((g: Out) => [g.value, grid(g, "final/total")]));
    expect(byRun).toEqual({ essays: [0, 5], quiz: [2, 4] });
  });
});

describe("the other formats that declare a 0-1 scale", () => {
  /** A Harbor TrialResult: `reward` null = no verifier result; `exception` an exception type. */
  const trial = (job: string, name: string, reward: number | null, exception: string | null = null, start = "2026-01-05T10:00:00Z") => ({
    id: `uuid-${name}`,
    task_name: name.split("__")[0],
    trial_name: name,
    config: { job_id: job, agent: { name: "terminus-2", model_name: "anthropic/claude-sonnet-4" } },
    agent_info: { name: "terminus-2", version: "2.0.0" },
    agent_result: { n_input_tokens: 10, n_output_tokens: 5, cost_usd: null },
    verifier_result: reward === null ? null : { rewards: { reward } },
    exception_info: exception === null ? null : { exception_type: exception, exception_message: "" },
    started_at: start,
    finished_at: "2026-01-05T10:01:00Z",
  });
  const harborJobs = () => {
    const d = tempDir();
    const write = (job: string, t: ReturnType<typeof trial>) => {
      mkdirSync(join(d, job, t.trial_name), { recursive: true });
      writeFileSync(join(d, job, t.trial_name, "result.json"), JSON.stringify(t));
    };
    // job A: rewards 1, 3, 0 decide; a timeout with reward 3 is a timeout (its reward does not decide)
    for (const t of [trial("A", "a__1", 1), trial("A", "b__1", 3), trial("A", "c__1", 0), trial("A", "d__1", 3, "AgentTimeoutError")]) write("job-a", t);
    // job B: rewards 1 and 0.5, on scale
    for (const t of [trial("B", "a__2", 1), trial("B", "b__2", 0.5)]) write("job-b", t);
    return d;
  };

  it("Harbor: a job with reward 3 has its three reward-decided trials unscored; the other job keeps 1/2", async () => {
    const d = harborJobs();
    const r = await denom(["report", "--json", "--by", "run_id", d]);
    const out = r.json();
    const byRun = Object.fromEntries(out.groups.map((g: Out) => [g.value, grid(g, "final/total")]));
    // A: 3 unscored + 1 timeout = 0/4; B: reward 1 passes, 0.5 fails = 1/2
    expect(byRun).toEqual({ A: [0, 4], B: [1, 2] });
    expect(details(out)).toEqual({ "unrecognized/score_scale": 3, "timeout/AgentTimeoutError": 1, "success/-": 1, "failure/-": 1 });
    expect(out.meta.off_scale_runs.map((x: Out) => [x.run_id, x.formats, x.min_score, x.max_score, x.trials])).toEqual([["A", "harbor", 0, 3, 3]]);
    expect(r.stderr).toContain("A (terminus-2 x anthropic/claude-sonnet-4): harbor, scores 0..3, 3 trials");
    // --success-threshold 1: A's rewards 1 and 3 pass (2/4, the timeout stays); B's 1 passes, 0.5 fails (1/2)
    const one = (await denom(["report", "--json", "--by", "run_id", d, "--success-threshold", "1"])).json();
    expect(Object.fromEntries(one.groups.map((g: Out) => [g.value, grid(g, "final/total")]))).toEqual({ A: [2, 4], B: [1, 2] });
  });

  it("tau-bench: rewards 1, 0, 2 in one file are 3 unscored; --success-threshold 1 passes 1 and 2 (2/3)", async () => {
    const rec = (task_id: number, reward: number) => ({ task_id, trial: 0, reward, info: { reward_info: { reward } }, traj: [] });
    const d = tempDir({ "run.json": JSON.stringify([rec(1, 1), rec(2, 0), rec(3, 2)]) });
    const out = (await denom(["report", "--json", join(d, "run.json")])).json();
    expect(grid(out, "final/total")).toEqual([0, 3]);
    expect(details(out)).toEqual({ "unrecognized/score_scale": 3 });
    expect(out.meta.off_scale_runs.map((x: Out) => [x.formats, x.max_score, x.trials])).toEqual([["tau-bench", 2, 3]]);
    expect(grid((await denom(["report", "--json", join(d, "run.json"), "--success-threshold", "1"])).json(), "final/total")).toEqual([2, 3]);
  });

  it("tau2-bench: a normal end with reward 4 puts the run's 3 reward-decided simulations unscored; max_steps stays a failure", async () => {
    const sim = (task_id: string, termination_reason: string, reward: number) => ({
      id: `s-${task_id}`,
      task_id,
      trial: 0,
      termination_reason,
      reward_info: { reward },
      messages: [],
    });
    const results = {
      timestamp: "t",
      info: { agent_info: { implementation: "llm_agent", llm: "gpt-4o" } },
      simulations: [sim("a", "user_stop", 1), sim("b", "agent_stop", 4), sim("c", "user_stop", 0), sim("d", "max_steps", 0)],
    };
    const d = tempDir({ "run.json": JSON.stringify(results) });
    const out = (await denom(["report", "--json", join(d, "run.json")])).json();
    expect(grid(out, "final/total")).toEqual([0, 4]);
    expect(details(out)).toEqual({ "unrecognized/score_scale": 3, "failure/max_steps": 1 });
    // rewards 1 and 4 reach 1: 2/4
    expect(grid((await denom(["report", "--json", join(d, "run.json"), "--success-threshold", "1"])).json(), "final/total")).toEqual([2, 4]);
  });

  it("AgentCompass: scores 80, 100, 0 decide (no verdict) and leave [0, 1]: 3 unscored; a `correct` verdict decides as before", async () => {
    const rec = (task_id: string, grade: Record<string, unknown>) => ({ task_id, status: "completed", issues: [], ...grade });
    const d = tempDir({
      "results.jsonl": jsonl(rec("a", { score: 80 }), rec("b", { score: 100 }), rec("c", { score: 0 }), rec("d", { correct: true, score: 50 })),
    });
    const out = (await denom(["report", "--json", join(d, "results.jsonl")])).json();
    // d: its verdict decides (success), its score 50 is not a deciding score
    expect(grid(out, "final/total")).toEqual([1, 4]);
    expect(details(out)).toEqual({ "unrecognized/score_scale": 3, "success/-": 1 });
    expect(out.meta.off_scale_runs.map((x: Out) => [x.formats, x.min_score, x.max_score, x.trials])).toEqual([["agentcompass", 0, 100, 3]]);
    // --success-threshold 80: 80 and 100 pass, 0 fails, d stays a success: 3/4
    expect(grid((await denom(["report", "--json", join(d, "results.jsonl"), "--success-threshold", "80"])).json(), "final/total")).toEqual([3, 4]);
  });

  it("the canonical format declares no scale: its score never decides, off scale or not", async () => {
    const d = tempDir({ "runs.jsonl": jsonl({ task_id: "a", status: "success", score: 7 }, { task_id: "b", status: "failure", score: 10 }) });
    const out = (await denom(["report", "--json", join(d, "runs.jsonl"), "--success-threshold", "8"])).json();
    expect(grid(out, "final/total")).toEqual([1, 2]);
    expect(out.meta.off_scale_runs).toEqual([]);
    expect(out.meta.score_rule.formats).toEqual([
      { format: "canonical", score_scale: null, success: expect.stringContaining("`score` never decides on its own") },
    ]);
  });
});

describe("--success-threshold on every command that loads runs", () => {
  const dir = tempDir({ "graded.json": GRADED });
  const file = join(dir, "graded.json");

  it("exits 2 for a negative or non-number value, on each command", async () => {
    for (const bad of ["-1", "abc", "", "7%", "Infinity"]) {
      const r = await denom(["report", file, `--success-threshold=${bad}`]);
      expect([r.code, r.stderr], bad).toEqual([2, expect.stringContaining(`--success-threshold ${bad}: expected a number >= 0`)]);
    }
    for (const args of [
      ["audit", file, "--claim", "60%"],
      ["export", file],
      ["timeouts", file],
      ["compare", file, file],
      ["gate", file, "--min", "final/total=0.5"],
      ["ingest", file, "--db", join(dir, "x.duckdb")],
    ]) {
      const r = await denom([...args, "--success-threshold", "-1"]);
      expect(r.code, args[0]).toBe(2);
    }
  });

  it("decides audit, export, gate and compare as it decides the report", async () => {
    // 3/5 = 60% under --success-threshold 7; not reproduced without it (0/5)
    expect((await denom(["audit", file, "--claim", "60%", "--success-threshold", "7"])).code).toBe(0);
    expect((await denom(["audit", file, "--claim", "60%"])).code).toBe(3);
    const rates = await denom(["export", file, "--what", "rates", "--format", "json", "--success-threshold", "10"]);
    expect(rates.code).toBe(0);
    const strict = (rates.json() as Out[]).find((r) => r.basis === "final" && r.denominator === "total");
    expect([strict.successes, strict.count]).toEqual([1, 5]);
    expect((await denom(["gate", file, "--min", "final/total=0.6", "--success-threshold", "7"])).code).toBe(0);
    expect((await denom(["gate", file, "--min", "final/total=0.6"])).code).toBe(4);
    expect((await denom(["timeouts", file, "--success-threshold", "7"])).code).toBe(0);
  });

  it("keys the layers ingest keeps: a file kept without it is recomputed under it, and one kept under it serves only it", async () => {
    const plain = join(tempDir(), "plain.duckdb");
    expect((await denom(["ingest", file, "--db", plain])).code).toBe(0);
    expect(grid((await denom(["report", "--json", "--db", plain])).json(), "final/total")).toEqual([0, 5]);
    expect(grid((await denom(["report", "--json", "--db", plain, "--success-threshold", "7"])).json(), "final/total")).toEqual([3, 5]);
    const seven = join(tempDir(), "seven.duckdb");
    const kept = await denom(["ingest", file, "--db", seven, "--success-threshold", "7"]);
    expect(kept.code).toBe(0);
    // ingest says what every later report will say of the run
    expect(kept.stderr).not.toContain("off the 0-1 scale");
    expect((await denom(["ingest", file, "--db", join(tempDir(), "p.duckdb")])).stderr).toContain("1 run has scores off the 0-1 scale");
    expect(grid((await denom(["report", "--json", "--db", seven, "--success-threshold", "7"])).json(), "final/total")).toEqual([3, 5]);
    expect(grid((await denom(["report", "--json", "--db", seven, "--success-threshold", "10"])).json(), "final/total")).toEqual([1, 5]);
    expect(grid((await denom(["report", "--json", "--db", seven])).json(), "final/total")).toEqual([0, 5]);
  });

  it("changes the definitions' fingerprint, so no layer kept under another threshold is read", () => {
    const catalog = queryCatalog();
    const base = definitionsFingerprint(catalog, DEFAULT_DEFINITIONS);
    expect(definitionsFingerprint(catalog, { ...DEFAULT_DEFINITIONS, successThreshold: 7 })).not.toBe(base);
    expect(definitionsFingerprint(catalog, { ...DEFAULT_DEFINITIONS, successThreshold: 7 })).not.toBe(
      definitionsFingerprint(catalog, { ...DEFAULT_DEFINITIONS, successThreshold: 0.7 }),
    );
    expect(definitionsFingerprint(catalog, { ...DEFAULT_DEFINITIONS, successThreshold: null })).toBe(base);
  });

  it("is parsed as a number >= 0", () => {
    expect([
      parseSuccessThreshold(undefined),
      parseSuccessThreshold("7"),
      parseSuccessThreshold("0"),
      parseSuccessThreshold("0.5"),
      parseSuccessThreshold(" 1e1 "),
    ]).toEqual([null, 7, 0, 0.5, 10]);
    for (const bad of ["-1", "-0.5", "abc", "", "7%", "NaN", "Infinity", "0x10", "1/2"])
      expect(() => parseSuccessThreshold(bad), bad).toThrow("--success-threshold");
  });
});

describe("the off-scale warning", () => {
  const run = (run_id: string, max: number, trials: number) => ({
    run_id,
    agent: null,
    model: "m",
    formats: "inspect",
    min_score: 0,
    max_score: max,
    trials,
    unscored: true,
    success_threshold: null,
  });
  it("names each run, its range and trials, then counts the rest; says nothing once a threshold decides", () => {
    expect(offScaleLine([])).toBeNull();
    expect(offScaleLine([{ ...run("a", 10, 5), unscored: false, success_threshold: 7 }])).toBeNull();
    const line = offScaleLine([run("a", 10, 20), run("b", 7.5, 20), run("c", 10, 1), run("d", 10, 1), run("e", 10, 1), run("f", 10, 1)])!;
    expect(line).toContain("6 runs have scores off the 0-1 scale their format declares, so 44 trials are unscored");
    expect(line).toContain("a (m): inspect, scores 0..10, 20 trials; b (m): inspect, scores 0..7.5, 20 trials;");
    expect(line).toContain("e (m): inspect, scores 0..10, 1 trial, and 1 more; --success-threshold X decides");
  });
});
