/**
 * denom compare and denom gate (DESIGN section 11). Every expected value is
 * worked out by hand from the records written here, from ../shared/cases-compare, or
 * counted with jq on the Terminal-Bench 1 records of ../shared/data/real (read in place:
 * their PROVENANCE.md names no licence, so nothing is copied into fixtures).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, hasShared, jsonl, REAL, SHARED, tempDir } from "./helpers.js";

const FLIP = join(SHARED, "cases-compare", "compare-flip");
const CLUSTERED = join(SHARED, "cases-compare", "compare-clustered");
const SEED = join(SHARED, "cases-compare", "gate-seed-100", "attempts.jsonl");
const hasCases = hasShared;

type Cell = { basis: string; denominator: string; [k: string]: any };
const cellOf = (out: { cells: Cell[] }, key: string) => {
  const [basis, denominator] = key.split("/");
  return out.cells.find((c) => c.basis === basis && c.denominator === denominator)!;
};

describe("compare: two inputs, each its own session", () => {
  // A: t1 success, t2 success, t3 failure; B: t2 failure, t3 success, t4 success. No run_id
  // on either side: loaded into one session, t2 and t3 of B would collapse with A's as
  // duplicates of the default run; compare keeps them apart.
  // Common tasks t2, t3; only A t1, only B t4. final/total: A 1/2 (t2), B 1/2 (t3);
  // d = (-1, +1): difference 0, sd = sqrt(((-1)^2 + 1^2) / 1) = sqrt 2, se = sqrt2 / sqrt2 = 1,
  // ci95 = 0 +- 1.959964; McNemar b = 1, c = 1: p = min(1, 2 (C(2,0) + C(2,1)) / 4) = 1;
  // tasks_needed null (difference 0); mde80 = (1.959964 + 0.841621) x 1 = 2.801585.
  const dir = tempDir({
    "a.jsonl": jsonl({ task_id: "t1", status: "success" }, { task_id: "t2", status: "success" }, { task_id: "t3", status: "failure" }),
    "b.jsonl": jsonl({ task_id: "t2", status: "failure" }, { task_id: "t3", status: "success" }, { task_id: "t4", status: "success" }),
  });

  it("lists the unpaired tasks and pairs only the common ones", async () => {
    const r = await denom(["compare", "--json", join(dir, "a.jsonl"), join(dir, "b.jsonl")]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.coverage).toMatchObject({ common_tasks: 2, only_baseline: 1, only_candidate: 1, only_baseline_tasks: ["t1"], only_candidate_tasks: ["t4"] });
    const c = cellOf(out, "final/total");
    expect(c).toMatchObject({
      tasks: 2,
      baseline: { successes: 1, count: 2 },
      candidate: { successes: 1, count: 2 },
      difference: 0,
      test: "mcnemar_exact",
      p_value: 1,
      tasks_needed: null,
    });
    expect(c.discordant).toEqual({ baseline_only: 1, candidate_only: 1 });
    expect(c.se).toBeCloseTo(1, 9);
    expect(c.ci95[0]).toBeCloseTo(-1.959964, 5);
    expect(c.ci95[1]).toBeCloseTo(1.959964, 5);
    expect(c.mde80).toBeCloseTo(2.801585, 5);
    expect(out.ranking_flips).toBe(false);
  });

  it("gives every figure to the last bit whatever order the records come in (means and variance over tasks as DECIMAL sums)", async () => {
    // 200 tasks, task i with 1 + (i mod 7) trials on each side: 28 cycles of 1..7 (28 x 28 = 784)
    // and 1 + 2 + 3 + 4 = 10, so 794 trials a side; shares like 2/7 and 1/3 whose DOUBLE sum
    // depends on the order of summation (the build before this test gave 59 numbers that differed).
    const side = (seed: number) =>
      Array.from({ length: 200 }, (_, i) =>
        Array.from({ length: 1 + (i % 7) }, (_, k) => ({ task_id: `t${i}`, trial: k, status: (i * 31 + k * 17 + seed) % 5 < 2 ? "success" : "failure" })),
      ).flat();
    const shuffled = <T>(rows: T[], seed: number) => {
      const out = rows.slice();
      let x = seed;
      for (let i = out.length - 1; i > 0; i--) {
        x = (x * 1103515245 + 12345) % 2147483648;
        const j = x % (i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    const a = side(1);
    const b = side(3);
    const d1 = tempDir({ "a.jsonl": jsonl(...a), "b.jsonl": jsonl(...b) });
    const d2 = tempDir({ "a.jsonl": jsonl(...shuffled(a, 7)), "b.jsonl": jsonl(...shuffled(b, 9)) });
    const r1 = await denom(["compare", "--json", join(d1, "a.jsonl"), join(d1, "b.jsonl")]);
    const r2 = await denom(["compare", "--json", join(d2, "a.jsonl"), join(d2, "b.jsonl")]);
    expect(r1.code).toBe(0);
    expect(r2.code).toBe(0);
    expect(cellOf(r1.json(), "final/total")).toMatchObject({ tasks: 200, baseline: { count: 794 }, candidate: { count: 794 } });
    expect(r2.json().cells).toEqual(r1.json().cells);
    expect(r2.json().cost_per_success).toEqual(r1.json().cost_per_success);
  });

  it("lists every unpaired task past one chunk of DuckDB's rows (2,048), each side's in order", async () => {
    // A: c (common), a0000..a2999 (3,000 only on A); B: c, b0000..b2099 (2,100 only on B).
    // Written in reverse order: the lists come back sorted by name all the same.
    const name = (p: string, i: number) => `${p}${String(i).padStart(4, "0")}`;
    const side = (p: string, n: number) =>
      jsonl({ task_id: "c", status: "success" }, ...Array.from({ length: n }, (_, i) => ({ task_id: name(p, n - 1 - i), status: "failure" })));
    const big = tempDir({ "a.jsonl": side("a", 3000), "b.jsonl": side("b", 2100) });
    const r = await denom(["compare", "--json", join(big, "a.jsonl"), join(big, "b.jsonl")]);
    expect(r.code).toBe(0);
    const cov = r.json().coverage;
    expect(cov).toMatchObject({ common_tasks: 1, only_baseline: 3000, only_candidate: 2100 });
    expect(cov.only_baseline_tasks).toEqual(Array.from({ length: 3000 }, (_, i) => name("a", i)));
    expect(cov.only_candidate_tasks).toEqual(Array.from({ length: 2100 }, (_, i) => name("b", i)));
  });
});

describe.skipIf(!hasCases)("compare on the shared cases (../shared/cases-compare)", () => {
  it("says the ranking flip in a sentence, with what A lost", async () => {
    // compare-flip: final/total +3/12 = +25.0 points; final/attributable keeps t01-t06 only
    // (A's t07-t12 are external API errors): 4/6 - 6/6 = -33.3 points
    const r = await denom(["compare", join(FLIP, "baseline.jsonl"), join(FLIP, "candidate.jsonl")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("B leads on final/total (+25.0 points) but trails on final/attributable (-33.3 points): A lost 6 trials to an external API.");
    expect(r.stdout).toContain("Coverage: 12 tasks on both sides (paired), 0 only on A, 0 only on B");
    // discordant on final/total: t05, t06 (A passed, B failed) and t07-t11 (the reverse)
    expect(r.stdout).toContain("Discordant tasks (final/total): 7");
  });

  it("z test p-value: 2 (1 - Phi(|d| / se)) on the clustered case", async () => {
    // d per task = (0, 2/3, 1/3, 0): mean 0.25, var = (0.0625 + 0.17361 + 0.00694 + 0.0625) / 3
    // = 0.101852, se = sqrt(0.101852 / 4) = 0.159571; z = 1.56670, p = erfc(z / sqrt 2) = 0.117185
    const r = await denom(["compare", "--json", join(CLUSTERED, "baseline.jsonl"), join(CLUSTERED, "candidate.jsonl")]);
    const c = cellOf(r.json(), "final/total");
    expect(c.test).toBe("z");
    expect(c.p_value).toBeCloseTo(0.117185, 5);
    // u2 and u3: B's share higher; u1, u4 equal
    expect(c.discordant).toEqual({ baseline_only: 0, candidate_only: 2 });
  });

  it("--by agent --baseline agent-a gives the figures of the two inputs", async () => {
    const both = readFileSync(join(FLIP, "baseline.jsonl"), "utf8") + readFileSync(join(FLIP, "candidate.jsonl"), "utf8");
    const dir = tempDir({ "both.jsonl": both });
    const r = await denom(["compare", "--json", join(dir, "both.jsonl"), "--by", "agent", "--baseline", "agent-a"]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.comparisons).toHaveLength(1);
    const c = out.comparisons[0];
    expect(c.baseline.label).toBe("agent=agent-a");
    expect(c.candidate.label).toBe("agent=agent-b");
    // as in expected.json of compare-flip, worked out from DESIGN section 11
    const total = cellOf(c, "final/total");
    expect(total).toMatchObject({ tasks: 12, baseline: { successes: 6, count: 12 }, candidate: { successes: 9, count: 12 }, difference: 0.25 });
    // McNemar b = 2, c = 5: 2 (C(7,0) + C(7,1) + C(7,2)) / 2^7 = 2 x 29 / 128 (log-gamma terms: not to the last bit)
    expect(total.p_value).toBeCloseTo(0.453125, 12);
    expect(cellOf(c, "final/attributable")).toMatchObject({ tasks: 6, discordant: { baseline_only: 2, candidate_only: 0 } });
    expect(c.ranking_flips).toBe(true);
  });

  it("--format md prints a table a pull request can show", async () => {
    const r = await denom(["compare", "--format", "md", join(FLIP, "baseline.jsonl"), join(FLIP, "candidate.jsonl")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("| final/total | 12 | 6/12 50.0% | 9/12 75.0% | 50.0% | 75.0% | +25.0 | [-17.6, +67.6] | McNemar exact | 0.453 | 61.0 | 72 |");
  });

  it("prints each side's fraction beside its own share, and the mean of per-task shares apart, labelled", async () => {
    // t1: A 1 of 2 trials, B 2 of 2; t2: A 1 of 1, B 0 of 1.
    // A: 2/3 = 66.7% of its trials, mean of shares (0.5 + 1) / 2 = 75.0%;
    // B: 2/3 = 66.7%, mean (1 + 0) / 2 = 50.0%; B - A = mean(0.5, -1) = -25.0 points
    const row = (task_id: string, trial: number, status: string) => ({ task_id, trial, status });
    const dir = tempDir({
      "a.jsonl": jsonl(row("t1", 0, "success"), row("t1", 1, "failure"), row("t2", 0, "success")),
      "b.jsonl": jsonl(row("t1", 0, "success"), row("t1", 1, "success"), row("t2", 0, "failure")),
    });
    const text = await denom(["compare", join(dir, "a.jsonl"), join(dir, "b.jsonl")]);
    const line = text.stdout.split("\n").find((l) => l.trim().startsWith("final/total"))!;
    expect(
      line
        .trim()
        .split(/\s{2,}/)
        .slice(0, 7),
    ).toEqual(["final/total", "2", "2/3 66.7%", "2/3 66.7%", "75.0%", "50.0%", "-25.0"]);
    expect(text.stdout).toContain("A mean, B mean: the mean over tasks of each task's share, which B - A compares");
    const out = (await denom(["compare", "--json", join(dir, "a.jsonl"), join(dir, "b.jsonl")])).json();
    const total = cellOf(out, "final/total");
    expect(total.baseline).toEqual({ successes: 2, count: 3, rate: 0.75, trial_rate: 2 / 3 });
    expect(total.candidate).toEqual({ successes: 2, count: 3, rate: 0.5, trial_rate: 2 / 3 });
    expect(total.difference).toBe(-0.25);
  });
});

describe("compare --by: each group's cost per solved task", () => {
  // agent A: t1 success ($1), t2 success ($3); agent B: t1 failed ($2), then its attempt 2
  // passed ($2), t2 success ($1). Final basis, paired tasks t1 and t2, every denominator the
  // same (nothing is removed): A $4 / 2 solved = $2, B ($2 + $2 + $1) / 2 = $2.50, B - A $0.50
  const file = join(
    tempDir({
      "runs.jsonl": jsonl(
        { run_id: "r1", agent: "A", task_id: "t1", attempt: 1, status: "success", cost_usd: 1 },
        { run_id: "r1", agent: "A", task_id: "t2", attempt: 1, status: "success", cost_usd: 3 },
        { run_id: "r2", agent: "B", task_id: "t1", attempt: 1, status: "failure", cost_usd: 2 },
        { run_id: "r2", agent: "B", task_id: "t1", attempt: 2, status: "success", cost_usd: 2 },
        { run_id: "r2", agent: "B", task_id: "t2", attempt: 1, status: "success", cost_usd: 1 },
      ),
    }),
    "runs.jsonl",
  );

  it("sums every attempt of a group's kept trials over its final successes", async () => {
    const out = (await denom(["compare", "--json", "--by", "agent", "--baseline", "A", file])).json();
    const total = out.comparisons[0].cost_per_success.find((c: { denominator: string }) => c.denominator === "total");
    expect(total).toMatchObject({
      tasks: 2,
      baseline: { successes: 2, cost_usd: 4, cost_missing_attempts: 0, cost_per_success_usd: 2 },
      candidate: { successes: 2, cost_usd: 5, cost_missing_attempts: 0, cost_per_success_usd: 2.5 },
      difference_usd: 0.5,
    });
  });
});

describe("compare --fail-if-worse", () => {
  // A passes all 10 tasks, B fails all 10: d = -1 on every task, var 0, se 0, ci95 [-1, -1];
  // McNemar b = 10, c = 0: p = 2 C(10,0) / 2^10 = 0.001953125
  const ids = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const dir = tempDir({
    "a.jsonl": jsonl(...ids.map((task_id) => ({ task_id, status: "success" }))),
    "b.jsonl": jsonl(...ids.map((task_id) => ({ task_id, status: "failure" }))),
  });

  it("exits 4 when the candidate's interval lies below 0, and still prints the result", async () => {
    const r = await denom(["compare", "--json", join(dir, "a.jsonl"), join(dir, "b.jsonl"), "--fail-if-worse", "final/total"]);
    expect(r.code).toBe(4);
    const out = r.json();
    expect(cellOf(out, "final/total")).toMatchObject({
      difference: -1,
      se: 0,
      ci95: [-1, -1],
      p_value: 0.001953125,
      discordant: { baseline_only: 10, candidate_only: 0 },
    });
    expect(out.fail_if_worse).toEqual({
      cell: "final/total",
      worse: true,
      ci95: [-1, -1],
      verdict: "worse",
      tasks: 10,
      min_tasks: 2,
      empty_side: null,
      strict_failed: false,
      inconclusive_fails: false,
      failed: true,
    });
    expect(r.stderr).toContain("--fail-if-worse final/total");
  });

  it("exits 0 the other way round", async () => {
    const r = await denom(["compare", "--json", join(dir, "b.jsonl"), join(dir, "a.jsonl"), "--fail-if-worse", "final/total"]);
    expect(r.code).toBe(0);
  });

  it("usage errors name the flag", async () => {
    expect((await denom(["compare", join(dir, "a.jsonl")])).code).toBe(2);
    expect((await denom(["compare", join(dir, "a.jsonl"), join(dir, "b.jsonl"), "--fail-if-worse", "final/everything"])).stderr).toContain(
      "--fail-if-worse final/everything",
    );
    const noBaseline = await denom(["compare", join(dir, "a.jsonl"), "--by", "agent"]);
    expect(noBaseline.code).toBe(2);
    expect(noBaseline.stderr).toContain("--baseline");
  });
});

describe.skipIf(!hasShared)("compare two Terminal-Bench 1 agents on the same 80 tasks (../shared/data/real, read in place)", () => {
  // A = swe-agent-mini / claude-4-sonnet, run 2025-08-15__16-23-45 (80 trials, one per task);
  // B = Orchestrator / claude-4-sonnet (400 trials, 5 per task). Counted with jq (success =
  // is_resolved true and failure_mode not agent_timeout: an agent timeout that passed is a
  // late pass, a timeout, DESIGN section 3):
  //   def succ: (.is_resolved == true and .failure_mode != "agent_timeout");
  //   A: .results | map({key: .task_id, value: (if succ then 1 else 0 end)}) | from_entries
  //   B: .results | group_by(.task_id) | map({key: .[0].task_id, value: (map(select(succ)) | length)})
  // Both files hold the same 80 task ids (80 common, 0 only on either side); every B task
  // has n = 5 trials. A succeeds on 12 tasks, B on 117 of 400 trials.
  // d_t = s_B/5 - s_A; k_t = 5 d_t takes -5 x2, -4 x3, -2 x2, -1 x3, 0 x38, 1 x11, 2 x5, 3 x4,
  // 4 x7, 5 x5: sum k = 57, sum k^2 = 413. difference = 57 / 400 = 0.1425;
  // var(d) = (413/25 - 80 x 0.1425^2) / 79 = 0.188551, se = sqrt(0.188551 / 80) = 0.0485477;
  // tasks_needed = ceil(2.801585^2 x 0.188551 / 0.1425^2) = ceil(72.88) = 73.
  // Discordant: A's share higher on 10 tasks (k < 0), B's on 32 (k > 0). Several trials on
  // B's side, so the test is z: p = erfc(0.1425 / 0.0485477 / sqrt 2) = 0.0033327.
  // final/attributable: B's 10 unknown_agent_error trials (jq: select(.failure_mode ==
  // "unknown_agent_error"), none resolved) leave, 390 trials; A has none.
  const tb = join(REAL, "terminal-bench-1");
  const A = join(tb, "20250825_swe-agent-mini_claude-4-sonnet", "2025-08-15__16-23-45", "results.json");
  const B = join(tb, "20250902_orchestrator_claude-4-sonnet", "results.json");

  it("pairs the 80 tasks and gets the difference, se, discordant counts and test by hand", async () => {
    const r = await denom(["compare", "--json", A, B]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.coverage).toMatchObject({ common_tasks: 80, only_baseline: 0, only_candidate: 0, baseline_trials: 80, candidate_trials: 400 });
    const c = cellOf(out, "final/total");
    expect(c).toMatchObject({ tasks: 80, baseline: { successes: 12, count: 80 }, candidate: { successes: 117, count: 400 }, test: "z", tasks_needed: 73 });
    expect(c.discordant).toEqual({ baseline_only: 10, candidate_only: 32 });
    expect(c.difference).toBeCloseTo(0.1425, 9);
    expect(c.se).toBeCloseTo(0.0485477, 6);
    expect(c.p_value).toBeCloseTo(0.0033327, 6);
    expect(cellOf(out, "final/attributable")).toMatchObject({ tasks: 80, baseline: { count: 80 }, candidate: { successes: 117, count: 390 } });
    expect(out.discordant_tasks).toHaveLength(42);
    expect(out.attribution.candidate.environment_failures).toBe(10);
  });
});

describe.skipIf(!hasCases)("gate", () => {
  // seed-100 (DESIGN section 4): final/total 82/100; 9 trials end in a timeout; 6 trials hit
  // the external API twice (final fault environment); no cost recorded; no grader error
  it("prints one line per condition with its value and exits 4 when one fails", async () => {
    const r = await denom([
      "gate",
      SEED,
      "--min",
      "final/total=80%",
      "--max",
      "timeout_rate=0.05",
      "--max",
      "environment_share=0.06",
      "--max",
      "grader_errors=0",
      "--max",
      "cost_per_success=1",
    ]);
    expect(r.code).toBe(4);
    expect(r.stdout.split("\n").slice(0, 5)).toEqual([
      "ok   final/total = 82.0% (82/100), min 80.0%",
      "FAIL timeout_rate = 9.0% (9/100), max 5.0%",
      "ok   environment_share = 6.0% (6/100), max 6.0%",
      "ok   grader_errors = 0, max 0",
      "FAIL cost_per_success = n/a, max $1.0000: n/a never passes",
    ]);
  });

  it("--json: {passed, conditions [{condition, value, passed}]}, exit 0 when all hold", async () => {
    const r = await denom(["gate", "--json", SEED, "--min", "first/attributable=0.77"]);
    expect(r.code).toBe(0);
    // first/attributable = 70/90 = 0.7778 (DESIGN section 4)
    expect(r.json()).toMatchObject({ passed: true, conditions: [{ condition: "first/attributable >= 0.77", passed: true, numerator: 70, denominator: 90 }] });
  });

  it("rejects unknown figures and values, naming the flag", async () => {
    const bad = await denom(["gate", SEED, "--max", "latency=3"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max latency=3");
    expect((await denom(["gate", SEED, "--min", "final/total=high"])).code).toBe(2);
    expect((await denom(["gate", SEED])).code).toBe(2);
  });
});
