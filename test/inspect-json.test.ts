/**
 * Inspect `.json` logs in any key order, and logs holding only their header
 * (test/fixtures/real/inspect-json-popularity, derived from an Inspect AI test
 * log: PROVENANCE.md there has the hand count, 8 of 10 samples `C`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sniff } from "../src/ingest/records/reader.js";
import { denom, FIXTURES } from "./helpers.js";

const DIR = join(FIXTURES, "real", "inspect-json-popularity");
type Out = Record<string, any>;
const cell = (out: Out, basis: string, denominator: string) => {
  const r = out.rates.find((x: Out) => x.basis === basis && x.denominator === denominator);
  return [r.successes, r.count];
};
// the log's run: no eval_id, so run_id/task_id/model
const RUN = "2wRuCQ9hGYaGPyAdoobgYV/mj7khqpMM4GBCfVQozKgzB/openai/gpt-4o-mini";

describe("an Inspect .json log whose results and status follow its samples", () => {
  it("reads the samples with the eval header before them and the results after them into the run log", async () => {
    const r = await denom(["report", "--json", join(DIR, "results-after-samples.json")]);
    expect(r.code).toBe(0);
    const out = r.json();
    // 10 samples, ids 3 and 7 `I`, the other 8 `C`
    expect(cell(out, "final", "total")).toEqual([8, 10]);
    expect([out.accounting.lines, out.accounting.records, out.accounting.rejected]).toEqual([10, 10, 0]);
    // status and results.total_samples / completed_samples are written after the samples (10 and 10)
    expect(out.meta.run_logs).toHaveLength(1);
    expect(out.meta.run_logs[0]).toMatchObject({
      run_id: RUN,
      status: "success",
      total_samples: 10,
      completed_samples: 10,
      owed_trials: 10,
      trials: 10,
      missing_trials: 0,
    });
    expect(out.diagnostics.missing).toBe(0);
  });

  it("names the problem when the eval header itself follows the samples, and owes nothing it cannot match", async () => {
    const log = JSON.parse(readFileSync(join(DIR, "results-after-samples.json"), "utf8"));
    const { eval: spec, ...rest } = log;
    const file = join(mkdtempSync(join(tmpdir(), "denom-inspect-")), "eval-last.json");
    writeFileSync(file, JSON.stringify({ ...rest, eval: spec }, null, 2));
    const r = await denom(["report", "--json", file]);
    const out = r.json();
    // the 10 samples read (8 C) under the file's name; the header's 10 owed trials are not counted missing
    expect(cell(out, "final", "total")).toEqual([8, 10]);
    expect(out.diagnostics.missing).toBe(0);
    expect(r.stderr).toContain("eval-last.json: its run header (inspect) comes after its records");
    expect(r.stderr).toContain("the 10 trials it owes are not counted as missing");
  });
});

describe("an Inspect .json log of its header only (no samples key)", () => {
  it("is read as a log: its status shown, the 10 samples it owes counted as missing, no reject", async () => {
    const r = await denom(["report", "--json", join(DIR, "header-only.json")]);
    const out = r.json();
    // no element, so nothing to reject: 0 = 0 + 0 + 0
    expect([out.accounting.lines, out.accounting.records, out.accounting.rejected]).toEqual([0, 0, 0]);
    expect(r.stderr).not.toContain("task_id: missing");
    expect(out.meta.run_logs[0]).toMatchObject({
      run_id: RUN,
      status: "success",
      total_samples: 10,
      completed_samples: 10,
      owed_trials: 10,
      trials: 0,
      missing_trials: 10,
    });
    // sample_ids 1..10 x 1 epoch, none recorded
    expect(cell(out, "final", "total")).toEqual([0, 10]);
    expect(cell(out, "final", "attributable")).toEqual([0, 0]);
    expect(out.diagnostics.missing).toBe(10);
  });

  it("shows an error log's status and message", async () => {
    const r = await denom(["report", "--json", join(DIR, "header-only-error.json")]);
    const out = r.json();
    expect(out.accounting.rejected).toBe(0);
    expect(out.meta.run_logs[0]).toMatchObject({
      status: "error",
      error_message: "RuntimeError: the model provider returned 500",
      total_samples: null,
      owed_trials: 10,
      missing_trials: 10,
    });
    expect(cell(out, "final", "total")).toEqual([0, 10]);
    const text = await denom(["report", join(DIR, "header-only-error.json")]);
    expect(text.stdout).toContain("error: RuntimeError: the model provider returned 500; 0 of 10 owed trials recorded, 10 missing");
  });

  it("is a document on one line too, never a JSONL record", async () => {
    const header = JSON.parse(readFileSync(join(DIR, "header-only.json"), "utf8"));
    const line = `${JSON.stringify(header)}\n`;
    const isHeader = (v: Record<string, unknown>) => typeof (v.eval as Record<string, unknown> | undefined)?.task === "string" && !("samples" in v);
    expect(sniff(Buffer.from(line), true, new Set(["samples"]), null, isHeader)).toBe("json");
    expect(sniff(Buffer.from(line), true, new Set(["samples"]), null, null)).toBe("jsonl");
    const file = join(mkdtempSync(join(tmpdir(), "denom-inspect-")), "one-line.json");
    writeFileSync(file, line);
    const out = (await denom(["report", "--json", file])).json();
    expect([out.accounting.records, out.accounting.rejected]).toEqual([0, 0]);
    expect(out.meta.run_logs[0]).toMatchObject({ status: "success", owed_trials: 10, missing_trials: 10 });
  });
});
