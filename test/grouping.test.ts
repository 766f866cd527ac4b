/**
 * Grouping instead of pooling (DESIGN section 4, "Pooling"): inputs that hold
 * several agents, models, benchmarks, or runs that name no model, give each
 * group its own figure to quote in report, audit, export and the HTML page;
 * `--pool` gives the one pooled figure and says what it pools. audit matches a
 * claim within one group only, at any precision, and `M ± S` claims by their
 * standard error too. Every count below is worked out from the records the
 * test writes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseClaim, toNumber } from "../src/formats/claims.js";
import { denom, hasShared, jsonl, REAL, tempDir } from "./helpers.js";

/** Agent a passes t1..t20 of 30 tasks, agent b t1..t10; no run_id: each agent's default run. */
function twoAgents(): string {
  const records: object[] = [];
  for (const agent of ["a", "b"])
    for (let i = 1; i <= 30; i++) records.push({ task_id: `t${i}`, agent, status: i <= (agent === "a" ? 20 : 10) ? "success" : "failure" });
  return join(tempDir({ "ab.jsonl": jsonl(...records) }), "ab.jsonl");
}

type Cell = { basis: string; denominator: string; successes: number; count: number };
const strict = (rates: Cell[]) => {
  const c = rates.find((r) => r.basis === "final" && r.denominator === "total");
  return `${c?.successes}/${c?.count}`;
};

