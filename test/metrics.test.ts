/**
 * The metrics (DESIGN section 7): cost and retries, Wilson intervals,
 * the task-clustered bootstrap, pass@k / pass^k, --by groups, --expect and
 * --expect-count, per-call figures. Every expected value is worked out by hand
 * from the input written here; the arithmetic sits beside each assertion.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReportData } from "../src/commands/report.js";
import { intervalNote } from "../src/render/metrics-text.js";
import { REAL, cell, denom, denomBin, hasShared, jsonl, tempDir } from "./helpers.js";

async function report(files: Record<string, string>, ...args: string[]) {
  const dir = tempDir(files);
  const r = await denom([
    "report",
    "--json",
    ...args.map((a) => (a in files ? join(dir, a) : a)),
    ...Object.keys(files)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(dir, f)),
  ]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

describe("cost and retries", () => {
  // a: 0.10 success; b: 0.20 timeout, then 0.30 success; c: 0.10 failure, then 0.10 failure; d: 0.20 success
  const runs = jsonl(
    { task_id: "a", attempt: 1, status: "success", cost_usd: 0.1 },
    { task_id: "b", attempt: 1, status: "timeout", cost_usd: 0.2 },
    { task_id: "b", attempt: 2, status: "success", cost_usd: 0.3 },
    { task_id: "c", attempt: 1, status: "failure", cost_usd: 0.1 },
    { task_id: "c", attempt: 2, status: "failure", cost_usd: 0.1 },
    { task_id: "d", attempt: 1, status: "success", cost_usd: 0.2 },
  );

  it("counts the spend of every attempt, retries included, per trial and per final success", async () => {
    const e = (await report({ "runs.jsonl": runs })).efficiency;
    expect(e.cost_usd_total).toBeCloseTo(1.0, 10); // 0.10 + 0.20 + 0.30 + 0.10 + 0.10 + 0.20
    expect(e.cost_per_success).toBeCloseTo(0.3333, 4); // 1.00 / 3 final successes (a, b, d)
    expect(e.cost_per_trial).toBeCloseTo(0.25, 10); // 1.00 / 4 trials
    expect(e.cost_missing_attempts).toBe(0);
  });

  it("reports retries: attempts per trial, rescued trials, successes with no retry", async () => {
    const e = (await report({ "runs.jsonl": runs })).efficiency;
    expect(e.attempts_per_trial).toBeCloseTo(1.5, 10); // 6 attempts / 4 trials
    expect(e.trials_retried).toBe(2); // b and c
    expect(e.trials_rescued).toBe(1); // b: timeout first, success final
    expect(e.zero_retry_success_share).toBeCloseTo(2 / 3, 10); // a and d of the 3 final successes
  });

  it("counts attempts without a cost and never reads them as 0", async () => {
    const partial = runs.replace('"task_id":"d","attempt":1,"status":"success","cost_usd":0.2', '"task_id":"d","attempt":1,"status":"success"');
    const e = (await report({ "runs.jsonl": partial })).efficiency;
    expect(e.cost_missing_attempts).toBe(1); // d's attempt
    expect(e.cost_usd_total).toBeCloseTo(0.8, 10); // the five recorded: 1.00 - 0.20
    const none = (await report({ "runs.jsonl": jsonl({ task_id: "a", status: "success" }) })).efficiency;
    expect(none.cost_usd_total).toBeNull(); // nothing recorded: n/a, not $0
    expect(none.cost_per_success).toBeNull();
  });

  it("says in the table when cost figures are lower bounds", async () => {
    const partial = runs.replace('"task_id":"d","attempt":1,"status":"success","cost_usd":0.2', '"task_id":"d","attempt":1,"status":"success"');
    const dir = tempDir({ "runs.jsonl": partial });
    const r = await denom(["report", join(dir, "runs.jsonl")]);
    expect(r.stdout).toContain("$0.800 total"); // 1.00 - 0.20
    expect(r.stdout).toContain("1 of 6 attempts have no cost (not read as 0)");
  });
});

describe("Wilson interval", () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison
  // of seven methods", Statistics in Medicine 17:857-872, Table II, method 3 (Wilson score,
  // no continuity correction): 81/263 -> 0.2553-0.3662, 15/148 -> 0.0624-0.1605,
  // 0/20 -> 0.0000-0.1611, 1/29 -> 0.0061-0.1718.
  it("matches Newcombe's table, one group of --by per row", async () => {
    const table = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0.0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    // one single-trial task per line; agent gN holds row N, its first s tasks successes
    const records = table.flatMap(([s, n], g) =>
      Array.from({ length: n }, (_, i) => ({ task_id: `g${g}-t${i}`, agent: `g${g}`, status: i < s ? "success" : "failure" })),
    );
    const out = await report({ "runs.jsonl": jsonl(...records) }, "--by", "agent");
    table.forEach(([s, n, lo, hi], g) => {
      const c = cell(out.groups[g], "final/total") as { successes: number; count: number; ci95: [number, number]; ci_method: string };
      expect([c.successes, c.count, c.ci_method]).toEqual([s, n, "wilson"]); // one trial per task
      expect(Math.abs(c.ci95[0] - lo)).toBeLessThan(5e-5); // the table rounds to 4 decimals
      expect(Math.abs(c.ci95[1] - hi)).toBeLessThan(5e-5);
    });
  });

  it("gives no interval to a cell over 0 trials", async () => {
    // one aborted trial: attributable removes it, 0/0
    const out = await report({ "runs.jsonl": jsonl({ task_id: "a", status: "aborted" }) });
    expect(cell(out, "final/attributable")).toMatchObject({ count: 0, rate: null, ci95: null });
  });
});

describe("task-clustered bootstrap", () => {
  // A passes both of its trials, B fails both. A resample draws 2 tasks: AA (1/4) -> 4/4,
  // AB or BA (1/2) -> 2/4, BB (1/4) -> 0/4. Each end holds about a quarter of the 2000
  // resamples, far more than 2.5%, so the percentile interval is [0, 1]. Resampling single
  // trials instead would also give 1/4 and 3/4 and a narrower interval.
  const twoTasks = jsonl(
    { task_id: "A", trial: 1, status: "success" },
    { task_id: "A", trial: 2, status: "success" },
    { task_id: "B", trial: 1, status: "failure" },
    { task_id: "B", trial: 2, status: "failure" },
  );

  it("resamples whole tasks when tasks have several trials", async () => {
    const out = await report({ "runs.jsonl": twoTasks });
    expect(cell(out, "final/total")).toMatchObject({ successes: 2, count: 4, ci_method: "bootstrap", ci95: [0, 1] });
    // pass@2 per task: A 1 - C(0,2)/C(2,2) = 1, B 1 - C(2,2)/C(2,2) = 0; mean 0.5; same two ends
    expect(out.pass_at_k[1]).toMatchObject({ k: 2, pass_at_k: 0.5, pass_at_k_ci95: [0, 1], ci_method: "bootstrap" });
  });

  it("gives a zero-width interval when every task looks the same", async () => {
    // three tasks, each 1 success of 2 trials: every resample is 3/6 = 0.5
    const same = jsonl(
      ...["X", "Y", "Z"].flatMap((t) => [
        { task_id: t, trial: 1, status: "success" },
        { task_id: t, trial: 2, status: "failure" },
      ]),
    );
    const out = await report({ "runs.jsonl": same });
    expect(cell(out, "final/total").ci95).toEqual([0.5, 0.5]);
    // pass^2 per task: C(1,2)/C(2,2) = 0 for each -> [0, 0]
    expect(out.pass_at_k[1].pass_hat_k_ci95).toEqual([0, 0]);
  });

  it("draws the same resamples on every run: identical intervals", async () => {
    // 12 tasks x 3 trials with varied outcomes, so that the interval is not degenerate
    const records = Array.from({ length: 12 }, (_, t) =>
      [1, 2, 3].map((trial) => ({ task_id: `task-${t}`, trial, status: (t * 7 + trial * 3) % 5 < 2 ? "success" : "failure" })),
    ).flat();
    const dir = tempDir({ "runs.jsonl": jsonl(...records) });
    const first = (await denom(["report", "--json", join(dir, "runs.jsonl")])).json();
    const second = (await denom(["report", "--json", join(dir, "runs.jsonl")])).json();
    const intervals = (o: any) => [o.rates.map((r: any) => r.ci95), o.pass_at_k.map((p: any) => [p.pass_at_k_ci95, p.pass_hat_k_ci95])];
    expect(intervals(second)).toEqual(intervals(first));
    const c = cell(first, "final/total") as { rate: number; ci95: [number, number] };
    expect(c.ci95[0]).toBeLessThan(c.rate); // not degenerate: the point lies strictly inside
    expect(c.ci95[1]).toBeGreaterThan(c.rate);
  });
});

describe("cluster-robust interval from 5,000 tasks", () => {
  // agent a: 2,000 tasks of two successes (kind A), 2,000 of two failures (B), 1,000 of a
  // success and an aborted trial (C); agent b: one task like A, one like B. The overall
  // scope has 5,002 tasks and group a 5,000: both get the analytic interval; group b, 2
  // tasks, keeps the bootstrap. For a ratio R = sum(num) / sum(den) over tasks, the
  // clustered variance is sum((num_i - R den_i)^2) / sum(den)^2 and the interval R +- z SE.
  const z = 1.959963984540054;
  const kinds = (agent: string, a: number, b: number, c: number) =>
    [
      ...Array.from({ length: a }, (_, i) => [`${agent}-A${i}`, "success", "success"]),
      ...Array.from({ length: b }, (_, i) => [`${agent}-B${i}`, "failure", "failure"]),
      ...Array.from({ length: c }, (_, i) => [`${agent}-C${i}`, "success", "aborted"]),
    ].flatMap(([task_id, s1, s2]) => [
      { agent, task_id, trial: 1, status: s1 },
      { agent, task_id, trial: 2, status: s2 },
    ]);
  const runs = jsonl(...kinds("a", 2000, 2000, 1000), ...kinds("b", 1, 1, 0));
  const around = (interval: [number, number], r: number, se: number) => {
    expect(interval[0]).toBeCloseTo(r - z * se, 12);
    expect(interval[1]).toBeCloseTo(r + z * se, 12);
  };

  it("gives each scope of 5,000 tasks or more R +- z x the task-clustered standard error", async () => {
    const out = await report({ "runs.jsonl": runs }, "--by", "agent");
    expect(out.confidence.clustered_from_tasks).toBe(5000);
    // overall final/total: 2,001 x 2 + 1,000 x 1 = 5,002 successes of 10,004 trials, R = 1/2;
    // residuals A 2 - 1 = +1, B -1, C 1 - 1 = 0: sum of squares 4,002
    const total = cell(out, "final/total");
    expect(total).toMatchObject({ successes: 5002, count: 10004, ci_method: "clustered" });
    around(total.ci95, 0.5, Math.sqrt(4002) / 10004);
    // final/attributable drops the aborted trials: C counts 1 of 1, so 5,002 of 9,004;
    // residuals A 2 - 2R, B -2R, C 1 - R
    const r = 5002 / 9004;
    const att = cell(out, "final/attributable");
    expect(att).toMatchObject({ successes: 5002, count: 9004, ci_method: "clustered" });
    around(att.ci95, r, Math.sqrt(2001 * (2 - 2 * r) ** 2 + 2001 * (2 * r) ** 2 + 1000 * (1 - r) ** 2) / 9004);
    // pass@2 per task (n = 2): A 1, B 0, C 1 - C(1,2)/C(2,2) = 1; mean 3,001/5,002 over 5,002 tasks
    const p2 = 3001 / 5002;
    expect(out.pass_at_k[1]).toMatchObject({ k: 2, tasks: 5002, ci_method: "clustered" });
    around(out.pass_at_k[1].pass_at_k_ci95, p2, Math.sqrt(3001 * (1 - p2) ** 2 + 2001 * p2 ** 2) / 5002);
    // group a: 4,000 + 1,000 = 5,000 of 10,000, R = 1/2, residuals +1 (2,000), -1 (2,000), 0
    const a = out.groups.find((g: { value: string }) => g.value === "a");
    expect(cell(a, "final/total")).toMatchObject({ successes: 5000, count: 10000, ci_method: "clustered" });
    around(cell(a, "final/total").ci95, 0.5, Math.sqrt(4000) / 10000);
    // group b: 2 tasks, bootstrap; resamples AA, AB, BA, BB as in the bootstrap tests: [0, 1]
    const b = out.groups.find((g: { value: string }) => g.value === "b");
    expect(cell(b, "final/total")).toMatchObject({ successes: 2, count: 4, ci_method: "bootstrap", ci95: [0, 1] });
  });

  it("names the method under the grid", () => {
    // the note reads the overall scope's method and the threshold from the report's data
    const data = { rates: [{ ci_method: "clustered" }], confidence: { resamples: 2000, seed: 1, clustered_from_tasks: 5000 } } as unknown as ReportData;
    expect(intervalNote(data)).toBe("95% intervals: cluster-robust over tasks (normal, 5,000+ tasks)");
  });
});

describe("pass@k and pass^k", () => {
  it("uses the unbiased estimators and counts the tasks skipped for each k", async () => {
    // P: 3 trials, 2 successes; Q: 1 trial, 1 success
    const out = await report({
      "runs.jsonl": jsonl(
        { task_id: "P", trial: 1, status: "success" },
        { task_id: "P", trial: 2, status: "failure" },
        { task_id: "P", trial: 3, status: "success" },
        { task_id: "Q", trial: 1, status: "success" },
      ),
    });
    // k=1: pass@1 = mean(2/3, 1) = 5/6; pass^1 the same
    expect(out.pass_at_k[0]).toMatchObject({ k: 1, tasks: 2, skipped: 0 });
    expect(out.pass_at_k[0].pass_at_k).toBeCloseTo(5 / 6, 10);
    // k=2: only P; pass@2 = 1 - C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3; Q skipped
    expect(out.pass_at_k[1]).toMatchObject({ k: 2, pass_at_k: 1, tasks: 1, skipped: 1 });
    expect(out.pass_at_k[1].pass_hat_k).toBeCloseTo(1 / 3, 10);
    // k=3: pass@3 = 1 - C(1,3)/C(3,3) = 1; pass^3 = C(2,3)/C(3,3) = 0
    expect(out.pass_at_k[2]).toMatchObject({ k: 3, pass_at_k: 1, pass_hat_k: 0, tasks: 1, skipped: 1 });
    expect(out.pass_at_k).toHaveLength(3); // k = 1 .. the largest trial count
  });

  it("stays exact for many trials (no factorials overflow)", async () => {
    // one task, 200 trials, 1 success: pass@k = 1 - C(199,k)/C(200,k) = k/200; pass^k = 0 for k >= 2
    const many = jsonl(...Array.from({ length: 200 }, (_, i) => ({ task_id: "big", trial: i + 1, status: i === 0 ? "success" : "failure" })));
    const out = await report({ "runs.jsonl": many });
    expect(out.pass_at_k).toHaveLength(200);
    expect(out.pass_at_k[99].pass_at_k).toBeCloseTo(100 / 200, 10);
    expect(out.pass_at_k[199].pass_at_k).toBeCloseTo(1, 10);
    expect(out.pass_at_k[1].pass_hat_k).toBe(0);
  });
});

describe("--by", () => {
  // agent A: t1 (success, failure), t2 (success, success); agent B: t3, one aborted trial
  const runs = jsonl(
    { task_id: "t1", trial: 1, agent: "A", status: "success", started_at: "2025-01-01T00:00:00Z", ended_at: "2025-01-01T00:01:00Z" },
    { task_id: "t1", trial: 2, agent: "A", status: "failure", started_at: "2025-01-01T00:00:00Z", ended_at: "2025-01-01T00:03:00Z" },
    { task_id: "t2", trial: 1, agent: "A", status: "success" },
    { task_id: "t2", trial: 2, agent: "A", status: "success" },
    { task_id: "t3", trial: 1, agent: "B", status: "aborted", status_detail: "infra_error" },
  );

  it("gives every figure per group, a group's empty cells as n/a", async () => {
    const out = await report({ "runs.jsonl": runs }, "--by", "agent");
    expect(out.by).toBe("agent");
    expect(out.groups.map((g: any) => g.value)).toEqual(["A", "B"]);
    const [a, b] = out.groups;
    expect(cell(a, "final/total")).toMatchObject({ successes: 3, count: 4 }); // t1: 1 of 2, t2: 2 of 2
    expect(cell(b, "final/total")).toMatchObject({ successes: 0, count: 1, rate: 0 });
    // B's only trial is an environment failure: attributable over 0 trials is n/a, no interval
    expect(cell(b, "final/attributable")).toMatchObject({ successes: 0, count: 0, rate: null, ci95: null });
    // pass@2: A: t1 1 - C(1,2)/C(2,2) = 1, t2 1 -> 1; pass^2: t1 C(1,2)/C(2,2) = 0, t2 1 -> 0.5
    expect(a.pass_at_k[1]).toMatchObject({ k: 2, pass_at_k: 1, pass_hat_k: 0.5, tasks: 2, skipped: 0 });
    // B has one trial: k = 2 is still listed (the largest trial count overall), with no task
    expect(b.pass_at_k[1]).toMatchObject({ k: 2, pass_at_k: null, pass_hat_k: null, tasks: 0, skipped: 1 });
    // durations only where times exist: A's two timed attempts, 60 s and 180 s; B none
    expect(a.efficiency.duration_s).toMatchObject({ mean: 120, p50: 60, max: 180 });
    expect(b.efficiency.duration_s).toMatchObject({ mean: null, p50: null, max: null });
    // the overall figures are unchanged by --by: 3 of 5 trials
    expect(cell(out, "final/total")).toMatchObject({ successes: 3, count: 5 });
  });

  it("shows the groups side by side in the table, n/a where a group has no trial", async () => {
    const dir = tempDir({ "runs.jsonl": runs });
    const r = await denom(["report", "--by", "agent", join(dir, "runs.jsonl")]);
    expect(r.code, r.stderr).toBe(0);
    const section = r.stdout.slice(r.stdout.indexOf("By agent"));
    expect(section).toMatch(/final\/attributable\s+3\/4 75\.0%\s+0\/0 n\/a/); // A: t1 1/2, t2 2/2; B: none left
  });

  it("keeps a group of records without the field", async () => {
    const out = await report({ "runs.jsonl": jsonl({ task_id: "a", status: "success", model: "m1" }, { task_id: "b", status: "failure" }) }, "--by", "model");
    expect(out.groups.map((g: any) => [g.value, cell(g, "final/total").count])).toEqual([
      ["m1", 1],
      [null, 1],
    ]);
  });

  it("rejects an unknown field with a usage error", async () => {
    const dir = tempDir({ "runs.jsonl": jsonl({ task_id: "a", status: "success" }) });
    const r = await denom(["report", "--by", "colour", join(dir, "runs.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--by");
  });
});

describe("--expect and --expect-count", () => {
  const three = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "success" }, { task_id: "c", status: "failure" });

  it("--expect-count raises the strict denominator with the missing tasks", async () => {
    const plain = await report({ "runs.jsonl": three });
    expect(cell(plain, "final/total")).toMatchObject({ successes: 2, count: 3 });
    const out = await report({ "runs.jsonl": three }, "--expect-count", "5");
    expect(cell(out, "final/total")).toMatchObject({ successes: 2, count: 5 }); // 3 recorded + 2 missing
    expect(cell(out, "final/attributable")).toMatchObject({ successes: 2, count: 3 }); // missing is environment
    expect(out.diagnostics.missing).toBe(2);
    expect(out.status_counts.final.missing).toBe(2);
    expect(out.inventory.missing_tasks.map((m: any) => m.named)).toEqual([false, false]); // no names known
    expect(out.pass_at_k[0]).toMatchObject({ tasks: 3, skipped: 2 }); // missing tasks are skipped, not filled in
  });

  it("--expect lists what is missing and what is outside the list", async () => {
    const out = await report({ "runs.jsonl": three, "ids.txt": "a\nb\r\n\nd\n  e  \nb\n" }, "--expect", "ids.txt");
    // expected a, b, d, e; records a, b, c: d and e missing, c outside the list (kept)
    expect(out.inventory.missing_tasks.map((m: any) => m.task_id)).toEqual(["d", "e"]);
    expect(out.inventory.unexpected_tasks.map((u: any) => u.task_id)).toEqual(["c"]);
    expect(out.inventory.expected).toMatchObject({ tasks: ["a", "b", "d", "e"], duplicates: 1 });
    expect(cell(out, "final/total")).toMatchObject({ successes: 2, count: 5 }); // a, b, c + d, e
    expect(out.meta.exclusions).toContainEqual(
      expect.objectContaining({ basis: "final", denominator: "attributable", reason: "missing (expected, no record)", trials: 2 }),
    );
  });

  it("owes one trial per trial slot of the run", async () => {
    // the run used trials 1 and 2; task z is expected and absent: 2 missing trials
    const runs = jsonl({ task_id: "y", trial: 1, status: "success" }, { task_id: "y", trial: 2, status: "failure" });
    const out = await report({ "runs.jsonl": runs, "ids.txt": "y\nz\n" }, "--expect", "ids.txt");
    expect(cell(out, "final/total")).toMatchObject({ successes: 1, count: 4 }); // y's 2 + z's 2
    expect(out.inventory.missing_tasks).toEqual([{ run_id: null, task_id: "z", trials: 2, named: true }]);
  });

  it("lists tasks with fewer trials than their run's slots without adding them to total", async () => {
    const runs = jsonl(
      { task_id: "y", trial: 1, status: "success" },
      { task_id: "y", trial: 2, status: "failure" },
      { task_id: "w", trial: 1, status: "success" },
    );
    const out = await report({ "runs.jsonl": runs });
    expect(cell(out, "final/total").count).toBe(3);
    expect(out.inventory.incomplete_tasks).toEqual([{ run_id: null, task_id: "w", trials_present: 1, trial_slots: 2, missing_slots: [2] }]);
  });

  it("names the slots each incomplete task lacks, in slot order, a gap in the middle too", async () => {
    // the run used trials 1, 2 and 3 (task y); w holds trial 2 only, v trials 1 and 3
    const runs = jsonl(
      { task_id: "y", trial: 1, status: "success" },
      { task_id: "y", trial: 2, status: "failure" },
      { task_id: "y", trial: 3, status: "success" },
      { task_id: "w", trial: 2, status: "success" },
      { task_id: "v", trial: 3, status: "failure" },
      { task_id: "v", trial: 1, status: "success" },
    );
    const out = await report({ "runs.jsonl": runs });
    expect(out.inventory.incomplete_tasks).toEqual([
      { run_id: null, task_id: "v", trials_present: 2, trial_slots: 3, missing_slots: [2] },
      { run_id: null, task_id: "w", trials_present: 1, trial_slots: 3, missing_slots: [1, 3] },
    ]);
  });

  it.each([
    [["--expect", "/nonexistent/ids.txt"], "--expect /nonexistent/ids.txt: cannot read the file"],
    [["--expect-count", "0"], "--expect-count 0: expected a whole number >= 1"],
    [["--expect-count", "5", "--expect", "x.txt"], "give one of them"],
  ])("rejects %j with a usage error naming the flag", async (flags, message) => {
    const dir = tempDir({ "runs.jsonl": three });
    const r = await denom(["report", ...flags, join(dir, "runs.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe("per-call figures", () => {
  it("counts events with their own status per call, apart from the trials", async () => {
    const out = await report({
      "runs.jsonl": jsonl(
        {
          task_id: "a",
          status: "success",
          events: [
            { type: "llm_call", status: "ok" },
            { type: "llm_call", status: "timeout" },
            { type: "tool_call", name: "ls" },
          ],
        },
        {
          task_id: "b",
          status: "success",
          events: [
            { type: "llm_call", status: "ok" },
            { type: "llm_call", status: "ok" },
          ],
        },
      ),
    });
    // llm_call: 3 ok + 1 timeout = 4 calls; the tool_call has no status and is not a call outcome
    expect(out.per_call).toEqual([
      { type: "llm_call", status: "ok", calls: 3, share: 0.75 },
      { type: "llm_call", status: "timeout", calls: 1, share: 0.25 },
    ]);
    expect(cell(out, "final/total")).toMatchObject({ successes: 2, count: 2 }); // the timed-out call changes no trial
  });
});

describe("the text report", () => {
  it("keeps the metrics sections within 80 columns, groups included", async () => {
    // long group names, as run ids often are: the side-by-side tables clip them
    const records = ["alpha", "beta", "gamma", "delta"]
      .map((a) => `${a}-agent-2025-08-07__20-46-16`)
      .flatMap((agent, i) => [
        { task_id: `t${i}`, trial: 1, agent, status: "success", cost_usd: 0.5, started_at: "2025-01-01T00:00:00Z", ended_at: "2025-01-01T00:10:00Z" },
        { task_id: `t${i}`, trial: 2, agent, status: "timeout", cost_usd: 1.25, started_at: "2025-01-01T00:00:00Z", ended_at: "2025-01-01T00:30:00Z" },
      ]);
    // and an inventory to print: three expected tasks that have no record
    const ids = ["t0", "t1", "t2", "t3", ...[1, 2, 3].map((i) => `a-rather-long-task-identifier-number-${i}`)].join("\n");
    const dir = tempDir({ "runs.jsonl": jsonl(...records), "ids.txt": ids });
    const r = await denom(["report", "--by", "agent", "--expect", join(dir, "ids.txt"), join(dir, "runs.jsonl")]);
    expect(r.stdout).toContain("Trial inventory");
    const from = r.stdout.indexOf("Success rate");
    const long = r.stdout
      .slice(from)
      .split("\n")
      .filter((l) => l.length > 80);
    expect(long).toEqual([]);
    // four agents, four runs (a run is run_id + agent + model), each missing the 6 tasks it has
    // no record of, in its 2 slots, under its own agent: two tables
    expect(r.stdout).toContain("4/56");
    expect(r.stdout).toContain("By agent (1-3 of 4)");
    expect(r.stdout).toContain("By agent (4-4 of 4)");
  });

  it("--help of report shows examples of the new flags", () => {
    const r = denomBin(["report", "--help"]);
    expect(r.code).toBe(0);
    for (const flag of ["--by", "--expect ", "--expect-count"]) expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain("denom report runs/ --by model");
  });
});

describe.skipIf(!hasShared)("real records (read in place from ../shared/data/real)", () => {
  if (!hasShared) console.log("skipped: ../shared/data/real is not beside this checkout");

  it("reproduces tau-bench's published pass^1..4 for gpt-4o airline (0.420, 0.273, 0.220, 0.200)", async () => {
    // tau-bench README: pass^k = mean over tasks of C(c,k)/C(n,k); reward 1.0 is a success
    const raw = JSON.parse(readFileSync(join(REAL, "tau-bench", "gpt-4o-airline.json"), "utf8")) as { task_id: number; trial: number; reward: number }[];
    const records = raw.map((r) => ({ task_id: String(r.task_id), trial: r.trial, status: r.reward === 1 ? "success" : "failure" }));
    const out = await report({ "runs.jsonl": jsonl(...records) });
    const hat = out.pass_at_k.map((p: any) => Number(p.pass_hat_k.toFixed(3)));
    expect(hat).toEqual([0.42, 0.273, 0.22, 0.2]);
    expect(out.pass_at_k.every((p: any) => p.tasks === 50 && p.skipped === 0)).toBe(true); // 50 tasks x 4 trials
  });

  it("reproduces the pass@k that Terminal-Bench wrote into results.json", async () => {
    // the harness counts is_resolved as the success (late passes included); its pass_at_k
    // uses the same unbiased estimator, so feeding is_resolved gives its numbers back
    const file = join(REAL, "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet", "results.json");
    const run = JSON.parse(readFileSync(file, "utf8")) as {
      results: { task_id: string; trial_name: string; is_resolved: boolean | null }[];
      pass_at_k: Record<string, number>;
    };
    const records = run.results.map((r) => ({
      task_id: r.task_id,
      trial: Number(/\.(\d+)-of-\d+/.exec(r.trial_name)?.[1]),
      status: r.is_resolved ? "success" : "failure",
    }));
    const out = await report({ "runs.jsonl": jsonl(...records) });
    for (const [k, value] of Object.entries(run.pass_at_k)) expect(out.pass_at_k[Number(k) - 1].pass_at_k).toBeCloseTo(value, 10);
  });
});

describe("inventory counts beyond the listed rows", () => {
  it("counts every missing task, not only the thousand listed", async () => {
    // one run, tasks a, b, c with one trial each; --expect-count 1503 -> 1500 tasks missing,
    // one trial slot each -> 1500 missing trials, none with a name
    const input = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" }, { task_id: "c", status: "success" });
    const r = await denom(["report", "--expect-count", "1503", "-"], input);
    expect(r.code, r.stderr).toBe(0);
    // text counts carry thousands separators
    expect(r.stdout).toContain("missing (in total as status missing, 1,500 trials; attributable removes them):");
    expect(r.stdout).toContain("1,500 tasks without a name");
    const out = (await denom(["report", "--json", "--expect-count", "1503", "-"], input)).json();
    expect(out.inventory.totals).toEqual({ tasks_missing: 1500, trials_missing: 1500, tasks_missing_unnamed: 1500, tasks_unexpected: 0, tasks_incomplete: 0 });
    expect(out.diagnostics.missing).toBe(1500);
    // total = 3 recorded + 1500 missing; 2 successes
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([2, 1503]);
  });
});
