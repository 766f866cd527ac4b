/**
 * Per-task summary records (DESIGN section 2): one line per trial with
 * first_status / final_status / attempts. The trial's figures count once, on its
 * final attempt, and attempts are counted by number (attempt n means n ran).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FINAL_ATTEMPT_FIELDS, taskSummaryFormat } from "../src/formats/task-summary.js";
import { denom, jsonl, tempDir } from "./helpers.js";

function adapt(record: Record<string, unknown>): Record<string, unknown>[] {
  const r = taskSummaryFormat.adapt(record, { source: "tasks.jsonl" });
  if (!("attempts" in r)) throw new Error(JSON.stringify(r));
  return r.attempts;
}

describe("task-summary adapter", () => {
  it("puts the trial's spend, counts, trajectory and verdict on the final attempt only", () => {
    const figures = {
      cost_usd: 1,
      llm_tokens: 300,
      tool_call_count: 4,
      events: [{ type: "tool_call" }],
      last_event: "llm_request",
      last_event_ts: "2025-01-01T00:04:00Z",
      repeated_tool_calls: 6,
      score: 1,
      resolved: true,
      grader_error: "x",
      constraint_ok: true,
    };
    const [first, last] = adapt({ task_id: "a", first_status: "timeout", final_status: "success", started_at: "2025-01-01T00:00:00Z", ...figures });
    for (const k of FINAL_ATTEMPT_FIELDS) expect(first[k], k).toBeUndefined();
    expect(last).toMatchObject({ status: "success", attempt: 2, ...figures });
    // the shared fields stay on both
    expect([first.task_id, first.started_at, first.status]).toEqual(["a", "2025-01-01T00:00:00Z", "timeout"]);
  });

  it("compares first_status and final_status after trim and lower-case", () => {
    // "Success" and " success" are one status: one attempt, not a retry
    expect(adapt({ task_id: "d", first_status: "Success", final_status: " success" }).map((a) => a.attempt)).toEqual([1]);
    expect(adapt({ task_id: "e", first_status: "timeout", final_status: "success" }).map((a) => a.attempt)).toEqual([1, 2]);
  });
});

describe("report on per-task summary records", () => {
  // a: timed out, then passed (2 attempts), $1 and 300 tokens for the whole trial
  // b: a canonical attempt, $1 and 100 tokens
  // c: four attempts, all timeouts; the last passed verification anyway (a late pass)
  // d: one attempt ("Success" is success)
  const lines = jsonl(
    { task_id: "a", first_status: "timeout", final_status: "success", cost_usd: 1, llm_tokens: 300 },
    { task_id: "b", status: "success", cost_usd: 1, llm_tokens: 100 },
    { task_id: "c", first_status: "timeout", final_status: "timeout", attempts: 4, resolved: true },
    { task_id: "d", first_status: "Success", final_status: "success" },
  );

  it("counts each trial's spend and tokens once, and its attempts by number", async () => {
    const out = (await denom(["report", "--json", join(tempDir({ "tasks.jsonl": lines }), "tasks.jsonl")])).json();
    const e = out.efficiency;
    expect(e.cost_usd_total).toBeCloseTo(2, 10); // a $1 + b $1 (a's first attempt carries none)
    // no cost: c's attempt 4 and d; the first attempts of a and c have theirs on the final one
    expect(e.cost_missing_attempts).toBe(2);
    expect(e.llm_tokens_mean).toBeCloseTo(200, 10); // (300 + 100) / 2 attempts that recorded tokens
    expect(e.attempts_per_trial).toBeCloseTo(2, 10); // (2 + 1 + 4 + 1) attempts made / 4 trials
    expect(e.trials_retried).toBe(2); // a and c
    expect(e.zero_retry_success_share).toBeCloseTo(2 / 3, 10); // b and d of the 3 final successes a, b, d
    expect(out.meta.retry_policy.max_attempts).toBe(4); // c's attempt 4, though only attempts 1 and 4 are loaded
    expect(out.meta.retry_policy.trials_retried).toBe(2);
    expect(out.diagnostics.timeouts_with_passing_score).toBe(1); // c's final attempt only
    expect(out.status_counts).toEqual({ first: { success: 2, timeout: 2 }, final: { success: 3, timeout: 1 } });
  });

  it("counts, per solved task, the attempts that lack a cost or tokens as the efficiency figures do", async () => {
    const out = (await denom(["report", "--json", join(tempDir({ "tasks.jsonl": lines }), "tasks.jsonl")])).json();
    const total = out.per_success.find((r: { denominator: string }) => r.denominator === "total");
    expect(total).toMatchObject({
      tasks: 4,
      trials: 4,
      successes: 3, // a, b, d on the final basis
      attempts: 6, // the loaded ones: a 1 and 2, b 1, c 1 and 4, d 1
      cost_usd: 2,
      // c's attempt 4 and d's only one; the first attempts of a and c are earlier attempts of a
      // summary record (their record's figures are on its final attempt): none lacks a cost
      cost_missing_attempts: 2,
      cost_lower_bound: true,
      llm_tokens: 400,
      llm_tokens_missing_attempts: 2,
      agent_time_s: null,
      untimed_attempts: 6, // no record holds a time
    });
    expect(total.cost_per_success_usd).toBeCloseTo(2 / 3, 12);
  });
});