describe("report groups what varies", () => {
  it("gives two agents in one file a figure each, and quotes none for both", async () => {
    const file = twoAgents();
    const r = await denom(["report", "--json", file]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.by).toBe("identity");
    expect(out.groups.map((g: { value: string; rates: Cell[] }) => [g.value, strict(g.rates)])).toEqual([
      ["agent a", "20/30"],
      ["agent b", "10/30"],
    ]);
    expect(out.meta.grouping).toEqual({ figure_to_quote: "each_group", pool: false, groups: 2 });
    // the pooled cells stay in rates, over all 60 trials, and are quoted for no one
    expect(strict(out.rates)).toBe("30/60");
    expect(r.stderr).toBe(
      "denom: warning: the inputs hold 2 agents (trials: a 30, b 30): each group has its own figure, none is quoted for all; --pool pools them\n",
    );

    const text = (await denom(["report", file])).stdout;
    expect(text).toContain("Success rate, all 2 groups pooled: successes/trials, first try and final");
    expect(text).toContain(`* no figure for all 2 groups: each group's final/total, marked * under\n    "By identity", is its figure to quote`);
    expect(text).toMatch(/final\/total \*\s+20\/30 66\.7%\s+10\/30 33\.3%/);
    // no star in the pooled grid
    expect(text).not.toMatch(/total\s+30\/60.*\*/);
    // the groups come before the status counts, right after the pooled grid
    expect(text.indexOf("By identity")).toBeLessThan(text.indexOf("Trials by status"));
  });

  it("pools them under --pool and says what it pools", async () => {
    const r = await denom(["report", "--json", "--pool", twoAgents()]);
    const out = r.json();
    expect(out.by).toBeNull();
    expect(out.groups).toEqual([]);
    expect(out.meta.grouping).toEqual({ figure_to_quote: "overall", pool: true, groups: 0 });
    expect(strict(out.rates)).toBe("30/60");
    expect(r.stderr).toBe("denom: warning: the figure pools 2 agents (trials: a 30, b 30), as --pool asks\n");
  });

  it("quotes each group of a --by that splits what varies, and none of one that does not", async () => {
    const file = twoAgents();
    const byAgent = (await denom(["report", "--json", "--by", "agent", file])).json();
    expect(byAgent.meta.grouping.figure_to_quote).toBe("each_group");
    expect(byAgent.groups.map((g: { value: string }) => g.value)).toEqual(["a", "b"]);
    // --by run_id: both runs are default runs, one per agent: the split is by run, which is not agent
    const other = await denom(["report", "--by", "difficulty", file]);
    expect(other.stdout).toContain("! no figure to quote: each group of --by difficulty still pools what the\n    warnings above name");
    expect(other.stderr).toContain("each group of --by difficulty pools 2 agents (trials: a 30, b 30); --by agent splits them");
  });

  it("makes each run that names no model its own group, beside another of the same agent", async () => {
    // agent x, no model: run r1 passes 1 of 4 tasks, run r2 3 of 4
    const records = ["r1", "r2"].flatMap((run_id) =>
      [1, 2, 3, 4].map((i) => ({ run_id, agent: "x", task_id: `t${i}`, status: i <= (run_id === "r1" ? 1 : 3) ? "success" : "failure" })),
    );
    const file = join(tempDir({ "runs.jsonl": jsonl(...records) }), "runs.jsonl");
    const r = await denom(["report", "--json", file]);
    expect(r.json().groups.map((g: { value: string; rates: Cell[] }) => [g.value, strict(g.rates)])).toEqual([
      ["run r1", "1/4"],
      ["run r2", "3/4"],
    ]);
    expect(r.stderr).toContain("the inputs hold 2 runs that name no model (trials: r1 4, r2 4): each run is its own group (nothing says they are one model)");

    // audit: 0.5 is the pooled 4/8 and the mean of the two runs, no group's figure
    const audit = await denom(["audit", "--json", file, "--claim", "0.5"]);
    expect(audit.code).toBe(3);
    expect(audit.json().group_strict).toEqual([
      { group: "run r1", successes: 1, count: 4, rate: 0.25 },
      { group: "run r2", successes: 3, count: 4, rate: 0.75 },
    ]);
    const pooled = await denom(["audit", "--json", "--pool", file, "--claim", "0.5"]);
    expect(pooled.code).toBe(0);
    expect(pooled.json().matches[0]).toMatchObject({ group: null, successes: 4, count: 8, aggregation: "pooled" });
    const one = (await denom(["audit", "--json", file, "--claim", "0.75"])).json();
    expect(one.reproduced).toBe(true);
    expect(one.matches[0]).toMatchObject({ group: { by: "group", value: "run r2" }, successes: 3, count: 4 });
  });

  it("gives a trial whose records two formats read the benchmark of its record read first", async () => {
    // t1: a canonical attempt 1 (kept over the summary's copy of attempt 1: it has an ended_at)
    // and the summary's attempt 2; t2: the summary's alone. Read first, the canonical file makes
    // t1 canonical's: two benchmarks of a trial each. Read second, t1 is the summary's: one.
    const attempt = jsonl({ task_id: "t1", attempt: 1, status: "failure", ended_at: "2025-01-01T00:00:00Z" });
    const summary = jsonl(
      { task_id: "t1", first_status: "failure", final_status: "success", attempts: 2 },
      { task_id: "t2", first_status: "success", final_status: "success", attempts: 1 },
    );
    const benchmarks = async (files: Record<string, string>) =>
      (await denom(["report", "--json", tempDir(files)])).json().meta.pooling.map((p: { dimension: string; groups: object[] }) => [p.dimension, p.groups]);
    expect(await benchmarks({ "a.jsonl": attempt, "b.jsonl": summary })).toEqual([
      [
        "benchmark",
        [
          { value: "canonical", trials: 1 },
          { value: "task-summary", trials: 1 },
        ],
      ],
    ]);
    expect(await benchmarks({ "a.jsonl": summary, "b.jsonl": attempt })).toEqual([]);
  });

  it("lists seven or more groups one a row, each named in a legend", async () => {
    // agent x, no model, seven runs of task t1: r1..r3 pass, r4..r7 fail
    const records = [1, 2, 3, 4, 5, 6, 7].map((i) => ({ run_id: `r${i}`, agent: "x", task_id: "t1", status: i <= 3 ? "success" : "failure" }));
    const file = join(tempDir({ "runs.jsonl": jsonl(...records) }), "runs.jsonl");
    const text = (await denom(["report", file])).stdout;
    expect(text).toContain("By identity: 7 groups, one a row (--json has every figure of each)");
    expect(text).toMatch(/\(3\)\s+1\s+1\/1 100\.0%\s+1\/1 100\.0%\s+1\/1 100\.0%/);
    expect(text).toMatch(/\(4\)\s+1\s+0\/1 0\.0%\s+0\/1 0\.0%\s+0\/1 0\.0%/);
    expect(text).toContain("  (7) run r7");
    expect(text).toContain("final/total *");
  });

  it("carries the warning and the groups into markdown, HTML and export", async () => {
    const file = twoAgents();
    const md = (await denom(["report", "--format", "md", file])).stdout;
    expect(md).toContain(
      "> **Warning:** the inputs hold 2 agents (trials: a 30, b 30): each group has its own figure, none is quoted for all; --pool pools them",
    );
    const html = (await denom(["report", "--format", "html", "-o", "-", file])).stdout;
    expect(html).toContain("the inputs hold 2 agents (trials: a 30, b 30): each group has its own figure, none is quoted for all; --pool pools them");
    expect(html).toContain("per group: agent a: 20/30 66.7%; agent b: 10/30 33.3%");
    const dir = tempDir();
    const out = join(dir, "rates.csv");
    expect((await denom(["export", file, "--what", "rates", "-o", out])).code).toBe(0);
    const rows = readFileSync(out, "utf8").trim().split("\n");
    expect(rows[0].startsWith("group,basis,denominator,successes,count")).toBe(true);
    // 8 cells per group, 2 groups
    expect(rows.length - 1).toBe(16);
    expect(rows).toContain(rows.find((l) => l.startsWith("agent b,final,total,10,30,")));
    const meta = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    expect(meta.export.by).toBe("identity");
    expect(meta.meta.grouping).toEqual({ figure_to_quote: "each_group", pool: false, groups: 2 });
  });
});

