/**
 * Cost, LLM tokens and agent time per solved task under each denominator of the chain
 * (view per_success, docs/metrics.md "Per solved task"), with the task-clustered interval
 * of a ratio (delta method), in the report (JSON, text, markdown, HTML) and in
 * `gate --max cost_per_success/DENOMINATOR`. Every expected value is worked out by hand
 * from the records written here; the arithmetic sits beside each assertion.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, jsonl, once, tempDir } from "./helpers.js";

/** 1.959963984540054: the z of confidence_settings (95%). */
const Z = 1.959963984540054;

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();

/** An attempt of `task`, trial `trial`, ending `status`, recording cost, tokens and a duration of `seconds`. */
function attempt(task: string, trial: number, n: number, status: string, cost: number | null, tokens: number, seconds: number, extra: object = {}) {
  return {
    task_id: task,
    trial,
    attempt: n,
    status,
    ...(cost === null ? {} : { cost_usd: cost }),
    llm_tokens: tokens,
    started_at: at(100 * n),
    ended_at: at(100 * n + seconds),
    ...extra,
  };
}

// Four tasks, two trials each (final basis):
//   a  t0 success 0.10 / 100 tok / 10 s;  t1 failure 0.20 / 200 / 20 s
//   b  t0 timeout 0.30 / 300 / 30 s, retried: success 0.10 / 100 / 10 s;  t1 success 0.20 / 200 / 20 s
//   c  t0 aborted (external_api_error: fault environment) 0.05 / 50 / 5 s;  t1 success 0.40 / 400 / 40 s
//   d  t0 timeout (no events: cause unknown, fault agent) 0.30 / 300 / 30 s;  t1 success, NO COST, 100 / 10 s
// total keeps all 8 trials (9 attempts); attributable removes c t0; completable removes d t0 too.
// Final successes: a 1, b 2, c 1, d 1 = 5 in every denominator.
const RECORDS = [
  attempt("a", 0, 1, "success", 0.1, 100, 10),
  attempt("a", 1, 1, "failure", 0.2, 200, 20),
  attempt("b", 0, 1, "timeout", 0.3, 300, 30),
  attempt("b", 0, 2, "success", 0.1, 100, 10),
  attempt("b", 1, 1, "success", 0.2, 200, 20),
  attempt("c", 0, 1, "aborted", 0.05, 50, 5, { status_detail: "external_api_error" }),
  attempt("c", 1, 1, "success", 0.4, 400, 40),
  attempt("d", 0, 1, "timeout", 0.3, 300, 30),
  attempt("d", 1, 1, "success", null, 100, 10),
];

async function run(records: object[], ...args: string[]) {
  const dir = tempDir({ "runs.jsonl": jsonl(...records) });
  return denom([...args, join(dir, "runs.jsonl")]);
}

const reportJson = once(async () => {
  const r = await run(RECORDS, "report", "--json");
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
});

const row = async (denominator: string) => {
  const out = JSON.parse(await reportJson());
  return out.per_success.find((p: { denominator: string }) => p.denominator === denominator);
};

