/**
 * `report --floor INPUT`: a trivial or oracle agent's records on the same tasks,
 * read in a session of their own; every cell shows the floor's rate and the lift
 * over it (run rate - floor rate). Worked by hand on samples/seed-100.jsonl,
 * whose grid the README prints (first/total 70/100, final/total 82/100,
 * final/attributable 82/94, first/completable 70/70), against a do-nothing agent
 * that passes 20 of its 100 tasks and neither times out nor aborts, so every
 * denominator keeps its 100 trials: 20/100 in every cell.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, jsonl, ROOT, tempDir } from "./helpers.js";

type Out = any;
const SEED = join(ROOT, "samples", "seed-100.jsonl");
const TASKS = [
  ...new Set(
    readFileSync(SEED, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).task_id as string),
  ),
].sort();

/** A do-nothing agent's records: one trial per task, the first `passes` of `tasks` successes. */
function noop(tasks: string[], passes: number): string {
  return jsonl(...tasks.map((task_id, i) => ({ task_id, agent: "noop", status: i < passes ? "success" : "failure" })));
}

describe("report --floor", () => {
  const dir = tempDir({ "noop.jsonl": noop(TASKS, 20) });

  it("gives every cell the floor's rate and the lift over it", async () => {
    const r = await denom(["report", "--json", SEED, "--floor", join(dir, "noop.jsonl")]);
    expect(r.code).toBe(0);
    const out: Out = r.json();
    expect(out.floor.inputs).toEqual([join(dir, "noop.jsonl")]);
    expect(out.floor.coverage).toEqual({ run_tasks: 100, floor_tasks: 100, common_tasks: 100, run_only: 0, floor_only: 0 });
    const at = (key: string) => out.floor.cells.find((c: Out) => `${c.basis}/${c.denominator}` === key);
    // every cell of the floor: 20/100
    for (const c of out.floor.cells) expect([c.floor_successes, c.floor_count, c.floor_rate]).toEqual([20, 100, 0.2]);
    expect(at("first/total")).toMatchObject({ successes: 70, count: 100 });
    expect(at("first/total").lift).toBeCloseTo(0.5, 12); // 70/100 - 20/100
    expect(at("final/total").lift).toBeCloseTo(0.62, 12); // 82/100 - 20/100
    expect(at("final/attributable").lift).toBeCloseTo(82 / 94 - 0.2, 12); // 0.6723...
    expect(at("first/completable").lift).toBeCloseTo(0.8, 12); // 70/70 - 20/100
  });

  it("prints a block under the grid: the floor's fraction and the lift in points", async () => {
    const r = await denom(["report", SEED, "--floor", join(dir, "noop.jsonl")]);
    const block = r.stdout.slice(r.stdout.indexOf("Against the floor:"));
    const rows = block
      .split("\n")
      .slice(2, 6)
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows[0]).toEqual(["total", "70.0%", "20/100 20.0%", "+50.0", "82.0%", "20/100 20.0%", "+62.0"]);
    // final/attributable: 82/94 = 87.2%, 87.23 - 20 = +67.2
    expect(rows[2]).toEqual(["attributable", "77.8%", "20/100 20.0%", "+57.8", "87.2%", "20/100 20.0%", "+67.2"]);
    expect(block).toContain("tasks: the same 100 tasks in the run and the floor");
  });

  it("says loudly when the floor's tasks differ from the run's", async () => {
    // the floor has 90 of the run's tasks and 5 of its own: 95 tasks, 90 in common
    const other = tempDir({ "noop.jsonl": noop([...TASKS.slice(0, 90), "x1", "x2", "x3", "x4", "x5"], 19) });
    const r = await denom(["report", SEED, "--floor", join(other, "noop.jsonl")]);
    expect(r.stdout).toContain(
      "! tasks differ: 100 in the run, 95 in the floor, 90 in both (10 only in the run, 5 only in the floor): a lift compares different tasks",
    );
    // 19/95 = 20.0% in every cell
    expect(r.stdout).toContain("19/95 20.0%");
  });

  it("adds nothing without the flag", async () => {
    const out: Out = (await denom(["report", "--json", SEED])).json();
    expect(out.floor).toBeNull();
    expect((await denom(["report", SEED])).stdout).not.toContain("Against the floor");
  });

  it("fails closed on a floor without a record", async () => {
    const empty = tempDir({ "none.jsonl": "\n" });
    const r = await denom(["report", SEED, "--floor", join(empty, "none.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("none.jsonl");
    expect(r.stdout).toBe("");
  });
});