describe("each group's attempt-level figures are its own attempts'", () => {
  // agent A: t1 success in 100 s (llm_call ok, ok), t2 timeout at its 300 s limit (ok,
  // timeout); agent B: t1 failure in 50 s (ok), t2 success in 200 s (timeout, ok)
  const file = () =>
    join(
      tempDir({
        "g.jsonl": jsonl(
          { run_id: "r1", agent: "A", task_id: "t1", attempt: 1, status: "success", ...span(100), events: calls("ok", "ok") },
          { run_id: "r1", agent: "A", task_id: "t2", attempt: 1, status: "timeout", timeout_limit_s: 300, ...span(300), events: calls("ok", "timeout") },
          { run_id: "r2", agent: "B", task_id: "t1", attempt: 1, status: "failure", ...span(50), events: calls("ok") },
          { run_id: "r2", agent: "B", task_id: "t2", attempt: 1, status: "success", ...span(200), events: calls("timeout", "ok") },
        ),
      }),
      "g.jsonl",
    );
  function span(seconds: number) {
    return { started_at: "2025-01-01T00:00:00Z", ended_at: new Date(Date.parse("2025-01-01T00:00:00Z") + seconds * 1000).toISOString() };
  }
  function calls(...statuses: string[]) {
    return statuses.map((status, i) => ({ ts: `2025-01-01T00:00:0${i + 1}Z`, type: "llm_call", status }));
  }

  it("counts the calls and the durations per status of each group apart", async () => {
    const groups = (await denom(["report", "--json", "--by", "agent", file()])).json().groups;
    const of = (value: string) => groups.find((g: { value: string }) => g.value === value);
    // A: ok 3, timeout 1 of 4 calls; B: ok 2, timeout 1 of 3
    expect(of("A").per_call).toEqual([
      { type: "llm_call", status: "ok", calls: 3, share: 0.75 },
      { type: "llm_call", status: "timeout", calls: 1, share: 0.25 },
    ]);
    expect(of("B").per_call.map((c: { calls: number; share: number }) => [c.calls, c.share])).toEqual([
      [2, 2 / 3],
      [1, 1 / 3],
    ]);
    // every group lists every status of the inputs, none where it has no attempt of it
    const durations = (value: string) =>
      of(value).efficiency.duration_by_status.map((d: { status: string; attempts: number; p50: number | null; max: number | null }) => [
        d.status,
        d.attempts,
        d.p50,
        d.max,
      ]);
    expect(durations("A")).toEqual([
      ["failure", 0, null, null],
      ["success", 1, 100, 100],
      ["timeout", 1, 300, 300],
    ]);
    expect(durations("B")).toEqual([
      ["failure", 1, 50, 50],
      ["success", 1, 200, 200],
      ["timeout", 0, null, null],
    ]);
  });

  it("exports each group's timeout attempts by cause: A's one, none of B's", async () => {
    const out = join(tempDir(), "causes.csv");
    expect((await denom(["export", file(), "--by", "agent", "--what", "timeout_causes", "-o", out])).code).toBe(0);
    const rows = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const attempts = (group: string) => rows.filter((r) => r[0] === group).reduce((n, r) => n + Number(r[2]), 0);
    expect([attempts("A"), attempts("B")]).toEqual([1, 0]);
  });
});

