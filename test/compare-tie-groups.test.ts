/**
 * Tie groups of `compare --by FIELD` with two candidates or more: every pair of
 * groups compared as compare compares two, the p-values Holm-adjusted over all
 * the pairs, two groups separable when that p is below 0.05; ranks and tie
 * groups in the order of rates (docs/compare.md). Worked out by hand below;
 * every task has one trial per group, so each pair's test is exact McNemar:
 * p = min(1, 2 sum_{i<=min(b,c)} C(b+c, i) / 2^(b+c)).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, jsonl, tempDir } from "./helpers.js";

type Out = any;
/** One trial per task t0..t9 for each agent, the first `passes` of them successes. */
function agents(...spec: [string, number][]): string {
  return jsonl(
    ...spec.flatMap(([agent, passes]) => Array.from({ length: 10 }, (_, t) => ({ task_id: `t${t}`, agent, status: t < passes ? "success" : "failure" }))),
  );
}

describe("compare --by with two candidates or more: tie groups", () => {
  // alpha passes 10, bravo 5, charlie 0.
  // alpha-bravo: b = 5, c = 0, p = 2 / 2^5 = 0.0625; bravo-charlie the same; alpha-charlie: b = 10, p = 2 / 2^10 = 0.001953125.
  // Holm over the 3 pairs: 0.001953125 x 3 = 0.005859375; 0.0625 x 2 = 0.125; 0.0625 x 1 -> max 0.125.
  // Separable: alpha-charlie only. Order of rates: alpha 1.0, bravo 0.5, charlie 0.
  // Tie groups: alpha leads 1; bravo is not separable from alpha: 1; charlie is: leads 2.
  // Ranks: alpha 1 .. 3 - 1 (charlie behind) = 1-2; bravo 1-3; charlie 1 + 1 (alpha ahead) = 2 .. 3.
  const chain = join(tempDir({ "runs.jsonl": agents(["alpha", 10], ["bravo", 5], ["charlie", 0]) }), "runs.jsonl");

  it("groups a chain by its first: {alpha, bravo}, {charlie}, with the ranks each may hold", async () => {
    const out: Out = (await denom(["compare", "--json", chain, "--by", "agent", "--baseline", "alpha"])).json();
    expect(out.tie_groups).toMatchObject({ basis: "final", denominator: "total", pairs: 3 });
    expect(out.tie_groups.groups.map((g: Out) => [g.value, g.successes, g.count, g.rank_best, g.rank_worst, g.tie_group, g.leader])).toEqual([
      ["alpha", 10, 10, 1, 2, 1, "alpha"],
      ["bravo", 5, 10, 1, 3, 1, "alpha"],
      ["charlie", 0, 10, 2, 3, 2, "charlie"],
    ]);
    expect(out.tie_groups.text).toBe("2 tie groups in final/total: {alpha, bravo}, {charlie}");
    // the comparisons against the baseline keep their own Holm family of 2:
    // 0.001953125 x 2 = 0.00390625; 0.0625 x 1 -> max 0.0625
    const holm = out.comparisons.map((c: Out) => c.cells.find((x: Out) => x.basis === "final" && x.denominator === "total").p_holm);
    expect(holm).toEqual([0.0625, 0.00390625]);
  });

  it("prints them in text, one row a group in the order of rates", async () => {
    const r = await denom(["compare", chain, "--by", "agent", "--baseline", "alpha"]);
    expect(r.code).toBe(0);
    const at = r.stdout.indexOf("Tie groups: 2 tie groups in final/total: {alpha, bravo}, {charlie}");
    expect(at).toBeGreaterThan(0);
    const rows = r.stdout
      .slice(at)
      .split("\n")
      .slice(2, 5)
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ["alpha", "10/10 100.0%", "1-2", "1 (alpha)"],
      ["bravo", "5/10 50.0%", "1-3", "1 (alpha)"],
      ["charlie", "0/10 0.0%", "2-3", "2 (charlie)"],
    ]);
  });

  it("in the gated cell when --fail-if-worse names one", async () => {
    const out: Out = (await denom(["compare", "--json", chain, "--by", "agent", "--baseline", "alpha", "--fail-if-worse", "first/valid"])).json();
    expect([out.tie_groups.basis, out.tie_groups.denominator]).toEqual(["first", "valid"]);
  });

  it("two blocks: {alpha, bravo}, {charlie, delta}, each pair within a block inseparable", async () => {
    // alpha, bravo pass 10; charlie, delta 0. The four cross pairs: b = 10, p = 0.001953125; the two
    // within a block: b = c = 0, p = 1. Holm over 6: 0.001953125 x 6 = 0.01171875 (the next three
    // keep that maximum); 1 x 2 -> 1. Ranks: alpha, bravo 1 .. 4 - 2 = 1-2; charlie, delta 3-4.
    const dir = tempDir({ "runs.jsonl": agents(["alpha", 10], ["bravo", 10], ["charlie", 0], ["delta", 0]) });
    const out: Out = (await denom(["compare", "--json", join(dir, "runs.jsonl"), "--by", "agent", "--baseline", "charlie"])).json();
    expect(out.tie_groups.pairs).toBe(6);
    expect(out.tie_groups.groups.map((g: Out) => [g.value, `${g.rank_best}-${g.rank_worst}`, g.tie_group])).toEqual([
      ["alpha", "1-2", 1],
      ["bravo", "1-2", 1],
      ["charlie", "3-4", 2],
      ["delta", "3-4", 2],
    ]);
  });

  it("none with one candidate, and no key with two inputs", async () => {
    const dir = tempDir({ "two.jsonl": agents(["alpha", 10], ["bravo", 5]), "a.jsonl": agents(["alpha", 10]), "b.jsonl": agents(["bravo", 5]) });
    const by: Out = (await denom(["compare", "--json", join(dir, "two.jsonl"), "--by", "agent", "--baseline", "alpha"])).json();
    expect(by.tie_groups).toBeNull();
    const inputs: Out = (await denom(["compare", "--json", join(dir, "a.jsonl"), join(dir, "b.jsonl")])).json();
    expect("tie_groups" in inputs).toBe(false);
    const text = await denom(["compare", join(dir, "two.jsonl"), "--by", "agent", "--baseline", "alpha"]);
    expect(text.stdout).not.toContain("Tie groups");
  });
});
