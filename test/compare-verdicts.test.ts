/**
 * compare's verdict line, --fail-if-inconclusive and the sides' names
 * (--label; by default the identity that differs, never a path). Figures
 * worked by hand from the records below (one trial per task and side, so a
 * task's share is 0 or 1).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, jsonl, tempDir } from "./helpers.js";

type Outcome = "success" | "failure";
const side = (model: string, outcomes: Outcome[]) => jsonl(...outcomes.map((status, i) => ({ task_id: `t${i + 1}`, status, agent: "x", model })));

/**
 * d_t = B - A: +1, 0, 0, -1, +1. difference 0.2; var (n - 1) 2.8 / 4 = 0.7; se = sqrt(0.7 / 5) = 0.374166;
 * ci95 0.2 -+ 1.959964 x 0.374166 = [-0.533352, 0.933352]; mde80 2.801585 x 0.374166 = 1.048261;
 * tasks needed ceil(2.801585^2 x 0.7 / 0.04) = ceil(137.36) = 138.
 */
const SPANS_A = side("ma", ["failure", "success", "success", "success", "failure"]);
const SPANS_B = side("mb", ["success", "success", "success", "failure", "success"]);
/** B passes the 4 tasks A fails: d_t = +1 for every task, var 0, se 0, ci95 [1, 1]: better; tasks needed ceil(7.85 x 0 / 1) = 0. */
const BETTER_A = side("ma", ["failure", "failure", "failure", "failure"]);
const BETTER_B = side("mb", ["success", "success", "success", "success"]);

function files(a: string, b: string, names = ["a.jsonl", "b.jsonl"]): [string, string] {
  const dir = tempDir({ [names[0]]: a, [names[1]]: b });
  return [join(dir, names[0]), join(dir, names[1])];
}