describe("audit claims at any precision and with a standard error", () => {
  const shares = (successes: number, count: number) =>
    join(
      tempDir({ "r.jsonl": jsonl(...Array.from({ length: count }, (_, i) => ({ task_id: `t${i + 1}`, status: i < successes ? "success" : "failure" }))) }),
      "r.jsonl",
    );

  it("matches a claim printed at full double precision to its exact fraction", async () => {
    // 4/6, 8/9 and 21/23 as Python and JavaScript print them
    expect((await denom(["audit", shares(4, 6), "--claim", "0.6666666666666666"])).code).toBe(0);
    expect((await denom(["audit", shares(8, 9), "--claim", "0.8888888888888888"])).code).toBe(0);
    expect((await denom(["audit", shares(21, 23), "--claim", "0.9130434782608695"])).code).toBe(0);
    // a digit off at that precision is another double: no match
    expect((await denom(["audit", shares(4, 6), "--claim", "0.6666666666666650"])).code).toBe(3);
  });

  it("parses M ± S in a claim's own form", () => {
    const c = parseClaim("0.128 ± 0.0016");
    expect(toNumber(c.value)).toBe(0.128);
    expect(c.standard_error && [toNumber(c.standard_error.lo), toNumber(c.standard_error.hi)]).toEqual([0.00155, 0.00165]);
    expect(toNumber(parseClaim("12.8% ± 0.16%").standard_error!.value)).toBe(0.0016);
    // after a percent, a bare S is in points
    expect(toNumber(parseClaim("12.8% +- 0.16").standard_error!.value)).toBe(0.0016);
    expect(() => parseClaim("70/80 ± 0.1")).toThrow(/a ratio has no standard error/);
    expect(() => parseClaim("0.128 ± abc")).toThrow(/not a number/);
  });

  /** A JSONL file of one record per trial: each task's statuses in trial order (trial 1, 2, ...). */
  function trialsFile(outcome: Record<string, string[]>): string {
    const records = Object.entries(outcome).flatMap(([task_id, s]) => s.map((status, i) => ({ task_id, trial: i + 1, status })));
    return join(tempDir({ "r.jsonl": jsonl(...records) }), "r.jsonl");
  }

  /** The first match of an audit claim's JSON with this aggregation (pooled, mean_of_runs). */
  function matchBy(claim: { matches: { aggregation: string }[] }, aggregation: string) {
    return claim.matches.find((m) => m.aggregation === aggregation) as any;
  }

  it("computes the task-clustered standard error over tasks of unequal trial counts", async () => {
    // t1: s s f; t2: s; t3: f f; t4: s f. N = 8, C = 4, p = 1/2.
    // c_i - p n_i = 2 - 1.5, 1 - 0.5, 0 - 1, 1 - 1 = 0.5, 0.5, -1, 0 -> sum of squares 1.5;
    // T = 4: sqrt(4/3 * 1.5) / 8 = sqrt(2)/8 = 0.1767767
    const outcome = { t1: ["success", "success", "failure"], t2: ["success"], t3: ["failure", "failure"], t4: ["success", "failure"] };
    const file = trialsFile(outcome);
    const out = await denom(["audit", "--json", file, "--claim", "0.5 ± 0.177"]);
    expect(out.code).toBe(0);
    const pooled = matchBy(out.json(), "pooled");
    expect(pooled.standard_error.matched_by).toBe("clustered_by_task");
    expect(pooled.standard_error.clustered_by_task).toBeCloseTo(Math.sqrt(2) / 8, 12);
    // 0.1767767 is outside 0.170 ± half a unit of its last digit: no definition reproduces it
    expect((await denom(["audit", file, "--claim", "0.5 ± 0.170"])).code).toBe(3);
  });

  it("checks S against the task-clustered standard error and the one over runs", async () => {
    // t1: trials 1 and 2 pass; t2: trial 1 passes, 2 fails; t3: both fail. N = 6, p = 1/2.
    // clustered by task: c_i - p n_i = 1, 0, -1 -> sqrt(3/2 * 2) / 6 = sqrt(3)/6 = 0.288675
    // over runs (trial 1: 2/3, trial 2: 1/3): sd 0.235702 / sqrt(2) = 1/6 = 0.166667
    const outcome = { t1: ["success", "success"], t2: ["success", "failure"], t3: ["failure", "failure"] };
    const file = trialsFile(outcome);
    const clustered = await denom(["audit", "--json", file, "--claim", "0.5 ± 0.29"]);
    expect(clustered.code).toBe(0);
    const pooled = matchBy(clustered.json(), "pooled");
    expect(pooled.standard_error.matched_by).toBe("clustered_by_task");
    expect(pooled.standard_error.clustered_by_task).toBeCloseTo(Math.sqrt(3) / 6, 12);
    expect(pooled.standard_error.over_runs).toBeNull();
    const overRuns = await denom(["audit", "--json", file, "--claim", "0.5 ± 0.17"]);
    expect(overRuns.code).toBe(0);
    const mean = matchBy(overRuns.json(), "mean_of_runs");
    expect(mean.standard_error.over_runs).toBeCloseTo(1 / 6, 12);
    expect(mean.standard_error.matched_by).toBe("over_runs");
    // the value without its standard error: not reproduced, the definitions that give the value listed
    const neither = await denom(["audit", "--json", file, "--claim", "0.5 ± 0.05"]);
    expect(neither.code).toBe(3);
    expect(neither.json().value_matches.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!hasShared)("real folders, per group (../shared/data/real)", () => {
  it("swe-bench-pro: nine runs that name no model are nine groups; GPT-4o's is 36 resolved", async () => {
    const out = (await denom(["report", "--json", join(REAL, "swe-bench-pro")])).json();
    expect(out.groups).toHaveLength(9);
    const gpt4o = out.groups.find((g: { value: string }) => g.value.includes("gpt-4o-paper"));
    expect(strict(gpt4o.rates).split("/")[0]).toBe("36");
    expect(out.meta.grouping.figure_to_quote).toBe("each_group");
  });

  it("terminal-bench-1: 0.3696 ± 0.02 is the claude-4-sonnet orchestrator's, 0.405 is no group's", async () => {
    const dir = join(REAL, "terminal-bench-1");
    const sonnet = await denom(["audit", "--json", dir, "--claim", "0.3696 ± 0.02"]);
    expect(sonnet.code).toBe(0);
    const m = sonnet.json().matches[0];
    expect(m.group.value).toContain("20250902_orchestrator_claude-4-sonnet");
    // PROVENANCE.md: the mean of 27/80, 28/78, 25/78, 31/77, 33/77 (unknown_agent_error left out)
    expect(m.runs.map((r: { successes: number; count: number }) => `${r.successes}/${r.count}`)).toEqual(["27/80", "28/78", "25/78", "31/77", "33/77"]);
    expect(m.standard_error.matched_by).toBe("over_runs");
    expect(m.standard_error.over_runs).toBeCloseTo(0.02015, 4);
    // pooled, the three orchestrator models' pass@3 was 0.405; per model, nothing gives it
    expect((await denom(["audit", dir, "--claim", "0.405"])).code).toBe(3);
    // Qwen's value 0.197 is reproduced, its published 0.02 is not (over runs 0.0136)
    const qwen = await denom(["audit", "--json", dir, "--claim", "0.197 ± 0.02"]);
    expect(qwen.code).toBe(3);
    expect(qwen.json().value_matches.some((v: { group: { value: string } }) => v.group.value.includes("qwen"))).toBe(true);
  });
});
