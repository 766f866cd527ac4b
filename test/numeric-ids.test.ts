/**
 * A task id written as a JSON number keeps the text it was written with, as
 * digits past 2^53 do (docs/identity-and-inputs.md): `0` and `-0`, `1`, `1.0`
 * and `1e0` are five tasks, never merged as duplicates. A number written in
 * its shortest form reads as that text, so `1` and `"1"` stay one task.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLine } from "../src/ingest/records/parse-line.js";
import { evalArchive, evalSpec } from "./eval-archives.js";
import { denom, tempDir } from "./helpers.js";

const line = (id: string, status: string) => `{"task_id": ${id}, "status": "${status}"}`;

describe("numeric ids keep their text", () => {
  it('0, -0, 1, 1.0, 1e0 and "1": five tasks, one duplicate (1 and "1")', async () => {
    const ids = ["0", "-0", "1", "1.0", "1e0", '"1"'];
    const d = tempDir({ "run.jsonl": `${ids.map((id, i) => line(id, i % 2 ? "failure" : "success")).join("\n")}\n` });
    const r = await denom(["export", join(d, "run.jsonl"), "--what", "trials", "--format", "json", "-o", "-"]);
    expect(r.code).toBe(0);
    const trials = r.json() as { task_id: string; final_status: string }[];
    // by hand: 0 success, -0 failure, 1 success, 1.0 failure, 1e0 success; "1" (failure) is task 1 again,
    // the later of two differing duplicates with no ended_at: the first line's outcome stays
    expect(trials.map((t) => t.task_id).sort()).toEqual(["-0", "0", "1", "1.0", "1e0"]);
    const report = await denom(["report", "--json", join(d, "run.jsonl")]);
    expect(report.json().accounting).toMatchObject({ lines: 6, records: 6, rejected: 0, duplicates: 1 });
  });

  it("in a JSON document (read by stream-json) too: 0, -0, 1, 1.0, 1e0 are five tasks", async () => {
    const ids = ["0", "-0", "1", "1.0", "1e0"];
    const d = tempDir({ "run.json": `[${ids.map((id) => line(id, "success")).join(",\n")}]\n` });
    const r = await denom(["export", join(d, "run.json"), "--what", "trials", "--format", "json", "-o", "-"]);
    expect(r.code).toBe(0);
    expect((r.json() as { task_id: string }[]).map((t) => t.task_id).sort()).toEqual(["-0", "0", "1", "1.0", "1e0"]);
  });

  it("the parsed value: a BigLiteral holding the text, only for a top-level id not in its shortest form", () => {
    const read = (text: string) => {
      const r = parseLine(text);
      if (r.kind !== "value") throw new Error(r.kind);
      return r.value;
    };
    expect(String(read(line("-0", "success")).task_id)).toBe("-0");
    expect(String(read(line("1.0", "success")).task_id)).toBe("1.0");
    expect(String(read(line("1e0", "success")).task_id)).toBe("1e0");
    expect(read(line("1", "success")).task_id).toBe(1);
    // a number elsewhere keeps JSON.parse's value
    expect(read('{"task_id": 2.50, "status": "success", "score": 1.0}').score).toBe(1);
  });
});

describe("numeric ids keep their text in .eval samples", () => {
  it("samples with ids 1 and 1.0 (each its own member): two tasks, not one task and a duplicate", async () => {
    const header = {
      version: 2,
      status: "success",
      eval: evalSpec({ eval_id: "N1", run_id: "R1", task: "t", model: "m", ids: [1, 2] }),
      results: { total_samples: 2, completed_samples: 2 },
    };
    // written as text: JSON.stringify would write 1.0 as 1
    const raw = (id: string, value: string) =>
      `{"id": ${id}, "epoch": 1, "input": "x", "target": "T", "messages": [], "scores": {"match": {"value": "${value}"}}}`;
    const d = tempDir();
    const path = join(d, "n.eval");
    writeFileSync(
      path,
      await evalArchive([
        { name: "header.json", content: header },
        { name: "samples/1_epoch_1.json", content: raw("1", "C") },
        { name: "samples/1.0_epoch_1.json", content: raw("1.0", "I") },
        { name: "summaries.json", content: [] },
      ]),
    );
    const r = await denom(["export", path, "--what", "trials", "--format", "json", "-o", "-"]);
    expect(r.code).toBe(0);
    // by hand: task t/1 passed (C), task t/1.0 failed (I) (a task is <task>/<sample id>)
    const trials = (r.json() as { task_id: string; final_status: string }[]).map((t) => [t.task_id, t.final_status]).sort();
    expect(trials).toEqual([
      ["t/1", "success"],
      ["t/1.0", "failure"],
    ]);
  });
});
