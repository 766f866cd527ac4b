/**
 * `denom audit`: the family of definitions, matching, wording and exit codes on
 * small hand-built inputs, the seed-100 case, and the Terminal-Bench 1
 * leaderboard figures on the real run records of ../shared (read in place).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CASES, REAL, denom, hasShared, jsonl, tempDir } from "./helpers.js";

const SEED = join(CASES, "seed-100", "attempts.jsonl");

/** A match of the JSON output, found by its definition. */
function findMatch(out: any, basis: string, numerator: string, exclude: object[], aggregation: string) {
  return out.matches.find(
    (m: any) => m.basis === basis && m.numerator === numerator && m.aggregation === aggregation && JSON.stringify(m.exclude) === JSON.stringify(exclude),
  );
}

const shape = (m: any) => ({ basis: m.basis, numerator: m.numerator, exclude: m.exclude, aggregation: m.aggregation, successes: m.successes, count: m.count });

describe("audit on seed-100 (DESIGN section 4 worked example)", () => {
  // seed-100: 70 pass first try; 8 time out then pass; 12 time out then give up (9 time out
  // again, 3 fail); 4 hit an external API error then pass; 6 hit it twice.

  it("87.5% = first-try successes over trials whose first attempt did not time out, 70/80", async () => {
    const r = await denom(["audit", SEED, "--claim", "87.5%"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Claim 87.5%: reproduced by 1 definition (87.45% to 87.55%, bounds included;");
    expect(r.stdout).toContain("  1. first-try successes over trials whose first attempt did not time out: 70/80 = 87.5%\n");
    // left out: the 20 first-attempt timeouts; 8 passed on retry, 12 never did (and all 12 were retried)
    expect(r.stdout).toContain("     leaves out 20 trials; 12 of them never succeeded, even after retries\n");
    // strict: final successes 70 + 8 + 4 = 82 over all 100 trials
    expect(r.stdout).toContain("  strict figure: final successes over all trials: 82/100 = 82%\n");
  });

  it("86.67% = final successes over trials that never hit an environment failure, 78/90", async () => {
    const r = await denom(["audit", SEED, "--claim", "86.67%", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    // the 10 trials with an external API error: 4 passed on retry, 6 did not -> 82 - 4 = 78 over 100 - 10 = 90
    expect(out.matches.map(shape)).toEqual([
      { basis: "final", numerator: "successes", exclude: [{ class: "environment", scope: "any" }], aggregation: "pooled", successes: 78, count: 90 },
    ]);
    expect(out.matches[0].description).toBe("final successes over trials that never hit an environment failure in any attempt");
    // left out 10; the 6 that failed twice never succeeded, and were retried
    expect(out.matches[0].hides).toEqual({ trials: 10, never_succeeded: 6, never_succeeded_retried: 6, late_passes_counted: 0 });
    expect(out.strict).toEqual({ successes: 82, count: 100, rate: 0.82 });
    // 86.67% +- 0.005%
    expect(out.tolerance).toEqual([0.86665, 0.86675]);
    expect(out.claim).toBe("86.67%");
    expect(out.reproduced).toBe(true);
    expect(out.nearest).toBeUndefined();
  });

  it("82% is the strict figure itself: final successes over all trials", async () => {
    const out = (await denom(["audit", SEED, "--claim", "82%", "--json"])).json();
    // [81.5%, 82.5%]: 82/100 only (82/94 = 87.2%, 70/90 = 77.8%, ...)
    expect(out.matches.map(shape)).toEqual([{ basis: "final", numerator: "successes", exclude: [], aggregation: "pooled", successes: 82, count: 100 }]);
  });

  it("95.1% is not reproduced (exit 3); the three nearest definitions come with their distance", async () => {
    const r = await denom(["audit", SEED, "--claim", "95.1%", "--json"]);
    expect(r.code).toBe(3);
    const out = r.json();
    expect(out.reproduced).toBe(false);
    expect(out.matches).toEqual([]);
    // The distinct final-basis figures: 82/100, 82/94 (-6 aborted twice), 78/90 (-10 any env), 82/91 (-9 final
    // timeouts), 74/80 (-20 any timeout), 82/85 (-6 -9), 78/81 (-10 any env, -9 final timeouts), 74/74, 70/70;
    // first basis: 70/100, 70/90, 70/80, 70/70. Nearest 0.951: 78/81 = 0.96296 (+0.01196),
    // 82/85 = 0.96471 (+0.01371), 74/80 = 0.925 (-0.026).
    expect(out.nearest.map((n: any) => [n.successes, n.count])).toEqual([
      [78, 81],
      [82, 85],
      [74, 80],
    ]);
    expect(out.nearest[0].distance).toBeCloseTo(78 / 81 - 0.951, 12);
    // offset = rate - claim, signed; distance = |offset|: 74/80 lies 0.026 below
    expect(out.nearest.map((n: any) => n.offset)).toEqual(out.nearest.map((n: any) => (n.count === 80 ? -n.distance : n.distance)));
    expect(out.nearest[2].offset).toBeCloseTo(0.925 - 0.951, 12);
    expect(out.nearest[0].exclude).toEqual([
      { class: "environment", scope: "any" },
      { class: "timeout", scope: "basis" },
    ]);
    // 12 distinct figures above, out of 2 x 2 x 81 x 2 = 648 definitions
    expect(out.searched).toEqual({ definitions: 648, distinct: 12 });
  });

  it("95.1% as text: 'not reproduced' and the distance in percentage points", async () => {
    const r = await denom(["audit", SEED, "--claim", "95.1%"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("Claim 95.1%: not reproduced: no definition gives 95.05% to 95.15%");
    // (78/81 - 0.951) * 100 = 1.196 -> +1.20 points
    expect(r.stdout).toContain(": 78/81 = 96.296% (+1.20 points)\n");
    // (0.925 - 0.951) * 100 = -2.6
    expect(r.stdout).toContain(": 74/80 = 92.5% (-2.60 points)\n");
  });

  it("a ratio claim matches by value: 70/80 and 7/8 find the same definition", async () => {
    for (const claim of ["70/80", "7/8"]) {
      const out = (await denom(["audit", SEED, "--claim", claim, "--json"])).json();
      expect(out.tolerance).toEqual([0.875, 0.875]);
      expect(out.matches.map(shape)).toEqual([
        { basis: "first", numerator: "successes", exclude: [{ class: "timeout", scope: "basis" }], aggregation: "pooled", successes: 70, count: 80 },
      ]);
    }
  });

  it("several claims: one object each, in an array; exit 3 when one is not reproduced", async () => {
    const r = await denom(["audit", SEED, "--claim", "82%", "--claim", "95.1%", "--json"]);
    expect(r.code).toBe(3);
    expect(r.json().map((a: any) => [a.claim, a.reproduced])).toEqual([
      ["82%", true],
      ["95.1%", false],
    ]);
    const ok = await denom(["audit", SEED, "--claim", "82%", "--claim", "70%"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("2 of 2 claims reproduced\n");
  });

  it("--claims FILE: one claim a line with a label; always an array", async () => {
    const dir = tempDir({ "claims.txt": "# figures seen in the wild\n87.5%  vendor blog\n\n0.951 leaderboard\n" });
    const r = await denom(["audit", SEED, "--claims", join(dir, "claims.txt"), "--json"]);
    expect(r.code).toBe(3);
    const out = r.json();
    expect(out.map((a: any) => [a.claim, a.label, a.reproduced])).toEqual([
      ["87.5%", "vendor blog", true],
      ["0.951", "leaderboard", false],
    ]);
    const one = tempDir({ "claims.txt": "82%\n" });
    expect(Array.isArray((await denom(["audit", SEED, "--claims", join(one, "claims.txt"), "--json"])).json())).toBe(true);
    const text = await denom(["audit", SEED, "--claims", join(dir, "claims.txt")]);
    expect(text.stdout).toContain("Claim 87.5% (vendor blog): reproduced");
  });
});

describe("audit: the family on a hand-built mix of runs", () => {
  // Run A: a1 success, a2 success, a3 failure, a4 timeout that passed verification (late pass),
  //        a5 aborted (environment) then success, a6 invalid.
  // Run B: b1 success, b2 timeout then success, b3 failure, b4 unrecognized status "weird".
  // Run C: c1 aborted (environment).
  // 11 trials in 3 runs. Final successes a1 a2 a5 b1 b2 = 5; first-try successes a1 a2 b1 = 3.
  const dir = tempDir({
    "mix.jsonl": jsonl(
      { run_id: "A", task_id: "a1", status: "success" },
      { run_id: "A", task_id: "a2", status: "success" },
      { run_id: "A", task_id: "a3", status: "failure" },
      { run_id: "A", task_id: "a4", status: "timeout", score: 1 },
      { run_id: "A", task_id: "a5", attempt: 1, status: "aborted" },
      { run_id: "A", task_id: "a5", attempt: 2, status: "success" },
      { run_id: "A", task_id: "a6", status: "invalid" },
      { run_id: "B", task_id: "b1", status: "success" },
      { run_id: "B", task_id: "b2", attempt: 1, status: "timeout" },
      { run_id: "B", task_id: "b2", attempt: 2, status: "success" },
      { run_id: "B", task_id: "b3", status: "failure" },
      { run_id: "B", task_id: "b4", status: "weird" },
      { run_id: "C", task_id: "c1", status: "aborted" },
    ),
  });
  const MIX = join(dir, "mix.jsonl");

  it("the strict figure 5/11 matches exactly one definition, the strict one", async () => {
    const out = (await denom(["audit", MIX, "--pool", "--claim", "5/11", "--json"])).json();
    // 5/11 needs all 11 trials and 5 successes: only final successes pooled (late passes make 6;
    // the mean of A 3/6, B 2/4, C 0/1 is 1/3)
    expect(out.matches.map(shape)).toEqual([{ basis: "final", numerator: "successes", exclude: [], aggregation: "pooled", successes: 5, count: 11 }]);
    expect(out.strict).toEqual({ successes: 5, count: 11, rate: 5 / 11 });
  });

  it("a late pass is a success, not a timeout to exclude, once late passes are counted; equivalent definitions are shown once, simplest first", async () => {
    const out = (await denom(["audit", MIX, "--pool", "--claim", "40%", "--json"])).json();
    // [39.5%, 40.5%] holds only 4/10 here (checked by hand over pooled s/n, n <= 11, and the
    // means of runs). 4/10 = first-try successes plus the late pass a4 (a1 a2 b1 a4) with one
    // trial left out: the invalid a6, the unrecognized b4, or b2 whose first attempt timed out
    // without passing. Leaving out b2 "in any attempt" keeps the same trials (shown once).
    // Order: one exclusion each, least contested class first.
    const late = { basis: "first", numerator: "successes+late_passes", aggregation: "pooled", successes: 4, count: 10 };
    const overall = out.matches.filter((m: any) => m.group === null);
    expect(overall.map(shape)).toEqual([
      { ...late, exclude: [{ class: "invalid", scope: "basis" }] },
      { ...late, exclude: [{ class: "unrecognized", scope: "basis" }] },
      { ...late, exclude: [{ class: "timeout", scope: "basis" }] },
    ]);
    expect(overall[2].description).toBe("first-try successes plus late passes over trials whose first attempt did not time out without passing verification");
    // b2 is left out but succeeded on retry; a4 is counted
    expect(overall[2].hides).toEqual({ trials: 1, never_succeeded: 0, never_succeeded_retried: 0, late_passes_counted: 1 });
    expect(overall[2].equivalent_definitions).toBeGreaterThanOrEqual(1);
    // the claim is checked against each of the 3 runs too: run A alone (a1..a6) gives
    // 2/5 first-try successes with one of a6 (invalid), a5 (aborted first: environment) or a4
    // (timed out first) left out; B (4 trials) and C (1) give no 40%
    expect(out.groups).toEqual([
      { by: "run_id", value: "A" },
      { by: "run_id", value: "B" },
      { by: "run_id", value: "C" },
    ]);
    const first = { basis: "first", numerator: "successes", aggregation: "pooled", successes: 2, count: 5 };
    expect(out.matches.filter((m: any) => m.group !== null).map((m: any) => [m.group, shape(m)])).toEqual([
      [
        { by: "run_id", value: "A" },
        { ...first, exclude: [{ class: "invalid", scope: "basis" }] },
      ],
      [
        { by: "run_id", value: "A" },
        { ...first, exclude: [{ class: "environment", scope: "basis" }] },
      ],
      [
        { by: "run_id", value: "A" },
        { ...first, exclude: [{ class: "timeout", scope: "basis" }] },
      ],
    ]);
  });

  it("scope: an environment failure on any attempt (a5, c1) versus on the final attempt (c1 only)", async () => {
    const out = (await denom(["audit", MIX, "--pool", "--claim", "44.44%", "--json"])).json();
    // any attempt: a5 and c1 out -> final successes a1 a2 b1 b2 = 4 of 9 = 0.4444
    const anyEnv = findMatch(out, "final", "successes", [{ class: "environment", scope: "any" }], "pooled");
    expect([anyEnv.successes, anyEnv.count]).toEqual([4, 9]);
    // a5 (aborted, then success) succeeded in the end; c1 never did and was not retried
    expect(anyEnv.hides).toEqual({ trials: 2, never_succeeded: 1, never_succeeded_retried: 0, late_passes_counted: 0 });
    // final attempt only: c1 out -> 5 of 10 = 0.5, outside [0.44435, 0.44445]
    expect(findMatch(out, "final", "successes", [{ class: "environment", scope: "basis" }], "pooled")).toBeUndefined();
  });

  it("mean of per-run rates: a run with no trial left has no rate and is skipped", async () => {
    const out = (await denom(["audit", MIX, "--pool", "--claim", "58.33%", "--json"])).json();
    // final successes plus late passes, environment failures on the final attempt left out (c1):
    // A: a1 a2 a4 a5 of 6 = 2/3; B: b1 b2 of 4 = 1/2; C: 0 of 0, no rate. Mean (2/3 + 1/2) / 2 = 7/12 = 0.58333
    // (pooled 6/10 = 0.6 would not match [0.58325, 0.58335])
    const m = findMatch(out, "final", "successes+late_passes", [{ class: "environment", scope: "basis" }], "mean_of_runs");
    expect(m).toBeDefined();
    expect([m.successes, m.count]).toEqual([6, 10]);
    expect(m.rate).toBeCloseTo(7 / 12, 12);
    expect(m.runs.map((r: any) => [r.run, r.successes, r.count, r.rate])).toEqual([
      ["A", 4, 6, 4 / 6],
      ["B", 2, 4, 0.5],
      ["C", 0, 0, null],
    ]);
    expect(m.description).toBe(
      "mean of 2 per-run rates (1 run with no trial left skipped): final successes plus late passes over trials whose final attempt did not hit an environment failure",
    );
    expect(findMatch(out, "final", "successes+late_passes", [{ class: "environment", scope: "basis" }], "pooled")).toBeUndefined();
  });
});

describe("audit: tolerance bounds on the command line", () => {
  // 8 trials, 1 success: every definition gives 1/8 = 0.125 (no retries, nothing to exclude, one run)
  const dir = tempDir({
    "eighth.jsonl": jsonl(...Array.from({ length: 8 }, (_, i) => ({ task_id: `t${i}`, status: i === 0 ? "success" : "failure" }))),
  });
  const EIGHTH = join(dir, "eighth.jsonl");

  it.each([
    ["13%", true], // [12.5%, 13.5%]: 12.5% is the lower bound, included
    ["12%", true], // [11.5%, 12.5%]: the upper bound, included
    ["0.125", true],
    ["2/16", true],
    ["12.6%", false], // [12.55%, 12.65%]
    ["0.1249", false], // [0.12485, 0.12495]
  ])("claim %s on 1/8: reproduced %s", async (claim, reproduced) => {
    const r = await denom(["audit", EIGHTH, "--claim", claim as string, "--json"]);
    expect(r.code).toBe(reproduced ? 0 : 3);
    expect(r.json().reproduced).toBe(reproduced);
  });

  it("all 648 definitions select the same trials here: one distinct definition, shown once", async () => {
    const out = (await denom(["audit", EIGHTH, "--claim", "12.5%", "--json"])).json();
    expect(out.searched).toEqual({ definitions: 648, distinct: 1 });
    expect(out.matches).toHaveLength(1);
    expect(out.matches[0].equivalent_definitions).toBe(647);
  });
});

describe("audit: usage and exit codes", () => {
  it("needs a claim (exit 2, names --claim)", async () => {
    const r = await denom(["audit", SEED]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--claim");
  });

  it("rejects a malformed claim before reading anything (exit 2)", async () => {
    const r = await denom(["audit", "/does/not/exist", "--claim", "87.5"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--claim 87.5: more than 1");
  });

  it("names a --claims file that cannot be read (exit 2)", async () => {
    const r = await denom(["audit", SEED, "--claims", join(tempDir(), "missing.txt")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing.txt: cannot read");
  });

  it("--strict with a rejected line exits 1 even when the claim is reproduced", async () => {
    const dir = tempDir({ "a.jsonl": jsonl({ task_id: "t1", status: "success" }, { task_id: "t2", status: "failure" }) + "{broken\n" });
    const r = await denom(["audit", join(dir, "a.jsonl"), "--claim", "50%", "--strict"]);
    expect(r.stdout).toContain("Claim 50%: reproduced");
    expect(r.code).toBe(1);
  });

  it("--help explains the family with examples", async () => {
    const r = await denom(["audit", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toContain("$ denom audit samples/seed-100.jsonl --claim 87.5%");
    expect(r.stdout).toContain("2 x 2 x 3^4 x 2 = 648 definitions");
  });
});

const TB = join(REAL, "terminal-bench-1");

describe.skipIf(!hasShared)("audit on Terminal-Bench 1 leaderboard records (../shared, read in place)", () => {
  // Figures from ../shared/data/real/terminal-bench-1/PROVENANCE.md. Late passes: agent_timeout
  // trials with is_resolved true, which tb counts as resolved.
  const sonnet = join(TB, "20250902_orchestrator_claude-4-sonnet", "results.json");

  it("orchestrator claude-4-sonnet 0.36: late passes counted over all 400 trials, 144/400", async () => {
    const r = await denom(["audit", sonnet, "--claim", "0.36", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    // is_resolved true on 144 of 400 trials (117 plain successes + 27 late passes)
    expect(shape(out.matches[0])).toEqual({
      basis: "final",
      numerator: "successes+late_passes",
      exclude: [],
      aggregation: "pooled",
      successes: 144,
      count: 400,
    });
    expect(out.matches[0].hides.late_passes_counted).toBe(27);
    // strict: 117 resolved without hitting the time limit
    expect(out.strict).toEqual({ successes: 117, count: 400, rate: 117 / 400 });
  });

  it("orchestrator claude-4-sonnet 0.3696: only late passes, environment excluded, mean of the five per-run rates", async () => {
    const out = (await denom(["audit", sonnet, "--claim", "0.3696", "--json"])).json();
    expect(out.reproduced).toBe(true);
    // every match is that definition (the environment exclusion judged on the final attempt, or on any
    // attempt, select the same trials: no retries); pooled 144/390 = 0.3692 is not in [0.36955, 0.36965]
    expect(out.matches).toHaveLength(1);
    const m = out.matches[0];
    expect(shape(m)).toEqual({
      basis: "final",
      numerator: "successes+late_passes",
      exclude: [{ class: "environment", scope: "basis" }],
      aggregation: "mean_of_runs",
      successes: 144,
      count: 390,
    });
    expect(m.runs.map((r: any) => `${r.successes}/${r.count}`)).toEqual(["27/80", "28/78", "25/78", "31/77", "33/77"]);
    // (27/80 + 28/78 + 25/78 + 31/77 + 33/77) / 5 = 444001/1201200
    expect(m.rate).toBeCloseTo(444001 / 1201200, 12);
    // the 10 unknown_agent_error trials, none resolved
    expect(m.hides).toMatchObject({ trials: 10, never_succeeded: 10 });
  });

  it("Mini SWE-Agent, five run files together: 0.128 = late passes counted over all trials, 51/400 = 0.1275", async () => {
    // four of the five run folders name no model (only one has run_metadata.json): nothing says
    // they are one model, so each is a group of its own; --pool says they are one submission
    expect((await denom(["audit", join(TB, "20250825_swe-agent-mini_claude-4-sonnet"), "--claim", "0.128"])).code).toBe(3);
    const r = await denom(["audit", join(TB, "20250825_swe-agent-mini_claude-4-sonnet"), "--pool", "--claim", "0.128", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    // 11 + 9 + 12 + 13 + 6 = 51 resolved (31 successes + 20 late passes) of 5 x 80
    expect(shape(out.matches[0])).toEqual({
      basis: "final",
      numerator: "successes+late_passes",
      exclude: [],
      aggregation: "pooled",
      successes: 51,
      count: 400,
    });
    // five runs, one per file
    const mean = findMatch(out, "final", "successes+late_passes", [], "mean_of_runs");
    expect(mean.runs.map((x: any) => x.successes)).toEqual([11, 9, 12, 13, 6]);
  });

  it("orchestrator claude-4.1-opus: 0.405 is not reproduced; the nearest is about 0.4066, late passes counted, environment excluded", async () => {
    const r = await denom(["audit", join(TB, "20250906_orchestrator_claude-4.1-opus", "results.json"), "--claim", "0.405", "--json"]);
    expect(r.code).toBe(3);
    const out = r.json();
    expect(out.reproduced).toBe(false);
    const near = out.nearest[0];
    expect(near.numerator).toBe("successes+late_passes");
    expect(near.exclude).toEqual([{ class: "environment", scope: "basis" }]);
    // 159 resolved of 400, 9 unknown_agent_error trials out: 0.4066 by either aggregation
    expect([near.successes, near.count]).toEqual([159, 391]);
    expect(near.rate).toBeCloseTo(0.4066, 3);
    expect(out.nearest[1].rate).toBeCloseTo(159 / 391, 12);
  });
});

describe.skipIf(!hasShared)("audit per group and pass^k on real records", () => {
  it("the whole Terminal-Bench folder: 0.128 is no group's, since four of the Mini SWE-Agent runs name no model", async () => {
    const r = await denom(["audit", TB, "--claim", "0.128", "--json"]);
    expect(r.code, r.stderr).toBe(3);
    const out = r.json();
    // strict over everything: 326/1600; per group: 3 orchestrator files (no model), 4 swe-agent-mini
    // runs naming no model, 1 naming claude-sonnet-4-0: 8 groups, none at 0.1275..0.1285
    expect(out.strict).toEqual({ successes: 326, count: 1600, rate: 326 / 1600 });
    expect(out.group_strict).toHaveLength(8);
    expect(out.group_strict.find((g: any) => g.group === "agent swe-agent-mini · model anthropic/claude-sonnet-4-0")).toEqual({
      group: "agent swe-agent-mini · model anthropic/claude-sonnet-4-0",
      successes: 6,
      count: 80,
      rate: 6 / 80,
    });
    expect(out.matches).toEqual([]);
  });

  it("the whole Terminal-Bench folder as text: names each group's strict figure", async () => {
    const text = await denom(["audit", TB, "--claim", "0.128"]);
    expect(text.stdout).toContain("strict figure of each group (final successes over its trials; the 8 groups together match no claim, --pool pools them):");
    expect(text.stdout).toContain("    agent orchestrator · model (none) · run 20250902_orchestrator_qwen-3-coder-480B: 57/400 = 0.1425");
  });

  it("tau-bench gpt-4o airline: 0.273 is pass^2 over 50 tasks of 4 trials", async () => {
    const r = await denom(["audit", join(REAL, "tau-bench", "gpt-4o-airline.json"), "--claim", "0.273", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.matches).toHaveLength(1);
    expect(out.matches[0]).toMatchObject({ group: null, aggregation: "pass^k", k: 2, successes: 84, count: 200 });
    expect(out.matches[0].rate).toBeCloseTo(0.27333, 5);
  });
});

describe("audit: pass@k and pass^k in the family", () => {
  // task x: 2 of 3 trials succeed (trial 0 fails), task y: 3 of 3. pass^2 = (C(2,2)/C(3,2) + 1) / 2
  // = (1/3 + 1) / 2 = 2/3; pass^3 = (0 + 1) / 2 = 1/2; pass@2 = pass@3 = 1. Pooled 5/6; the mean of the
  // three trial-runs (1/2, 1, 1) = 5/6: no rate definition gives 2/3 or 1/2.
  const dir = tempDir({
    "k.jsonl": jsonl(
      { task_id: "x", trial: 0, status: "failure" },
      { task_id: "x", trial: 1, status: "success" },
      { task_id: "x", trial: 2, status: "success" },
      { task_id: "y", trial: 0, status: "success" },
      { task_id: "y", trial: 1, status: "success" },
      { task_id: "y", trial: 2, status: "success" },
    ),
  });

  it("matches pass^2 = 2/3 and pass^3 = 1/2 exactly, and nothing else", async () => {
    const two = (await denom(["audit", join(dir, "k.jsonl"), "--claim", "2/3", "--json"])).json();
    expect(two.matches.map((m: any) => [m.aggregation, m.k, m.group])).toEqual([["pass^k", 2, null]]);
    expect(two.matches[0].description).toBe(
      "pass^2: the chance that all of 2 trials drawn from a task succeed (final successes), mean over 2 tasks with 2 or more trials",
    );
    const half = (await denom(["audit", join(dir, "k.jsonl"), "--claim", "50%", "--json"])).json();
    expect(half.matches.map((m: any) => [m.aggregation, m.k])).toEqual([["pass^k", 3]]);
    const one = (await denom(["audit", join(dir, "k.jsonl"), "--claim", "100%", "--json"])).json();
    // pass@2 and pass@3 are 1; no rate definition keeps only successes (x's failure is a plain failure)
    expect(one.matches.map((m: any) => [m.aggregation, m.k])).toEqual([
      ["pass@k", 2],
      ["pass@k", 3],
    ]);
  });
});

if (!hasShared) console.log("skipped: Terminal-Bench 1 audit tests (../shared/data/real not present)");

describe("audit --db --strict", () => {
  it("exits 1 when the stored runs hold a rejected line, as report does", async () => {
    const dir = tempDir({ "run.jsonl": '{"task_id":"a","status":"success"}\n{"task_id":\n' });
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    // 100% = 1/1 (task a) is reproduced; the one stored reject (line 2) makes --strict exit 1
    const r = await denom(["audit", "--db", db, "--strict", "--claim", "100%"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/1 line rejected and --strict is set/);
    expect((await denom(["audit", "--db", db, "--claim", "100%"])).code).toBe(0);
  });
});
