/**
 * The harness adapters: tau-bench trajectories,
 * tau2-bench results, SWE-agent `.traj`, Inspect AI eval logs, AgentCompass run
 * directories with AgentCompass's own verdict. Every expected figure is worked
 * out by hand from the files (the counts with jq, noted beside each assertion);
 * the real records of ../shared/data/real are read in place and those tests skip
 * when that folder is absent.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectFormat, LIMIT_STATUS } from "../src/formats/inspect.js";
import { EXIT_STATUS, sweAgentFormat } from "../src/formats/swe-agent.js";
import { NORMAL_ENDS, TERMINATION_STATUS, tau2BenchFormat } from "../src/formats/tau2-bench.js";
import { STEP_LIMIT, tauBenchFormat } from "../src/formats/tau-bench.js";
import { documentOptions, formatFor } from "../src/formats/index.js";
import { readUnits } from "../src/ingest/records/reader.js";
import type { Unit } from "../src/ingest/types.js";
import { cell, denom, FIXTURES, hasShared, REAL, ROOT, tempDir } from "./helpers.js";

type Out = any;
const grid = (out: Out, key: string) => [cell(out, key).successes, cell(out, key).count];
const details = (out: Out) =>
  Object.fromEntries(
    (out.status_detail_counts as { status: string; status_detail: string | null; first: number; final: number }[]).map((d) => [
      `${d.status}/${d.status_detail ?? "-"}`,
      [d.first, d.final],
    ]),
  );

/** Units of a JSON document fed in `chunk`-byte pieces. */
async function units(text: string, chunk: number, containers: string[], skipKeys?: string[]): Promise<Unit[]> {
  const bytes = Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const out: Unit[] = [];
  const reject = (...a: unknown[]) => {
    throw new Error(`unexpected reject ${JSON.stringify(a)}`);
  };
  await readUnits(chunks(), new Set(containers), { unit: (u) => out.push(u), blank: () => {}, reject }, null, skipKeys ? { skipKeys: new Set(skipKeys) } : {});
  return out;
}

describe("reading JSON documents for the harness adapters", () => {
  const doc = JSON.stringify({ version: 2, eval: { model: "m", config: { epochs: [1, 2] } }, samples: [{ id: 1 }, { id: 2 }], after: true }, null, 2);
  const traj = JSON.stringify(
    { environment: "swe_main", trajectory: [{ a: [1, { b: "}" }] }, "x"], history: "long", info: { exit_status: "submitted", n: [1] } },
    null,
    2,
  );

  it("gives each element of a container the keys read before it (the header), at any chunk size", async () => {
    for (let chunk = 1; chunk <= 13; chunk++) {
      const u = await units(doc, chunk, ["samples"]);
      expect(u.map((x) => x.value)).toEqual([{ id: 1 }, { id: 2 }]);
      expect(u[1].header).toEqual({ version: 2, eval: { model: "m", config: { epochs: [1, 2] } } });
    }
  });

  it("skips the named top-level keys of a document read as one record, nested brackets and all", async () => {
    for (let chunk = 1; chunk <= 13; chunk++) {
      const u = await units(traj, chunk, ["samples"], ["trajectory", "history"]);
      expect(u.map((x) => x.value)).toEqual([{ environment: "swe_main", info: { exit_status: "submitted", n: [1] } }]);
    }
    // without the option the record is whole
    expect(Object.keys((await units(traj, 5, ["samples"]))[0].value)).toEqual(["environment", "trajectory", "history", "info"]);
  });
});