describe("cost per solved task under each denominator", () => {
  it("lists every denominator of the chain, in its order", async () => {
    const out = JSON.parse(await reportJson());
    expect(out.per_success.map((p: { denominator: string }) => p.denominator)).toEqual(["total", "valid", "attributable", "completable"]);
  });

  it("total: all spend, retries and failures included, over the final successes; the same figure as efficiency.cost_per_success", async () => {
    const p = await row("total");
    // tasks a 0.10 + 0.20 = 0.30; b 0.30 + 0.10 + 0.20 = 0.60; c 0.05 + 0.40 = 0.45; d 0.30 (+ one cost missing)
    expect(p).toMatchObject({ tasks: 4, trials: 8, successes: 5, attempts: 9, cost_missing_attempts: 1, cost_lower_bound: true });
    expect(p.cost_usd).toBeCloseTo(1.65, 12); // 0.30 + 0.60 + 0.45 + 0.30
    expect(p.cost_per_success_usd).toBeCloseTo(0.33, 12); // 1.65 / 5
    const out = JSON.parse(await reportJson());
    expect(p.cost_per_success_usd).toBe(out.efficiency.cost_per_success);
    // residuals num_i - R den_i: a 0.30 - 0.33 = -0.03; b 0.60 - 0.66 = -0.06; c 0.45 - 0.33 = 0.12;
    // d 0.30 - 0.33 = -0.03; squares 0.0009 + 0.0036 + 0.0144 + 0.0009 = 0.0198;
    // SE = sqrt(0.0198) / 5 = 0.0281424946; half width 1.959964 x SE = 0.0551582758
    const half = (Z * Math.sqrt(0.0198)) / 5;
    expect(half).toBeCloseTo(0.0551582758, 9);
    expect(p.cost_per_success_usd_ci95[0]).toBeCloseTo(0.33 - half, 9); // 0.2748417242
    expect(p.cost_per_success_usd_ci95[1]).toBeCloseTo(0.33 + half, 9); // 0.3851582758
  });

  it("attributable leaves out the environment's trial and its spend", async () => {
    const p = await row("attributable");
    // c t0 (0.05) removed: c 0.40; sum 0.30 + 0.60 + 0.40 + 0.30 = 1.60 over 5 successes = 0.32
    expect(p).toMatchObject({ tasks: 4, trials: 7, successes: 5, attempts: 8, cost_missing_attempts: 1, cost_lower_bound: true });
    expect(p.cost_per_success_usd).toBeCloseTo(0.32, 12);
    // residuals a -0.02, b 0.60 - 0.64 = -0.04, c 0.08, d -0.02; squares 0.0004 + 0.0016 + 0.0064 + 0.0004 = 0.0088
    const half = (Z * Math.sqrt(0.0088)) / 5; // 0.0367721838
    expect(p.cost_per_success_usd_ci95[0]).toBeCloseTo(0.32 - half, 9); // 0.2832278162
    expect(p.cost_per_success_usd_ci95[1]).toBeCloseTo(0.32 + half, 9); // 0.3567721838
  });

  it("completable: a task whose kept trials recorded no cost adds its successes, never a cost of 0 in silence", async () => {
    const p = await row("completable");
    // d t0 (timeout, 0.30) removed too: d keeps t1, a success with no cost; sum 0.30 + 0.60 + 0.40 = 1.30 over 5 = 0.26
    expect(p).toMatchObject({ tasks: 4, trials: 6, successes: 5, attempts: 7, cost_missing_attempts: 1, cost_lower_bound: true });
    expect(p.cost_per_success_usd).toBeCloseTo(0.26, 12);
    // residuals a 0.04, b 0.60 - 0.52 = 0.08, c 0.14, d 0 - 0.26 = -0.26; squares 0.0016 + 0.0064 + 0.0196 + 0.0676 = 0.0952
    const half = (Z * Math.sqrt(0.0952)) / 5; // 0.1209474067
    expect(p.cost_per_success_usd_ci95[0]).toBeCloseTo(0.26 - half, 9); // 0.1390526
    expect(p.cost_per_success_usd_ci95[1]).toBeCloseTo(0.26 + half, 9); // 0.3809474
  });

  it("tokens and agent time per solved task, each with its interval; recorded everywhere, so no lower bound", async () => {
    const p = await row("total");
    // tokens a 300, b 600, c 450, d 400 = 1750 over 5 = 350; residuals -50, -100, 100, 50; squares 25,000
    expect(p).toMatchObject({ llm_tokens: 1750, llm_tokens_missing_attempts: 0, llm_tokens_lower_bound: false, llm_tokens_per_success: 350 });
    const half = (Z * Math.sqrt(25000)) / 5; // 61.979505
    expect(p.llm_tokens_per_success_ci95[0]).toBeCloseTo(350 - half, 6); // 288.020495
    expect(p.llm_tokens_per_success_ci95[1]).toBeCloseTo(350 + half, 6);
    // seconds are the tokens / 10: 175 s over 5 = 35 s, half width 6.1979505
    expect(p).toMatchObject({ agent_time_s: 175, untimed_attempts: 0, agent_time_lower_bound: false, agent_time_per_success_s: 35 });
    expect(p.agent_time_per_success_s_ci95[0]).toBeCloseTo(35 - half / 10, 6);
    expect(p.agent_time_per_success_s_ci95[1]).toBeCloseTo(35 + half / 10, 6);
  });

  it("the text report: a table per denominator, >= on a lower bound, and the attempts without a cost", async () => {
    const r = await run(RECORDS, "report");
    const lines = r.stdout.split("\n");
    const start = lines.indexOf("Per solved task, under each denominator (final basis)");
    expect(start).toBeGreaterThan(0);
    expect(lines.slice(start + 1, start + 6)).toEqual([
      "  figure      denominator   trials  solved  per solved  95% CI",
      // 0.33 - 0.0552 = 0.2748 -> $0.275; 0.33 + 0.0552 = 0.3852 -> $0.385
      "  cost        total              8       5   >= $0.330  [$0.275, $0.385]",
      "              valid              8       5   >= $0.330  [$0.275, $0.385]",
      // 0.32 -+ 0.0368: $0.283, $0.357
      "              attributable       7       5   >= $0.320  [$0.283, $0.357]",
      // 0.26 -+ 0.1209: $0.139, $0.381
      "              completable        6       5   >= $0.260  [$0.139, $0.381]",
    ]);
    // 350 -+ 61.98: [288, 412]; 35 s -+ 6.2 s: [28.8 s, 41.2 s]
    expect(lines[start + 6]).toBe("  LLM tokens  total              8       5         350  [288, 412]");
    expect(lines[start + 10]).toBe("  agent time  total              8       5        35 s  [28.8 s, 41.2 s]");
    expect(lines[start + 14]).toBe("  cost: 1 of 9 attempts have no cost (not read as 0): >= a lower bound");
    for (const l of lines.slice(start, start + 17)) expect(l.length).toBeLessThanOrEqual(80);
  });

  it("markdown and HTML carry the same section", async () => {
    const md = await run(RECORDS, "report", "--format", "md");
    expect(md.stdout).toContain("#### Per solved task, under each denominator (final basis)");
    expect(md.stdout).toContain("| cost | total | 8 | 5 | >= $0.330 | \\[$0.275, $0.385\\] |");
    const html = await run(RECORDS, "report", "--format", "html");
    expect(html.stdout).toContain('<section id="per-success"');
    expect(md.stdout).toContain("- cost: 1 of 9 attempts have no cost (not read as 0): >= a lower bound");
    expect(html.stdout).toContain("Per solved task, under each denominator (final basis)");
  });

  it("with every cost recorded there is no lower bound", async () => {
    // d t1 records 0.10: total 1.75 over 5 = 0.35
    const full = RECORDS.map((r) => (r.task_id === "d" && r.trial === 1 ? { ...r, cost_usd: 0.1 } : r));
    const out = (await run(full, "report", "--json")).json();
    expect(out.per_success[0]).toMatchObject({ denominator: "total", cost_missing_attempts: 0, cost_lower_bound: false });
    expect(out.per_success[0].cost_per_success_usd).toBeCloseTo(0.35, 12);
  });

  it("nothing recorded is n/a, not $0, and the text report prints no section", async () => {
    const bare = RECORDS.map(({ cost_usd: _c, ...r }) => r);
    const out = (await run(bare, "report", "--json")).json();
    // 9 attempts, none with a cost
    expect(out.per_success[0]).toMatchObject({ cost_usd: null, cost_per_success_usd: null, cost_per_success_usd_ci95: null, cost_missing_attempts: 9 });
    expect(out.per_success[0].cost_lower_bound).toBe(false);
    expect((await run(bare, "report")).stdout).not.toContain("Per solved task");
  });

  it("no interval below two tasks, no figure without a success", async () => {
    // one task, two trials: 0.10 success, 0.30 failure -> 0.40 / 1, no interval (one residual, 0 by construction)
    const one = (await run([attempt("a", 0, 1, "success", 0.1, 10, 1), attempt("a", 1, 1, "failure", 0.3, 30, 3)], "report", "--json")).json();
    expect(one.per_success[0]).toMatchObject({ tasks: 1, successes: 1, cost_per_success_usd_ci95: null });
    expect(one.per_success[0].cost_per_success_usd).toBeCloseTo(0.4, 12);
    // two tasks, no success: 0.30 spent, nothing solved
    const none = (await run([attempt("a", 0, 1, "failure", 0.1, 10, 1), attempt("b", 0, 1, "failure", 0.2, 20, 2)], "report", "--json")).json();
    expect(none.per_success[0]).toMatchObject({ tasks: 2, successes: 0, cost_per_success_usd: null, cost_per_success_usd_ci95: null });
    expect(none.per_success[0].cost_usd).toBeCloseTo(0.3, 12);
  });

  it("an expected task without a record is in total, spends nothing and solves nothing", async () => {
    // a success 0.10, b success 0.30; --expect lists c too: one missing trial (fault environment)
    const dir = tempDir({
      "runs.jsonl": jsonl(attempt("a", 0, 1, "success", 0.1, 10, 1), attempt("b", 0, 1, "success", 0.3, 30, 3)),
      "expect.txt": "a\nb\nc\n",
    });
    const out = (await denom(["report", "--json", "--expect", join(dir, "expect.txt"), join(dir, "runs.jsonl")])).json();
    const [total, , attributable] = out.per_success;
    // total: 3 tasks, 3 trials, 2 attempts; 0.40 / 2 = 0.20; residuals a -0.10, b 0.10, c 0 - 0.20 x 0 = 0
    expect(total).toMatchObject({ tasks: 3, trials: 3, successes: 2, attempts: 2, cost_missing_attempts: 0 });
    expect(total.cost_per_success_usd).toBeCloseTo(0.2, 12);
    const half = (Z * Math.sqrt(0.02)) / 2; // 0.1385904
    expect(total.cost_per_success_usd_ci95[0]).toBeCloseTo(0.2 - half, 9);
    expect(total.cost_per_success_usd_ci95[1]).toBeCloseTo(0.2 + half, 9);
    // attributable removes the missing trial: 2 tasks, the same sums, the same interval
    expect(attributable).toMatchObject({ tasks: 2, trials: 2, successes: 2 });
    expect(attributable.cost_per_success_usd_ci95[0]).toBeCloseTo(0.2 - half, 9);
  });

  it("per group of --by, each with its own tasks", async () => {
    const grouped = RECORDS.map((r) => ({ ...r, category: r.task_id === "a" || r.task_id === "b" ? "p" : "q" }));
    const out = (await run(grouped, "report", "--json", "--by", "category")).json();
    const [p, q] = out.groups.map((g: { per_success: { cost_per_success_usd: number; cost_per_success_usd_ci95: number[] }[] }) => g.per_success[0]);
    // p: a 0.30 / 1, b 0.60 / 2 = 0.90 / 3 = 0.30; residuals 0 and 0: a zero-width interval
    expect(p.cost_per_success_usd).toBeCloseTo(0.3, 12);
    expect(p.cost_per_success_usd_ci95[0]).toBeCloseTo(0.3, 12);
    expect(p.cost_per_success_usd_ci95[1]).toBeCloseTo(0.3, 12);
    // q: c 0.45 / 1, d 0.30 / 1 = 0.375; residuals 0.075, -0.075; squares 0.01125; SE = sqrt(0.01125) / 2
    const half = (Z * Math.sqrt(0.01125)) / 2; // 0.1039428
    expect(q.cost_per_success_usd).toBeCloseTo(0.375, 12);
    expect(q.cost_per_success_usd_ci95[0]).toBeCloseTo(0.375 - half, 9); // 0.2710572
    expect(q.cost_per_success_usd_ci95[1]).toBeCloseTo(0.375 + half, 9);
  });
});

