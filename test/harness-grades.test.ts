/**
 * Grades where the harness wrote them: AgentBench's overall.json
 * (`custom.raw_results[].status` completedCorrect / completedIncorrect, the
 * only grade MedAgentBench writes) and the OpenHands benchmarks SDK's
 * checkpoint score (`test_result.final_score {result, total}`, resolved when
 * result = total > 0). Expected figures are the hand counts of the fixtures'
 * PROVENANCE.md, or counted by hand from the records written here.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cell, denom, FIXTURES, jsonl, once, tempDir } from "./helpers.js";

type Out = any;
const grid = (out: Out, key: string) => [cell(out, key).successes, cell(out, key).count];
const REAL_COPY = join(FIXTURES, "real");

/** A temporary folder holding `files` (paths with folders, made as needed). */
function folderOf(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("AgentBench overall.json custom.raw_results (test/fixtures/real/agentbench-medagentbench-overall)", () => {
  const fixture = join(REAL_COPY, "agentbench-medagentbench-overall");

  it("gpt-4o: completedCorrect 61, completedIncorrect 39: 61/100, the published custom.accuracy 0.61", async () => {
    const r = await denom(["report", join(fixture, "gpt-4o"), "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(grid(out, "final/total")).toEqual([61, 100]);
    expect(out.status_counts.final).toEqual({ success: 61, failure: 39 });
    expect(out.meta.sources.map((s: { adapter: string }) => s.adapter)).toEqual(["agentbench-overall"]);
    const audit = await denom(["audit", join(fixture, "gpt-4o"), "--claim", "0.61", "--json"]);
    expect(audit.code).toBe(0);
  });

  it("llama-3.3: 48 correct, 36 incorrect, 16 agent invalid action (the agent's failures): 48/100", async () => {
    const out = JSON.parse((await denom(["report", join(fixture, "llama-3.3"), "--json"])).stdout);
    expect(grid(out, "final/total")).toEqual([48, 100]);
    expect(grid(out, "final/attributable")).toEqual([48, 100]);
    expect(out.status_detail_counts).toContainEqual({ status: "failure", status_detail: "agent invalid action", first: 16, final: 16 });
  });

  it("reads overall.json instead of the ungraded runs.jsonl beside it (runs.jsonl listed as skipped)", async () => {
    // the real overall.json beside a runs.jsonl of two of its samples, completed and ungraded
    const overall = gunzipSync(readFileSync(join(fixture, "gpt-4o", "medagentbench-std", "overall.json.gz")));
    const runs = jsonl(
      {
        index: 0,
        error: null,
        info: null,
        output: { index: 0, status: "completed", result: "[1]", history: [] },
        time: { timestamp: 1737000000000, str: "x" },
      },
      {
        index: 1,
        error: null,
        info: null,
        output: { index: 1, status: "completed", result: "[2]", history: [] },
        time: { timestamp: 1737000001000, str: "x" },
      },
    );
    const dir = folderOf({ "gpt-4o/medagentbench-std/overall.json": overall, "gpt-4o/medagentbench-std/runs.jsonl": runs });
    const out = JSON.parse((await denom(["report", dir, "--json"])).stdout);
    expect(grid(out, "final/total")).toEqual([61, 100]);
    expect(out.meta.skipped_files.map((f: { name: string; reason: string }) => [f.name.split("/").pop(), f.reason])).toEqual([
      ["runs.jsonl", "AgentBench overall.json beside it holds the same samples with their grades (custom.raw_results, read instead)"],
    ]);
  });

  it("leaves runs.jsonl read beside an overall.json without raw_results (a task whose custom holds only rates)", async () => {
    // runs.jsonl: 1 sample graded true by output.result.result; overall.json: custom {accuracy} only
    const dir = folderOf({
      "m/os-std/overall.json": JSON.stringify({ total: 1, validation: { completed: 1 }, custom: { accuracy: 1 } }),
      "m/os-std/runs.jsonl": jsonl({
        index: 0,
        error: null,
        info: null,
        output: { index: 0, status: "completed", result: { result: true }, history: [] },
        time: { timestamp: 1, str: "x" },
      }),
    });
    const out = JSON.parse((await denom(["report", dir, "--json"])).stdout);
    expect(out.meta.skipped_files).toEqual([]);
    expect(grid(out, "final/total")).toEqual([1, 1]);
  });

  it.each([
    [
      "raw_results not a list",
      { accuracy: 0.5, raw_results: { index: 0 } },
      "custom.raw_results is an object, expected a list of {index, status, result, history}",
    ],
    [
      "an element without an index",
      { accuracy: 0.5, raw_results: [{ status: "completedCorrect" }] },
      "custom.raw_results[0] is not {index, status, result, history} (index missing, status a string)",
    ],
    [
      "a status of the wrong type",
      { accuracy: 0.5, raw_results: [{ index: 3, status: 1 }] },
      "custom.raw_results[0] is not {index, status, result, history} (index a number, status a number)",
    ],
  ])("refuses an overall.json whose %s, naming the format: the file rejected, no grade guessed, exit 1 (no record)", async (_what, custom, reason) => {
    const dir = folderOf({ "m/medagentbench-std/overall.json": JSON.stringify({ total: 1, validation: {}, custom }) });
    const r = await denom(["report", dir, "--json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`overall.json:1: agentbench-overall: ${reason}`);
  });
});

describe("OpenHands test_result.final_score (test/fixtures/real/openhands-openagentsafety-gpt4o)", () => {
  const fixture = join(REAL_COPY, "openhands-openagentsafety-gpt4o");
  const report = once(async () => JSON.parse((await denom(["report", fixture, "--json"])).stdout));

  it("13 of 45 resolved (result = total = 1); 4 evaluator failures aborted as grader errors: 13/45, 13/41 attributable", async () => {
    // PROVENANCE: {1,1} 13, {1,0} 24, {0,0} 4 (total 0: not resolved), no final_score with an evaluator error 4
    const out = await report();
    expect(grid(out, "final/total")).toEqual([13, 45]);
    expect(grid(out, "final/attributable")).toEqual([13, 41]);
    expect(out.status_counts.final).toEqual({ success: 13, failure: 28, aborted: 4 });
    expect(out.status_detail_counts).toContainEqual({ status: "aborted", status_detail: "grader_error", first: 4, final: 4 });
  });

  it("keeps result / total as the score, none when total is 0", async () => {
    // one instance per shape: 2/3 (failure, score 0.667), 3/3 (success, 1), 0/0 (failure, no score)
    const base = { instruction: "", metadata: { agent_class: "A", llm_config: { model: "m" } }, history: [], metrics: {}, error: null, instance: {} };
    const dir = folderOf({
      "run/output.jsonl": jsonl(
        { ...base, instance_id: "a", test_result: { checkpoints: [], final_score: { result: 2, total: 3 } } },
        { ...base, instance_id: "b", test_result: { checkpoints: [], final_score: { result: 3, total: 3 } } },
        { ...base, instance_id: "c", test_result: { checkpoints: [], final_score: { result: 0, total: 0 } } },
      ),
    });
    const out = JSON.parse((await denom(["report", dir, "--json"])).stdout);
    expect(grid(out, "final/total")).toEqual([1, 3]);
    const rows = await denom(["export", dir, "--what", "attempts", "--out", join(dir, "a.csv")]);
    expect(rows.code).toBe(0);
    const csv = readFileSync(join(dir, "a.csv"), "utf8").split("\n");
    const header = csv[0].split(",");
    const scores = Object.fromEntries(
      csv
        .slice(1)
        .filter(Boolean)
        .map((line) => {
          const cells = line.split(",");
          return [cells[header.indexOf("task_id")], cells[header.indexOf("score")]];
        }),
    );
    expect(scores).toEqual({ a: String(2 / 3), b: "1.0", c: "" });
  });

  it("refuses a final_score of another shape, naming the format", async () => {
    const base = { instruction: "", metadata: { agent_class: "A", llm_config: { model: "m" } }, history: [], metrics: {}, error: null, instance: {} };
    // line 1 a result written as a string, line 2 a record that reads: 1 record, 1 rejected
    const dir = folderOf({
      "run/output.jsonl": jsonl(
        { ...base, instance_id: "a", test_result: { final_score: { result: "1", total: 1 } } },
        { ...base, instance_id: "b", test_result: { final_score: { result: 1, total: 1 } } },
      ),
    });
    const out = JSON.parse((await denom(["report", dir, "--json"])).stdout);
    expect(out.accounting.rejected).toBe(1);
    expect(out.rejects[0].reason).toContain("openhands-output: test_result.final_score is not {result, total} with two numbers >= 0");
    expect(grid(out, "final/total")).toEqual([1, 1]);
  });
});
