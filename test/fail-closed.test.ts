/**
 * Fail closed: inputs that yield no record, gates that compared nothing or too little,
 * thresholds that are no rate, and --strict whose words agree with its exit code.
 * Every expected value is worked out by hand from the records written here or from
 * ../shared/cases-compare.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, hasShared, jsonl, SHARED, tempDir } from "./helpers.js";

const FLIP = join(SHARED, "cases-compare", "compare-flip");

// three tasks, one trial each: a and b pass, c fails. final/total = 2/3 = 66.7% over 3 tasks
const THREE = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "success" }, { task_id: "c", status: "failure" });
const dir = tempDir({
  "three.jsonl": THREE,
  // the same three records, then a line that is no JSON: 4 lines = 3 records + 1 rejected
  "bad.jsonl": `${THREE}not json\n`,
  "empty.jsonl": "",
  "blank.jsonl": "\n\n\n",
  // t1 alone, passed: paired with t1 of one.jsonl below it makes one paired task
  "one.jsonl": jsonl({ task_id: "t1", status: "success" }),
  "one-b.jsonl": jsonl({ task_id: "t1", status: "failure" }),
});
const THREE_PATH = join(dir, "three.jsonl");
const BAD = join(dir, "bad.jsonl");
const EMPTY = join(dir, "empty.jsonl");
const BLANK = join(dir, "blank.jsonl");

describe("inputs that yield no record exit 1 (a gate's 4), nothing printed on stdout", () => {
  it("every command that reads runs: report, audit, export, timeouts; stdin too", async () => {
    for (const args of [["report"], ["report", "--json"], ["audit", "--claim", "0.5"], ["export", "--what", "rates"], ["timeouts"]]) {
      const r = await denom([...args, EMPTY]);
      expect([args.join(" "), r.code, r.stdout, r.stderr]).toEqual([args.join(" "), 1, "", `denom: no record in ${EMPTY} (empty): nothing to report\n`]);
    }
    // three newlines: 3 lines, all blank
    expect(await denom(["report", BLANK])).toMatchObject({ code: 1, stdout: "", stderr: `denom: no record in ${BLANK} (3 blank lines): nothing to report\n` });
    expect(await denom(["report", "-"], "")).toMatchObject({ code: 1, stdout: "", stderr: "denom: no record in - (empty): nothing to report\n" });
  });

  it("beside an input that has records, an empty file is counted (0 lines), not an error", async () => {
    const r = await denom(["report", "--json", THREE_PATH, EMPTY]);
    expect(r.code).toBe(0);
    expect(r.json().accounting).toMatchObject({ lines: 3, records: 3 });
  });

  it("gate: exit 4, the gate fails closed", async () => {
    const r = await denom(["gate", EMPTY, "--max", "rejected=0"]);
    expect(r).toMatchObject({ code: 4, stdout: "", stderr: `denom: no record in ${EMPTY} (empty): nothing to report; the gate fails closed (exit 4)\n` });
    expect((await denom(["gate", "-", "--min", "final/total=0.5"], "\n")).code).toBe(4);
  });

  it("compare: an empty side is exit 1, and with --fail-if-worse the gate's 4", async () => {
    const plain = await denom(["compare", THREE_PATH, EMPTY]);
    expect(plain).toMatchObject({ code: 1, stdout: "", stderr: `denom: no record in ${EMPTY} (empty): nothing to report\n` });
    const gated = await denom(["compare", EMPTY, THREE_PATH, "--fail-if-worse", "final/total"]);
    expect(gated).toMatchObject({ code: 4, stdout: "" });
    expect(gated.stderr).toBe(`denom: no record in ${EMPTY} (empty): nothing to report; the gate fails closed (exit 4)\n`);
  });
});

describe("gate thresholds: a rate in [0, 1] or a percent with %", () => {
  it("a bare number above 1 is a usage error naming both forms; 35% and 0.35 are the same bar", async () => {
    const bare = await denom(["gate", THREE_PATH, "--min", "final/total=35"]);
    expect(bare).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "denom: --min final/total=35: final/total is a rate: write a fraction in [0, 1] or a percent with %, e.g. final/total=0.35 or final/total=35%\n",
    });
    // 2/3 = 66.7% >= 35%: both forms pass, and both print the bar as 35.0%
    for (const bar of ["0.35", "35%"]) {
      const r = await denom(["gate", THREE_PATH, "--min", `final/total=${bar}`]);
      expect([bar, r.code, r.stdout]).toEqual([bar, 0, "ok   final/total = 66.7% (2/3), min 35.0%\ngate passed: the condition holds\n"]);
    }
  });

  it("out of range either way, on every rate figure; counts and seconds take any number", async () => {
    for (const c of ["final/total=1.5", "final/total=150%", "final/total=-0.1", "timeout_rate=5", "environment_share=101%"]) {
      const r = await denom(["gate", THREE_PATH, c.startsWith("final") ? "--min" : "--max", c]);
      expect([c, r.code]).toEqual([c, 2]);
      expect(r.stderr).toContain("is a rate: write a fraction in [0, 1] or a percent with %");
    }
    // no attempt has a duration: p95_s is n/a and fails; the bar of 600 s itself is no usage error
    const p95 = await denom(["gate", THREE_PATH, "--max", "p95_s=600", "--max", "rejected=3"]);
    expect(p95.code).toBe(4);
    expect(p95.stdout).toBe("FAIL p95_s = n/a, max 600 s: n/a never passes\nok   rejected = 0, max 3\ngate failed: 1 condition of 2 not met (exit 4)\n");
  });
});

describe("gate --min-tasks N", () => {
  it("a figure standing on fewer tasks fails, and says so", async () => {
    const r = await denom(["gate", THREE_PATH, "--min", "final/total=0.5", "--min-tasks", "4"]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe("FAIL final/total = 66.7% (2/3), min 50.0%: 3 tasks, fewer than --min-tasks 4\ngate failed: 1 condition of 1 not met (exit 4)\n");
    const json = (await denom(["gate", "--json", THREE_PATH, "--min", "final/total=0.5", "--min-tasks", "4"])).json();
    expect(json).toMatchObject({ passed: false, min_tasks: 4, conditions: [{ figure: "final/total", value: 2 / 3, tasks: 3, passed: false }] });
    expect((await denom(["gate", THREE_PATH, "--min", "final/total=0.5", "--min-tasks", "3"])).code).toBe(0);
  });

  it("a cell counts the tasks its denominator keeps; a metric every task of the run", async () => {
    // with c's failure read as invalid (fault task), final/valid keeps a and b: 2/2 over 2 tasks
    const r = await denom([
      "gate",
      "--json",
      THREE_PATH,
      "--status-map",
      "failure=invalid",
      "--min",
      "final/valid=0.5",
      "--max",
      "timeout_rate=0",
      "--min-tasks",
      "3",
    ]);
    expect(r.code).toBe(4);
    expect(r.json().conditions).toMatchObject([
      { figure: "final/valid", value: 1, numerator: 2, denominator: 2, tasks: 2, passed: false },
      { figure: "timeout_rate", value: 0, tasks: 3, passed: true },
    ]);
  });

  it("N is a whole number >= 1", async () => {
    for (const n of ["0", "1.5", "many"]) {
      const r = await denom(["gate", THREE_PATH, "--min", "final/total=0.5", "--min-tasks", n]);
      expect([n, r.code, r.stderr]).toEqual([n, 2, `denom: --min-tasks ${n}: expected a whole number >= 1, e.g. --min-tasks 30\n`]);
    }
  });
});

describe("gate --strict prints what its exit code says", () => {
  it("one rejected line: 'gate failed' and exit 1; passed false in --json", async () => {
    const r = await denom(["gate", BAD, "--min", "final/total=0.5", "--strict"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("ok   final/total = 66.7% (2/3), min 50.0%\ngate failed: 1 line rejected and --strict is set (exit 1)\n");
    expect(r.stderr).toContain("denom: 1 line rejected and --strict is set\n");
    const json = await denom(["gate", "--json", BAD, "--min", "final/total=0.5", "--strict"]);
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({ passed: false, strict_failed: true, empty: false, lines: 4, records: 3, rejected: 1 });
  });

  it("without --strict the rejected line is a warning and the gate passes", async () => {
    const r = await denom(["gate", BAD, "--min", "final/total=0.5"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok   final/total = 66.7% (2/3), min 50.0%\ngate passed: the condition holds\n");
  });
});

describe("compare --fail-if-worse fails closed", () => {
  it("no task on both sides: nothing compared, exit 4 (was: ok, exit 0)", async () => {
    // three.jsonl holds a, b, c; one.jsonl t1: no common task, 0 paired tasks in every cell
    const r = await denom(["compare", "--json", THREE_PATH, join(dir, "one.jsonl"), "--fail-if-worse", "final/total"]);
    expect(r.code).toBe(4);
    expect(r.json().fail_if_worse).toEqual({
      cell: "final/total",
      worse: false,
      ci95: null,
      verdict: "nothing compared",
      tasks: 0,
      min_tasks: 2,
      empty_side: null,
      strict_failed: false,
      inconclusive_fails: false,
      failed: true,
    });
    expect(r.stderr).toBe(
      // the candidate is named by its file name (the sides differ in no agent or model), never its path
      `denom: one.jsonl: --fail-if-worse final/total: FAIL, 0 paired tasks in final/total, fewer than --min-tasks 2 (exit 4)\n`,
    );
    const text = await denom(["compare", THREE_PATH, join(dir, "one.jsonl"), "--fail-if-worse", "final/total"]);
    expect(text.stdout).toContain("\n--fail-if-worse final/total: FAIL, 0 paired tasks in final/total, fewer than --min-tasks 2 (exit 4)\n");
  });

  it("one paired task has no interval: nothing compared even at --min-tasks 1", async () => {
    // t1 passed on A, failed on B: T = 1, se null
    const r = await denom(["compare", join(dir, "one.jsonl"), join(dir, "one-b.jsonl"), "--fail-if-worse", "final/total", "--min-tasks", "1"]);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain("\n--fail-if-worse final/total: FAIL, nothing compared: 1 paired task in final/total, and an interval needs 2 (exit 4)\n");
  });

  it.skipIf(!hasShared)("--min-tasks N against the tasks the cell pairs (compare-flip: final/attributable pairs 6)", async () => {
    const args = ["compare", join(FLIP, "baseline.jsonl"), join(FLIP, "candidate.jsonl"), "--fail-if-worse", "final/attributable"];
    const seven = await denom([...args, "--min-tasks", "7"]);
    expect(seven.code).toBe(4);
    expect(seven.stdout).toContain("\n--fail-if-worse final/attributable: FAIL, 6 paired tasks in final/attributable, fewer than --min-tasks 7 (exit 4)\n");
    // 6 tasks, ci95 [-74.7, +8.0] points spans 0: inconclusive, the gate holds
    const six = await denom([...args, "--min-tasks", "6", "--json"]);
    expect(six.code).toBe(0);
    expect(six.json().fail_if_worse).toMatchObject({ verdict: "inconclusive", tasks: 6, min_tasks: 6, failed: false });
  });

  it("--strict with a rejected line on a side: FAIL in the output, exit 1", async () => {
    const r = await denom(["compare", THREE_PATH, BAD, "--fail-if-worse", "final/total", "--strict"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("\n--fail-if-worse final/total: FAIL, --strict is set and the inputs had rejected lines or broken sources (exit 1)\n");
    expect(r.stderr).toContain("denom: 1 line rejected and --strict is set\n");
  });

  it("--min-tasks belongs to the gate", async () => {
    const r = await denom(["compare", THREE_PATH, THREE_PATH, "--min-tasks", "3"]);
    expect(r).toMatchObject({ code: 2, stderr: "denom: --min-tasks sets the least paired tasks of the --fail-if-worse gate; add --fail-if-worse CELL\n" });
  });
});

describe.skipIf(!hasShared)("compare: a verdict per cell", () => {
  it("compare-flip: final/total inconclusive (ci95 [-0.176, 0.676] spans 0)", async () => {
    const out = (await denom(["compare", "--json", join(FLIP, "baseline.jsonl"), join(FLIP, "candidate.jsonl")])).json();
    const verdict = (key: string) => out.cells.find((c: { basis: string; denominator: string }) => `${c.basis}/${c.denominator}` === key).verdict;
    expect(verdict("final/total")).toBe("inconclusive");
    expect(verdict("final/attributable")).toBe("inconclusive");
  });

  it("ten tasks A passes and B fails: worse; the other way round better", async () => {
    // d = -1 on every task, se 0: ci95 [-1, -1], entirely below 0
    const ids = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const d = tempDir({
      "a.jsonl": jsonl(...ids.map((task_id) => ({ task_id, status: "success" }))),
      "b.jsonl": jsonl(...ids.map((task_id) => ({ task_id, status: "failure" }))),
    });
    const ab = (await denom(["compare", "--json", join(d, "a.jsonl"), join(d, "b.jsonl")])).json();
    const ba = (await denom(["compare", "--json", join(d, "b.jsonl"), join(d, "a.jsonl")])).json();
    expect(ab.cells.map((c: { verdict: string }) => c.verdict)).toEqual(Array(8).fill("worse"));
    expect(ba.cells.map((c: { verdict: string }) => c.verdict)).toEqual(Array(8).fill("better"));
  });
});