describe("tau-bench historical trajectories", () => {
  const adapt = (r: Record<string, unknown>) => {
    const a = tauBenchFormat.adapt(r, { source: "runs/gpt-4o-airline.json" });
    if (!("attempts" in a)) throw new Error(JSON.stringify(a));
    return a.attempts[0];
  };
  const graded = { reward_info: { reward: 0, info: { r_actions: 0 } }, source: "user", user_cost: 0.01 };

  it("is told by its traj, reward and info, before the canonical record", () => {
    const r = { task_id: 3, trial: 1, reward: 1, info: graded, traj: [] };
    expect(formatFor(r)?.name).toBe("tau-bench");
    expect(formatFor({ task_id: 3, status: "success", reward: 1 })?.name).toBe("canonical");
  });

  it("reads reward 1 as a success, and a run without reward_info (the step limit) as a failure with that detail", () => {
    const calls = [{ role: "assistant", tool_calls: [{ id: "a" }, { id: "b" }] }, { role: "tool" }, { role: "assistant", tool_calls: [{ id: "c" }] }];
    expect(adapt({ task_id: 3, trial: 1, reward: 1.0, info: graded, traj: calls })).toMatchObject({
      run_id: "gpt-4o-airline",
      task_id: 3,
      trial: 1,
      attempt: 1,
      status: "success",
      status_detail: null,
      tool_call_count: 3,
    });
    expect(adapt({ task_id: 3, trial: 2, reward: 0.0, info: graded, traj: [] })).toMatchObject({ status: "failure", status_detail: null });
    expect(adapt({ task_id: 3, trial: 0, reward: 0.0, info: { source: "search_direct_flight", user_cost: null, reward_info: null }, traj: [] })).toMatchObject({
      status: "failure",
      status_detail: STEP_LIMIT,
      ended_by: "search_direct_flight",
    });
    expect(tauBenchFormat.adapt({ task_id: 3, reward: "1", info: {}, traj: [] }, { source: "x.json" })).toEqual({
      error: 'reward: expected a number, got "1"',
    });
  });

  describe.skipIf(!hasShared)("gpt-4o airline (../shared/data/real/tau-bench)", () => {
    it("reproduces the published pass^1..4 = 0.420, 0.273, 0.220, 0.200 and shows the 5 step-limit runs", async () => {
      const out = (await denom(["report", "--json", join(REAL, "tau-bench", "gpt-4o-airline.json")])).json();
      // jq: trials with reward 1 per task: c=0 14 tasks, c=1 12, c=2 10, c=3 4, c=4 10 (n = 4 each)
      // pass^1 = (12 + 20 + 12 + 40) / 4 / 50 = 84/200; pass^2 = (10*1 + 4*3 + 10*6) / 6 / 50 = 82/300;
      // pass^3 = (4*1 + 10*4) / 4 / 50 = 44/200; pass^4 = 10/50
      expect(out.pass_at_k.map((p: Out) => [p.k, p.tasks, p.skipped])).toEqual([
        [1, 50, 0],
        [2, 50, 0],
        [3, 50, 0],
        [4, 50, 0],
      ]);
      expect(out.pass_at_k[0].pass_hat_k).toBeCloseTo(84 / 200, 12);
      expect(out.pass_at_k[1].pass_hat_k).toBeCloseTo(82 / 300, 12);
      expect(out.pass_at_k[2].pass_hat_k).toBeCloseTo(44 / 200, 12);
      expect(out.pass_at_k[3].pass_hat_k).toBeCloseTo(10 / 50, 12);
      expect(out.pass_at_k.map((p: Out) => p.pass_hat_k.toFixed(3))).toEqual(["0.420", "0.273", "0.220", "0.200"]);
      // jq: 84 rewards of 1.0, 116 of 0.0; 5 without info.reward_info: (33,0) (2,1) (9,2) (9,3) (46,3)
      expect(out.status_counts.final).toEqual({ success: 84, failure: 116 });
      expect(details(out)).toEqual({ "success/-": [84, 84], "failure/-": [111, 111], [`failure/${STEP_LIMIT}`]: [5, 5] });
      expect(grid(out, "final/total")).toEqual([84, 200]);
      // jq: 1,164 tool calls in the assistant messages of 200 trajectories
      expect(out.efficiency.tool_calls_mean).toBeCloseTo(1164 / 200, 12);
      expect(out.efficiency.cost_usd_total).toBeNull(); // the user simulator's cost is not the agent's
    });
  });
});