describe("compare: the verdict line", () => {
  it("better: B is better than A, named by the model that differs", async () => {
    const r = await denom(["compare", ...files(BETTER_A, BETTER_B)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Verdict: final/total: B (model mb) is better than A (model ma): +100.0 points, 95% CI [+100.0, +100.0], over 4 paired tasks\n");
    expect(r.stdout).toContain("  A (baseline): model ma · agent x · 4 tasks, 4 trials\n");
    const json = (await denom(["compare", "--json", ...files(BETTER_A, BETTER_B)])).json();
    expect(json.headline).toEqual({ cell: "final/total", verdict: "better", tasks: 4, difference: 1, ci95: [1, 1], mde80: 0, tasks_needed: 0 });
    expect(json.baseline.label).toBe("model ma");
  });

  it("inconclusive: what these tasks detect and how many would settle it; --fail-if-inconclusive exits 4", async () => {
    const [a, b] = files(SPANS_A, SPANS_B);
    const r = await denom(["compare", a, b]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "Verdict: final/total: inconclusive: B - A = +20.0 points, 95% CI [-53.3, +93.3] spans 0, over 5 paired tasks; these tasks detect 104.8 points or more (mde80); about 138 paired tasks would detect +20.0 points (80% power)\n",
    );
    const gated = await denom(["compare", a, b, "--fail-if-inconclusive"]);
    expect(gated.code).toBe(4);
    expect(gated.stderr).toBe(
      "denom: model mb: --fail-if-worse final/total --fail-if-inconclusive: FAIL, inconclusive: the 95% CI [-53.3, +93.3] points spans 0 (exit 4)\n",
    );
    const better = await denom(["compare", ...files(BETTER_A, BETTER_B), "--fail-if-inconclusive"]);
    expect(better.code).toBe(0);
    const md = await denom(["compare", a, b, "--format", "md"]);
    expect(md.stdout).toContain("**Verdict:** final/total: inconclusive: B - A = +20.0 points");
  });

  it("nothing compared: one paired task gives no interval", async () => {
    const r = await denom(["compare", ...files(side("ma", ["failure"]), side("mb", ["success"]))]);
    expect(r.stdout).toContain("Verdict: final/total: nothing compared: 1 paired task, and an interval needs 2\n");
  });
});

describe("compare: the sides' names", () => {
  it("--label names them; a part that is not A=... or B=... is a usage error", async () => {
    const [a, b] = files(BETTER_A, BETTER_B);
    const r = await denom(["compare", a, b, "--label", "A=base,B=cand"]);
    expect(r.stdout).toContain("Verdict: final/total: B (cand) is better than A (base):");
    const twice = await denom(["compare", a, b, "--label", "A=base", "--label", "B=cand"]);
    expect(twice.stdout).toContain("B (cand) is better than A (base)");
    const bad = await denom(["compare", a, b, "--label", "C=x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("denom: --label C=x: expected A=NAME or B=NAME (e.g. --label A=gpt-4o,B=claude)\n");
  });

  it("same agent and model: the file names, never their folders; the same file names: A and B", async () => {
    const same = side("m", ["success", "failure"]);
    const named = await denom(["compare", ...files(same, same, ["run-1.jsonl", "run-2.jsonl"]), "--json"]);
    expect([named.json().baseline.label, named.json().candidate.label]).toEqual(["run-1.jsonl", "run-2.jsonl"]);
    const dir = tempDir();
    for (const d of ["x", "y"]) {
      mkdirSync(join(dir, d));
      writeFileSync(join(dir, d, "runs.jsonl"), same);
    }
    const r = await denom(["compare", join(dir, "x", "runs.jsonl"), join(dir, "y", "runs.jsonl"), "--json"]);
    expect([r.json().baseline.label, r.json().candidate.label]).toEqual(["A", "B"]);
    expect(r.stdout).not.toContain(`"label": "${dir}`);
  });
});

describe("compare --by with several candidates: Holm-adjusted p-values", () => {
  it("adjusts each cell's p over the comparisons against the baseline", async () => {
    // a fails all 6 tasks; b passes all 6: McNemar b = 0, c = 6, p = 2 x C(6,0) / 2^6 = 0.03125;
    // c passes 3: p = 2 x C(3,0) / 2^3 = 0.25. Holm, m = 2: b 2 x 0.03125 = 0.0625; c max(0.0625, 1 x 0.25) = 0.25
    const rows = (agent: string, passes: number) =>
      Array.from({ length: 6 }, (_, i) => ({ task_id: `t${i + 1}`, agent, status: i < passes ? "success" : "failure" }));
    const file = join(tempDir({ "runs.jsonl": jsonl(...rows("a", 0), ...rows("b", 6), ...rows("c", 3)) }), "runs.jsonl");
    const r = await denom(["compare", file, "--by", "agent", "--baseline", "a", "--json"]);
    expect(r.code).toBe(0);
    const cell = (i: number) => r.json().comparisons[i].cells.find((c: any) => c.basis === "final" && c.denominator === "total");
    const byLabel = Object.fromEntries([0, 1].map((i) => [r.json().comparisons[i].candidate.label, cell(i)]));
    expect(byLabel["agent=b"].p_value).toBeCloseTo(0.03125, 12);
    expect(byLabel["agent=b"].p_holm).toBeCloseTo(0.0625, 12);
    expect(byLabel["agent=c"].p_value).toBeCloseTo(0.25, 12);
    expect(byLabel["agent=c"].p_holm).toBeCloseTo(0.25, 12);
    const text = await denom(["compare", file, "--by", "agent", "--baseline", "a"]);
    expect(text.stdout).toContain("p Holm: p adjusted over the 2 comparisons against A (Holm's step-down)");
  });

  it("one comparison keeps its p", async () => {
    const json = (await denom(["compare", "--json", ...files(SPANS_A, SPANS_B)])).json();
    for (const c of json.cells) expect(c.p_holm).toBe(c.p_value);
  });
});
