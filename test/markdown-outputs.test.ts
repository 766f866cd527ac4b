/**
 * `--format md` on every command that has a text report (report, compare,
 * gate, audit, timeouts, formats): the same figures as the text, as GitHub
 * markdown; text from the inputs escaped. Expected outputs worked out by hand
 * from the records below.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, jsonl, tempDir } from "./helpers.js";

/** Two tasks: a passes, b fails: final/total 1/2 = 50.0%, no timeout. */
const TWO = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" });

describe("--format md", () => {
  it("gate: one row per condition, the verdict in bold, the exit code unchanged", async () => {
    const file = join(tempDir({ "two.jsonl": TWO }), "two.jsonl");
    const pass = await denom(["gate", file, "--min", "final/total=0.5", "--format", "md"]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toBe(
      [
        "| result | figure | measured | bound | note |",
        "| --- | --- | ---: | --- | --- |",
        "| ok | `final/total` | 50.0% (1/2) | min 50.0% |  |",
        "",
        "**gate passed: the condition holds**",
        "",
      ].join("\n"),
    );
    const fail = await denom(["gate", file, "--min", "final/total=0.9", "--max", "timeout_rate=0", "--format", "md"]);
    expect(fail.code).toBe(4);
    expect(fail.stdout.split("\n").slice(2, 4)).toEqual([
      "| **FAIL** | `final/total` | 50.0% (1/2) | min 90.0% |  |",
      "| ok | `timeout_rate` | 0.0% (0/2) | max 0.0% |  |",
    ]);
    expect(fail.stdout).toContain("**gate failed: 1 condition of 2 not met (exit 4)**\n");
  });

  it("timeouts: the rules, then one table row per timeout attempt, a | in a task id escaped", async () => {
    const file = join(
      tempDir({ "t.jsonl": jsonl({ task_id: "a|b", status: "timeout", timeout_limit_s: 300 }, { task_id: "c", status: "success" }) }),
      "t.jsonl",
    );
    const r = await denom(["timeouts", file, "--format", "md"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "#### 1 timeout attempt",
        "",
        "rules in order: queue >= 25% of the limit, external, loop >= 5 calls, sluggish x2",
        "",
        "| task | trial | attempt | cause | evidence |",
        "| --- | ---: | ---: | --- | --- |",
        "| a\\|b | 0 | 1 | unknown | no agent events recorded |",
        "",
      ].join("\n"),
    );
  });

  it("audit: a heading per claim, its lines as a list, the total of several claims in bold; exit 3 when one is not reproduced", async () => {
    const file = join(tempDir({ "two.jsonl": TWO }), "two.jsonl");
    const one = await denom(["audit", file, "--claim", "50%", "--format", "md"]);
    expect(one.code).toBe(0);
    const lines = one.stdout.split("\n");
    expect(lines[0]).toMatch(/^#### Claim 50%: reproduced by \d+ definitions? \(49\.5% to 50\.5%, bounds included; /);
    expect(lines[1]).toBe("");
    expect(lines).toContain("- strict figure: final successes over all trials: 1/2 = 50%");
    const two = await denom(["audit", file, "--claim", "50%", "--claim", "90%", "--format", "md"]);
    expect(two.code).toBe(3);
    expect(two.stdout).toContain("#### Claim 90%: not reproduced: no definition gives 89.5% to 90.5%");
    expect(two.stdout.endsWith("\n\n**1 of 2 claims reproduced**\n")).toBe(true);
  });

  it("is listed in --help of every command that has it, and refused by name elsewhere", async () => {
    for (const command of ["report", "compare", "gate", "audit", "timeouts", "formats"]) {
      const help = await denom([command, "--help"]);
      expect(help.stdout, command).toMatch(/--format <name>\s+the output: table, json, md/);
    }
    const ingest = await denom(["ingest", "x.jsonl", "--db", join(tempDir(), "x.duckdb"), "--format", "md"]);
    expect(ingest.code).toBe(2);
    expect(ingest.stderr).toBe(
      "denom: --format md: no such output; use one of table, json (the input's format is --input-format NAME; denom formats lists them)\n",
    );
  });
});