describe("tau2-bench results", () => {
  const sim = (termination_reason: string, reward: number | null) => ({
    id: "sim-1",
    task_id: "[x]y",
    trial: 0,
    start_time: "2025-08-10T02:44:06.5",
    end_time: "2025-08-10T02:47:56.8",
    duration: 230.3,
    termination_reason,
    agent_cost: 0.13,
    user_cost: 0.07,
    reward_info: reward === null ? null : { reward },
    seed: 1,
    messages: [
      { role: "assistant", usage: null, tool_calls: null },
      { role: "user", usage: { prompt_tokens: 2000, completion_tokens: 40 } },
      { role: "assistant", usage: { prompt_tokens: 100, completion_tokens: 20 }, tool_calls: [{ id: "t" }] },
    ],
  });
  const header = { timestamp: "t", info: { agent_info: { implementation: "llm_agent", llm: "gpt-4o" } } };
  const adapt = (r: Record<string, unknown>) => {
    const a = tau2BenchFormat.adapt(r, { source: "data/simulations/run-1.json", header });
    if (!("attempts" in a)) throw new Error(JSON.stringify(a));
    return a.attempts[0];
  };

  it("keeps the termination reason as the detail; a normal end lets the reward decide", () => {
    expect(formatFor(sim("user_stop", 1))?.name).toBe("tau2-bench");
    expect(adapt(sim("user_stop", 1))).toMatchObject({
      run_id: "run-1",
      status: "success",
      status_detail: "user_stop",
      score: 1,
      cost_usd: 0.13,
      user_cost_usd: 0.07,
      llm_tokens: 120,
      tool_call_count: 1,
      agent: "llm_agent",
      model: "gpt-4o",
    });
    expect(adapt(sim("agent_stop", 0))).toMatchObject({ status: "failure", status_detail: "agent_stop" });
    expect(adapt(sim("user_stop", null))).toMatchObject({ status: "aborted", grader_error: "no reward_info.reward on a finished simulation" });
  });

  it("maps every other termination reason of tau2's enum as declared", () => {
    const expected: Record<string, string> = {
      max_steps: "failure",
      too_many_errors: "failure",
      agent_error: "failure",
      timeout: "timeout",
      user_error: "aborted",
      infrastructure_error: "aborted",
      context_window_exceeded: "aborted",
      unexpected_error: "aborted",
    };
    for (const [reason, status] of Object.entries(expected)) expect(adapt(sim(reason, 0)), reason).toMatchObject({ status, status_detail: reason });
    expect(Object.keys(TERMINATION_STATUS).sort()).toEqual(Object.keys(expected).sort());
    expect(adapt(sim("went_home", 1)).status).toBe("went_home"); // not in the enum: unrecognized, reported by value
  });

  describe.skipIf(!hasShared)("telecom gpt-4o (../shared/data/real/tau2-bench)", () => {
    it("loads its 20 simulations with their termination reasons as status details", async () => {
      const out = (await denom(["report", "--json", "--by", "model", join(REAL, "tau2-bench")])).json();
      // jq: 20 simulations, all user_stop; rewards 14 x 1.0, 6 x 0.0
      expect(details(out)).toEqual({ "success/user_stop": [14, 14], "failure/user_stop": [6, 6] });
      expect(grid(out, "final/total")).toEqual([14, 20]);
      // start_time and end_time carry no offset: 2 x 20 naive timestamps
      expect(out.accounting.naive_timestamps).toBe(40);
      // jq: sum of agent_cost = 2.1342625 (the user simulator's 1.21 is not counted)
      expect(out.efficiency.cost_usd_total).toBeCloseTo(2.1342625, 9);
      // the model comes from the document's info, read before simulations[]
      expect(out.groups.map((g: Out) => g.value)).toEqual(["gpt-4o"]);
    });
  });
});