describe("export --what per_success", () => {
  it("one row per denominator, each interval as two columns", async () => {
    const r = await run(RECORDS, "export", "--what", "per_success", "--format", "json");
    expect(r.code, r.stderr).toBe(0);
    const rows = r.json();
    expect(rows.map((x: { denominator: string }) => x.denominator)).toEqual(["total", "valid", "attributable", "completable"]);
    // attributable, as worked above: 1.60 / 5 = 0.32, half width 1.959964 x sqrt(0.0088) / 5; one attempt without a cost
    const a = rows[2];
    expect(a).toMatchObject({ tasks: 4, trials: 7, successes: 5, attempts: 8, cost_missing_attempts: 1, cost_lower_bound: true });
    expect(a.cost_per_success_usd).toBeCloseTo(0.32, 12);
    expect(a.cost_per_success_usd_ci95_lo).toBeCloseTo(0.32 - (Z * Math.sqrt(0.0088)) / 5, 9);
    expect(a.cost_per_success_usd_ci95_hi).toBeCloseTo(0.32 + (Z * Math.sqrt(0.0088)) / 5, 9);
    expect(a).not.toHaveProperty("step");
    expect(a).not.toHaveProperty("scope_id");
  });
});

describe("gate --max cost_per_success/DENOMINATOR", () => {
  // every cost recorded (d t1 0.10): total 1.75 / 5 = 0.35; attributable 1.70 / 5 = 0.34;
  // completable (d t0 0.30 removed) 1.40 / 5 = 0.28
  const full = RECORDS.map((r) => (r.task_id === "d" && r.trial === 1 ? { ...r, cost_usd: 0.1 } : r));

  it("judges each denominator's figure; cost_per_success keeps its meaning, final/total", async () => {
    const r = await run(
      full,
      "gate",
      "--max",
      "cost_per_success=0.35",
      "--max",
      "cost_per_success/attributable=0.33",
      "--max",
      "cost_per_success/completable=0.3",
    );
    expect(r.code).toBe(4);
    expect(r.stdout).toBe(
      [
        "ok   cost_per_success = $0.3500, max $0.3500",
        "FAIL cost_per_success/attributable = $0.3400, max $0.3300",
        "ok   cost_per_success/completable = $0.2800, max $0.3000",
        "gate failed: 1 condition of 3 not met (exit 4)",
        "",
      ].join("\n"),
    );
    const json = (await run(full, "gate", "--json", "--max", "cost_per_success/attributable=0.34")).json();
    // 4 tasks keep a trial in attributable; nothing missing, so no cost_missing_attempts key
    expect(json.conditions[0]).toMatchObject({ figure: "cost_per_success/attributable", tasks: 4, passed: true });
    expect(json.conditions[0].value).toBeCloseTo(0.34, 12);
    expect(json.conditions[0]).not.toHaveProperty("cost_missing_attempts");
  });

  it("a lower bound never passes a max (it may pass a min); the older cost_per_success is judged as before", async () => {
    const r = await run(RECORDS, "gate", "--max", "cost_per_success=1", "--max", "cost_per_success/total=1", "--min", "cost_per_success/completable=0.2");
    expect(r.code).toBe(4);
    expect(r.stdout.split("\n")).toEqual([
      // 0.26 >= 0.2 holds for the recorded spend, and the true figure is no smaller
      "ok   cost_per_success/completable = $0.2600, min $0.2000: a lower bound (1 attempt without a cost)",
      "ok   cost_per_success = $0.3300, max $1.0000",
      "FAIL cost_per_success/total = $0.3300, max $1.0000: a lower bound (1 attempt without a cost), which never passes a max",
      "gate failed: 1 condition of 3 not met (exit 4)",
      "",
    ]);
    const json = (await run(RECORDS, "gate", "--json", "--max", "cost_per_success/total=1")).json();
    expect(json.conditions[0]).toMatchObject({ cost_missing_attempts: 1, passed: false });
  });

  it("names the per-denominator figures in its usage error", async () => {
    const r = await run(full, "gate", "--max", "cost_per_success/everything=1");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cost_per_success/everything is no figure");
    expect(r.stderr).toContain("cost_per_success/denominator for each denominator");
    // a cost is no rate: a percent is refused
    expect((await run(full, "gate", "--max", "cost_per_success/total=35%")).code).toBe(2);
  });
});