describe("SWE-agent .traj", () => {
  const traj = (info: Record<string, unknown>) =>
    JSON.stringify({ environment: "swe_main", trajectory: [{ action: "ls", observation: "a".repeat(5000) }], history: [{ role: "system" }], info }, null, 2);
  const stats = { total_cost: 98.4, instance_cost: 1.5, tokens_sent: 100, tokens_received: 20, api_calls: 3 };

  it("is read from folders: one record per file, task from the file name, run from the submission folder", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub-a", "trajs"), { recursive: true });
    writeFileSync(join(dir, "sub-a", "trajs", "org__repo-1.traj"), traj({ exit_status: "submitted (exit_cost)", submission: "diff", model_stats: stats }));
    writeFileSync(join(dir, "sub-a", "trajs", "org__repo-2.traj"), traj({ exit_status: "exit_cost", model_stats: stats }));
    writeFileSync(join(dir, "sub-a", "trajs", "org__repo-3.traj"), traj({ model_stats: stats }));
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", dir, "--db", db])).code).toBe(0);
    const rows = (
      await denom([
        "query",
        "--db",
        db,
        "--json",
        "SELECT run_id, task_id, format, raw_status, status_detail, cost_usd, llm_tokens FROM attempts ORDER BY task_id",
      ])
    ).json();
    expect(rows).toEqual([
      {
        run_id: "sub-a/trajs",
        task_id: "org__repo-1",
        format: "swe-agent",
        raw_status: "submitted",
        status_detail: "submitted (exit_cost)",
        cost_usd: 1.5,
        llm_tokens: 120,
      },
      { run_id: "sub-a/trajs", task_id: "org__repo-2", format: "swe-agent", raw_status: "failure", status_detail: "exit_cost", cost_usd: 1.5, llm_tokens: 120 },
      {
        run_id: "sub-a/trajs",
        task_id: "org__repo-3",
        format: "swe-agent",
        raw_status: "aborted",
        status_detail: "no_exit_status",
        cost_usd: 1.5,
        llm_tokens: 120,
      },
    ]);
    // beside the canonical fields only what the adapter keeps: no trajectory, no history
    const extra = (await denom(["query", "--db", db, "--json", "SELECT extra FROM attempts ORDER BY task_id LIMIT 1"])).json()[0].extra;
    expect(JSON.parse(extra)).toEqual({ api_calls: 3, has_submission: true });
  });

  it("is streamed without its trajectory and history: the reader skips them for .traj names only", () => {
    expect(documentOptions("runs/sub/trajs/a.traj").skipKeys).toEqual(new Set(["trajectory", "history"]));
    expect(documentOptions("logs.tar.gz!sub/trajs/a.traj.gz").skipKeys?.has("trajectory")).toBe(true);
    expect(documentOptions("runs/results.json").skipKeys).toBeUndefined();
  });

  it("maps exit statuses as declared; a submission has no verdict yet", () => {
    const adapt = (exit_status: string) => {
      const a = sweAgentFormat.adapt({ environment: "e", info: { exit_status, model_stats: stats } }, { source: "s/trajs/i.traj" });
      return "attempts" in a ? a.attempts[0].status : a;
    };
    expect(Object.fromEntries(Object.keys(EXIT_STATUS).map((k) => [k, adapt(k)]))).toEqual({
      submitted: "submitted",
      exit_cost: "failure",
      exit_context: "failure",
      exit_format: "failure",
      exit_error: "aborted",
      early_exit: "aborted",
    });
    expect(adapt("submitted (exit_context)")).toBe("submitted");
    expect(adapt("exit_strange")).toBe("exit_strange"); // unrecognized, reported by value
  });

  describe.skipIf(!hasShared)("multi-swe-bench java trajectories (../shared/data/real)", () => {
    it("loads the 6 .traj files from their folders with their exit statuses as status details", async () => {
      const base = join(REAL, "multi-swe-bench-java");
      const out = (
        await denom([
          "report",
          "--json",
          join(base, "20240825_SWE-agent_gpt-4o-2024-05-13", "trajs"),
          join(base, "20240825_SWE-agent_deepseek-coder-v2", "trajs"),
        ])
      ).json();
      // MAPPING/PROVENANCE: 1142, 1053 submitted; 1309 submitted (exit_cost); dubbo-11781 exit_cost;
      // 1172 no exit_status; deepseek databind-4230 early_exit
      expect(details(out)).toEqual({
        "unrecognized/submitted": [2, 2],
        "unrecognized/submitted (exit_cost)": [1, 1],
        "aborted/early_exit": [1, 1],
        "aborted/no_exit_status": [1, 1],
        "failure/exit_cost": [1, 1],
      });
      expect(out.meta.sources.map((s: Out) => s.records)).toEqual([1, 1, 1, 1, 1, 1]);
      expect(out.meta.runs).toBe(2);
      // jq: instance_cost 1.54238 + 1.28997 + 1.1802 + 1.05679 + 1.5561 + 0.466605
      expect(out.efficiency.cost_usd_total).toBeCloseTo(7.092045, 9);
    });
  });
});