describe("compare: cost per solved task, B - A, per denominator", () => {
  // A (baseline): x success 0.10; y failure 0.20, retried: success 0.20 (trial 0.40); z success 0.30
  // B (candidate): x success 0.20; y success 0.10; z aborted (external_api_error) 0.05, retried:
  //   aborted again 0.05 (trial 0.10, final fault environment: attributable removes it)
  const A = [
    attempt("x", 0, 1, "success", 0.1, 10, 1),
    attempt("y", 0, 1, "failure", 0.2, 20, 2),
    attempt("y", 0, 2, "success", 0.2, 20, 2),
    attempt("z", 0, 1, "success", 0.3, 30, 3),
  ];
  const B = [
    attempt("x", 0, 1, "success", 0.2, 20, 2),
    attempt("y", 0, 1, "success", 0.1, 10, 1),
    attempt("z", 0, 1, "aborted", 0.05, 5, 1, { status_detail: "external_api_error" }),
    attempt("z", 0, 2, "aborted", 0.05, 5, 1, { status_detail: "external_api_error" }),
  ];
  const compare = async (a: object[], b: object[], ...args: string[]) => {
    const dir = tempDir({ "a.jsonl": jsonl(...a), "b.jsonl": jsonl(...b) });
    return denom(["compare", ...args, join(dir, "a.jsonl"), join(dir, "b.jsonl")]);
  };

  it("each side's figure over the paired tasks, and the difference with its paired, task-clustered interval", async () => {
    const r = await compare(A, B, "--json");
    expect(r.code, r.stderr).toBe(0);
    const [total, , attributable] = r.json().cost_per_success;
    // total pairs x, y, z: A 0.80 / 3 = 0.2667, B 0.40 / 2 = 0.20; B - A = -1/15
    expect(total).toMatchObject({ denominator: "total", tasks: 3 });
    expect(total.baseline).toMatchObject({ successes: 3, cost_missing_attempts: 0, cost_lower_bound: false });
    expect(total.baseline.cost_per_success_usd).toBeCloseTo(0.8 / 3, 12);
    expect(total.candidate.cost_per_success_usd).toBeCloseTo(0.2, 12);
    expect(total.difference_usd).toBeCloseTo(-1 / 15, 12);
    // u_t = (cB - R_B sB) / S_B - (cA - R_A sA) / S_A: x 0/2 - (0.10 - 0.2667)/3 = 10/180;
    // y (0.10 - 0.20)/2 - (0.40 - 0.2667)/3 = -17/180; z (0.10 - 0)/2 - (0.30 - 0.2667)/3 = 7/180;
    // sum of squares (100 + 289 + 49) / 32400 = 438/32400; half width 1.959964 x 0.1162692 = 0.2278835
    const half = Z * Math.sqrt(438 / 32400);
    expect(half).toBeCloseTo(0.2278835, 6);
    expect(total.difference_usd_ci95[0]).toBeCloseTo(-1 / 15 - half, 9); // -0.2945502
    expect(total.difference_usd_ci95[1]).toBeCloseTo(-1 / 15 + half, 9); // 0.1612168
    // attributable: B keeps no trial of z, so z is not paired: A 0.50 / 2 = 0.25, B 0.30 / 2 = 0.15;
    // u_x = (0.20 - 0.15)/2 - (0.10 - 0.25)/2 = 0.10, u_y = -0.10; SE = sqrt(0.02)
    expect(attributable).toMatchObject({ denominator: "attributable", tasks: 2 });
    expect(attributable.baseline.cost_per_success_usd).toBeCloseTo(0.25, 12);
    expect(attributable.candidate.cost_per_success_usd).toBeCloseTo(0.15, 12);
    expect(attributable.difference_usd).toBeCloseTo(-0.1, 12);
    expect(attributable.difference_usd_ci95[0]).toBeCloseTo(-0.1 - Z * Math.sqrt(0.02), 9); // -0.3771808
    expect(attributable.difference_usd_ci95[1]).toBeCloseTo(-0.1 + Z * Math.sqrt(0.02), 9); // 0.1771808
  });

  it("the text: a table per denominator, and a side's lower bound said", async () => {
    const partial = B.map((r) => (r.task_id === "x" ? { ...r, cost_usd: undefined } : r));
    const r = await compare(A, partial);
    const lines = r.stdout.split("\n");
    const start = lines.indexOf("Cost per solved task (final basis, paired tasks): B - A");
    expect(start).toBeGreaterThan(0);
    expect(lines.slice(start + 1, start + 4)).toEqual([
      "  denominator   tasks       A          B    B - A  95% CI",
      // B's recorded spend 0.10 + 0.10 = 0.20 over 2 successes = 0.10, a lower bound; B - A = 0.10 - 0.2667 = -0.1667
      // u_x = (0 - 0.10)/2 - (0.10 - 0.2667)/3 = 1/180; u_y = (0.10 - 0.10)/2 - 0.1333/3 = -8/180;
      // u_z = 0.10/2 - 0.0333/3 = 7/180; squares (1 + 64 + 49)/32400; half width 1.96 x 0.0593171 = 0.1162594
      "  total             3  $0.267  >= $0.100  -$0.167  [-$0.283, -$0.050]",
      "  valid             3  $0.267  >= $0.100  -$0.167  [-$0.283, -$0.050]",
    ]);
    expect(lines).toContain("  B: 1 attempt without a cost (not read as 0): >= a lower bound, B - A unbounded");
    const md = await compare(A, partial, "--format", "md");
    expect(md.stdout).toContain("| total | 3 | $0.267 | >= $0.100 | -$0.167 | \\[-$0.283, -$0.050\\] |");
    const html = (await compare(A, partial, "--format", "html")).stdout;
    expect(html).toContain('<section id="cost"><h2>Cost per solved task (final basis, paired tasks): B - A</h2>');
    expect(html).toContain("&gt;= $0.100");
    // the same inputs without a cost anywhere print no such section
    const bare = (rs: object[]) => rs.map((x) => ({ ...x, cost_usd: undefined }));
    expect((await compare(bare(A), bare(B))).stdout).not.toContain("Cost per solved task");
  });
});