describe("Inspect AI eval log (test/fixtures/inspect/tiny-eval.json, written by hand)", () => {
  const file = join(FIXTURES, "inspect", "tiny-eval.json");

  it("reads epochs as trials, error_retries as earlier attempts, errors and limits as declared", async () => {
    const out = (await denom(["report", "--json", file])).json();
    // 3 samples x 2 epochs; s3 epoch 1 and 2 each retried once after an error: 8 attempts
    expect([out.meta.tasks, out.meta.trials, out.meta.attempts]).toEqual([3, 6, 8]);
    // final: s1/1 C success, s1/2 I failure, 2/1 time limit (timeout), 2/2 message limit (failure),
    // s3/1 success after a retried error, s3/2 error (aborted)
    expect(out.status_counts).toEqual({ first: { aborted: 2, failure: 2, success: 1, timeout: 1 }, final: { failure: 2, success: 2, aborted: 1, timeout: 1 } });
    expect(details(out)).toEqual({
      "aborted/sample_error": [2, 1],
      "failure/-": [1, 1],
      "failure/message_limit": [1, 1],
      "success/-": [1, 2],
      "timeout/time_limit": [1, 1],
    });
    expect(out.transitions.filter((t: Out) => t.first !== t.final)).toEqual([{ first: "aborted", final: "success", count: 1 }]);
    expect(grid(out, "final/total")).toEqual([2, 6]);
    expect(grid(out, "final/attributable")).toEqual([2, 5]); // minus s3/2 (error: environment)
    expect(grid(out, "final/completable")).toEqual([2, 4]); // minus 2/1 (timeout)
    expect(grid(out, "first/attributable")).toEqual([1, 4]); // minus s3/1 and s3/2
    expect(grid(out, "first/completable")).toEqual([1, 3]);
    // the time-limited sample scored C anyway: a late pass, never a success
    expect(out.diagnostics.timeouts_with_passing_score).toBe(1);
    // n = 2 per task; c: s1 1, 2 0, s3 1
    expect(out.pass_at_k.map((p: Out) => [p.k, p.pass_at_k, p.pass_hat_k])).toEqual([
      [1, 1 / 3, 1 / 3],
      [2, 2 / 3, 0],
    ]);
    // eval.config.time_limit on every attempt; tokens on s1/1 (1,200) and s1/2 (900)
    expect(out.meta.timeout_limits).toEqual([{ timeout_limit_s: 300, attempts: 8 }]);
    expect(out.efficiency.llm_tokens_mean).toBe(1050);
  });

  it("takes run and model from the log's eval header", async () => {
    const out = (await denom(["report", "--json", "--by", "model", file])).json();
    expect(out.groups.map((g: Out) => g.value)).toEqual(["openai/gpt-4o"]);
    // one run per eval (eval_id); the invocation (run_id) kept apart; the task id carries the Inspect task
    const a = inspectFormat.adapt(
      { id: 1, epoch: 1, input: "x", target: "y", scores: { s: { value: 0.5 } } },
      { source: "logs/x.json", header: { eval: { eval_id: "E", run_id: "R", task: "t", model: "m" } } },
    );
    expect("attempts" in a && a.attempts[0]).toMatchObject({
      run_id: "E",
      invocation: "R",
      task_id: "t/1",
      model: "m",
      status: "failure",
      score: 0.5,
      trial: 1,
      attempt: 1,
    });
    // a log older than eval_id: run_id/task_id/model names the eval
    const old = inspectFormat.adapt(
      { id: 2, epoch: 1, input: "x", target: "y" },
      { source: "x.json", header: { eval: { run_id: "R", task_id: "T", task: "t", model: "m" } } },
    );
    expect("attempts" in old && old.attempts[0]).toMatchObject({ run_id: "R/T/m", task_id: "t/2", status: "unscored" });
  });

  it("reads scores as Inspect's value_to_float does, and every limit type as declared", () => {
    const status = (sample: Record<string, unknown>) => {
      const a = inspectFormat.adapt({ id: 1, epoch: 1, input: "", target: "", ...sample }, { source: "x.json" });
      return "attempts" in a ? a.attempts[a.attempts.length - 1] : a;
    };
    expect(status({ scores: { a: { value: true } } }).status).toBe("success");
    expect(status({ scores: { a: { value: "P" } } }).status).toBe("failure");
    expect(status({ scores: { a: { value: "yes" } }, extra_scorer: 1 }).status).toBe("success");
    expect(status({ scores: { a: { value: { x: 1 } } } }).status).toBe("unscored");
    expect(status({}).status).toBe("unscored");
    expect(
      Object.fromEntries(Object.keys(LIMIT_STATUS).map((type) => [type, status({ limit: { type, limit: 9 }, scores: { a: { value: "C" } } }).status])),
    ).toEqual({
      time: "timeout",
      working: "timeout",
      operator: "aborted",
      message: "failure",
      token: "failure",
      cost: "failure",
      context: "failure",
      custom: "failure",
    });
    expect(status({ limit: { type: "working", limit: 120 } })).toMatchObject({ status: "timeout", status_detail: "working_limit", timeout_limit_s: 120 });
    // an error wins over a limit
    expect(status({ limit: { type: "time", limit: 9 }, error: { message: "boom" } })).toMatchObject({ status: "aborted", error_message: "boom" });
  });
});

describe("AgentCompass run directories (test/fixtures/agentcompass-run, written by hand from seeds/003)", () => {
  const dir = join(FIXTURES, "agentcompass-run");

  it("places each result by its folder: attempt-<n> is a trial, retries/ its earlier attempts", async () => {
    const out = (await denom(["report", "--json", join(dir, "ac-run")])).json();
    // t1..t9; t8 has two logical attempts: 10 trials; t3 3 executions, t7 2, t9 2: 14 attempts
    expect([out.meta.tasks, out.meta.trials, out.meta.attempts]).toEqual([9, 10, 14]);
    // final: success t1, t8/1, t9; failure t2 (warning only, correct=false), t4 (evaluation timeout,
    // correct=false), t6 (harness_max_iterations), t8/2; aborted t3 (FATAL setup), t7 (judge FATAL);
    // timeout t5 (model_timeout, correct=true: a late pass). First: t9's retry hit a FATAL.
    expect(details(out)).toEqual({
      "aborted/environment_failed": [1, 1],
      "aborted/grader_error": [1, 1],
      "aborted/sandbox_lost": [1, 0],
      "failure/-": [3, 3],
      "failure/harness_max_iterations": [1, 1],
      "success/-": [2, 3],
      "timeout/model_timeout": [1, 1],
    });
    expect(grid(out, "final/total")).toEqual([3, 10]);
    expect(grid(out, "final/attributable")).toEqual([3, 8]); // minus t3, t7
    expect(grid(out, "final/completable")).toEqual([3, 7]); // minus t5
    expect(grid(out, "first/attributable")).toEqual([2, 7]); // minus t3, t7, t9
    // attempts: t7's judge failed on its retry and on its final attempt; t5 passed after its timeout
    expect(out.diagnostics).toMatchObject({ grader_errors: 2, timeouts_with_passing_score: 1 });
    expect(out.meta.retry_policy.max_attempts).toBe(3);
  });

  it("prints AgentCompass's own verdict beside the grid: no formal score after a final FATAL, only a reference value", async () => {
    const out = (await denom(["report", "--json", dir])).json();
    // ac-run: t3 and t7 invalidated (2 trials); t6 has no grade (unavailable); evaluated t1 pass, t2 fail,
    // t4 fail, t5 pass (correct=true after its timeout), t8/1 pass, t8/2 fail, t9 pass: 4/7.
    // ERROR on the final attempt: t4, t5, t6. ac-run-ok: u2's FATAL was retried away: formal 1/2.
    expect(out.agentcompass_verdict).toEqual([
      {
        run_id: "ac-run",
        evaluation_failed: true,
        value: null,
        reference_value: 4 / 7,
        tasks: 9,
        tasks_invalidated: 2,
        trials: 10,
        evaluated: 7,
        unavailable: 1,
        invalidated: 2,
        errors: 3,
        passes: 4,
      },
      {
        run_id: "ac-run-ok",
        evaluation_failed: false,
        value: 0.5,
        reference_value: null,
        tasks: 2,
        tasks_invalidated: 0,
        trials: 2,
        evaluated: 2,
        unavailable: 0,
        invalidated: 0,
        errors: 0,
        passes: 1,
      },
    ]);
    const text = (await denom(["report", dir])).stdout;
    expect(text).toContain(
      "  ac-run: evaluation failed, no formal value (2 of 9 tasks invalidated); reference value 4/7 57.1% over the evaluated trials of the tasks left\n" +
        "    10 trials = 7 evaluated + 1 unavailable (no grade) + 2 invalidated; 3 ended on an ERROR\n" +
        "  ac-run-ok: formal value 1/2 50.0% over the evaluated trials\n",
    );
    const md = (await denom(["report", "--format", "md", dir])).stdout;
    expect(md).toContain(
      "- ac-run-ok: formal value 1/2 50.0% over the evaluated trials\n  - 2 trials = 2 evaluated + 0 unavailable (no grade) + 0 invalidated; 0 ended on an ERROR\n",
    );
    // no AgentCompass attempts: no verdict
    const plain = (await denom(["report", "--json", join(ROOT, "samples", "seed-100.jsonl")])).json();
    expect(plain.agentcompass_verdict).toEqual([]);
  });
});

describe("docs/inputs.md", () => {
  const readme = readFileSync(join(ROOT, "docs", "inputs.md"), "utf8");
  it("shows each adapter's declared status mapping", () => {
    for (const [reason, status] of Object.entries(TERMINATION_STATUS)) expect(readme).toContain(`| \`${reason}\` | ${status} |`);
    for (const reason of NORMAL_ENDS) expect(readme).toContain(`\`${reason}\``);
    for (const [exit, status] of Object.entries(EXIT_STATUS)) expect(readme).toContain(`| \`${exit}\` | ${status} |`);
    // Inspect's limits: docs/formats/inspect.md
    const inspectDoc = readFileSync(join(ROOT, "docs", "formats", "inspect.md"), "utf8");
    for (const [type, status] of Object.entries(LIMIT_STATUS)) expect(inspectDoc).toContain(`| \`${type}\` | ${status} |`);
  });
});
