/**
 * AgentCompass attempts (DESIGN section 2; seeds/003: "读懂 issue", "失败如何分级"):
 * the canonical status derived from the issues, hand-made records only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentCompassFormat, ISSUE_RULES, OUTCOMES, SKIPPED_OUTCOME } from "../src/formats/agentcompass.js";
import { fitsRecord } from "../src/formats/shape.js";
import { cell, denom, jsonl, ROOT, tempDir } from "./helpers.js";

/** True when a record fits one of the AgentCompass shapes. */
const detect = (r: Record<string, unknown>) => agentCompassFormat.shapes.some((s) => fitsRecord(s, r, null));

type Issue = { severity: string; phase?: string; code?: string; message?: string };

/** The canonical fields the adapter derives for one record. */
function derive(status: string, issues: Issue[], grade: Record<string, unknown> = {}) {
  const r = agentCompassFormat.adapt({ task_id: "t", status, issues, ...grade }, { source: "results.jsonl" });
  if (!("attempts" in r)) throw new Error(JSON.stringify(r));
  const a = r.attempts[0];
  return { status: a.status, status_detail: a.status_detail ?? null, fault: a.fault ?? null, grader_error: a.grader_error ?? null };
}

const fatal = (phase: string, code: string, message = "") => ({ severity: "fatal", phase, code, message });
const error = (phase: string, code: string) => ({ severity: "error", phase, code, message: "m" });

describe("agentcompass adapter", () => {
  it("is picked by an issues array with one of AgentCompass's statuses", () => {
    expect(detect({ task_id: "t", status: "run_error_or_eval_error", issues: [] })).toBe(true);
    expect(detect({ task_id: "t", status: " Completed ", issues: [] })).toBe(true);
    expect(detect({ task_id: "t", status: "completed" })).toBe(false); // no issues
    expect(detect({ task_id: "t", status: "success", issues: [] })).toBe(false); // canonical status
  });

  it("reads a FATAL while running as an environment failure: the result says nothing about the agent", () => {
    expect(derive("run_error", [fatal("setup", "environment_failed")], { correct: true })).toEqual({
      status: "aborted",
      status_detail: "environment_failed",
      fault: "environment",
      grader_error: null,
    });
    // no phase given: still FATAL, still the environment
    expect(derive("run_error", [{ severity: "FATAL", code: "model_auth_failed" }])).toMatchObject({ status: "aborted", fault: "environment" });
  });

  it("reads a FATAL of the judge or of the evaluation as a grader error", () => {
    expect(derive("eval_error", [fatal("evaluate", "judge_failed", "HTTP 503: upstream")])).toEqual({
      status: "aborted",
      status_detail: null,
      fault: null,
      grader_error: "HTTP 503: upstream",
    });
    // no message: the code stands in, so the grader error is never empty
    expect(derive("eval_error", [fatal("evaluate", "judge_output_invalid")]).grader_error).toBe("judge_output_invalid");
    // a FATAL while running comes first: the judge then failed on nothing
    expect(derive("run_error_or_eval_error", [fatal("evaluate", "judge_failed", "x"), fatal("run", "sandbox_lost")])).toMatchObject({
      status: "aborted",
      status_detail: "sandbox_lost",
      grader_error: null,
    });
  });

  it("reads a timeout ERROR while running as a timeout, and keeps the verdict for late passes", () => {
    for (const code of ["model_timeout", "run_failed", "harness_timeout"])
      expect(derive("run_error", [error("run", code)]), code).toMatchObject({ status: "timeout", status_detail: code });
    const r = agentCompassFormat.adapt({ task_id: "t", status: "run_error", issues: [error("run", "model_timeout")], correct: true }, { source: "x" });
    expect("attempts" in r && r.attempts[0].resolved).toBe(true);
    // an evaluation timeout is the grader's: the benchmark's verdict (correct=false) decides
    expect(derive("eval_error", [error("evaluate", "evaluation_timeout")], { correct: false })).toMatchObject({ status: "failure", status_detail: null });
  });

  it("reads a turn or step limit as a failure, after a timeout in precedence", () => {
    expect(derive("run_error", [error("run", "harness_max_iterations")], { correct: true })).toMatchObject({
      status: "failure",
      status_detail: "harness_max_iterations",
    });
    expect(derive("run_error", [error("run", "harness_limit_reached")])).toMatchObject({ status: "failure", status_detail: "harness_limit_reached" });
    expect(derive("run_error", [error("run", "harness_max_iterations"), error("run", "model_timeout")]).status).toBe("timeout");
  });

  it("lets the grade decide otherwise: correct, else resolved, else full marks", () => {
    const warning = [{ severity: "warning", phase: "evaluate", code: "reward_missing" }];
    expect(derive("completed", warning, { correct: false, score: 1 }).status).toBe("failure"); // correct first
    expect(derive("completed", [], { resolved: true }).status).toBe("success");
    expect(derive("completed", [], { score: 1 }).status).toBe("success");
    expect(derive("completed", [], { score: 0.5 }).status).toBe("failure");
    expect(derive("run_error", [error("run", "no_valid_output")], { correct: false }).status).toBe("failure");
    // no grade at all: AgentCompass's status as written (counted as unrecognized)
    expect(derive("completed", []).status).toBe("completed");
  });

  it("reads a skipped attempt as never run: aborted by the environment, whatever its issues or grade", () => {
    expect(detect({ task_id: "t", status: "Skipped", issues: [] })).toBe(true);
    const notRun = { status: "aborted", status_detail: "skipped", fault: "environment", grader_error: null };
    expect(derive("skipped", [])).toEqual(notRun);
    // a false or 0 grade on it is a filled-in missing observation, not the agent's failure
    expect(derive("skipped", [], { correct: false, score: 0 })).toEqual(notRun);
    expect(derive("skipped", [error("run", "model_timeout")])).toEqual(notRun);
  });

  it("rejects an issue without a known severity", () => {
    const r = agentCompassFormat.adapt({ task_id: "t", status: "run_error", issues: [{ severity: "critical", code: "x" }] }, { source: "x" });
    expect(r).toEqual({ error: 'issues[0].severity: expected fatal, error or warning, got "critical"' });
  });

  it("is shown in docs/inputs.md as declared", () => {
    const readme = readFileSync(join(ROOT, "docs", "inputs.md"), "utf8");
    const rows = ISSUE_RULES.map(
      (r) => `| ${r.severity.toUpperCase()} | ${r.phases ? r.phases.join(", ") : "any"} | ${r.code ? `\`${r.code}\`` : "any"} | ${OUTCOMES[r.outcome]} |`,
    );
    expect(readme).toContain(["| severity | phase | code | status |", "|---|---|---|---|", ...rows].join("\n"));
    expect(readme).toContain(`An attempt with status \`skipped\` (and an \`issues\` array) was not run: it is\n${SKIPPED_OUTCOME},`);
  });
});

describe("report on AgentCompass attempts", () => {
  const input = jsonl(
    { task_id: "t1", status: "completed", issues: [], correct: true }, // success
    { task_id: "t2", status: "completed", issues: [{ severity: "warning", phase: "evaluate", code: "reward_missing" }], correct: false }, // failure
    { task_id: "t3", status: "run_error", issues: [fatal("setup", "environment_failed")] }, // aborted, environment
    { task_id: "t4", status: "eval_error", issues: [fatal("evaluate", "judge_failed", "HTTP 503")], correct: false }, // grader error
    { task_id: "t5", status: "run_error", issues: [error("run", "model_timeout")], correct: true }, // timeout, late pass
    { task_id: "t6", status: "run_error", issues: [error("run", "harness_max_iterations")], correct: false }, // failure
    { task_id: "t7", status: "completed", issues: [] }, // no grade: unrecognized
    { task_id: "t8", status: "skipped", issues: [] }, // not run: aborted, environment
  );

  it("gives the denominators from the derived statuses", async () => {
    const out = (await denom(["report", "--json", join(tempDir({ "ac.jsonl": input }), "ac.jsonl")])).json();
    expect(out.status_counts.final).toEqual({ success: 1, failure: 2, aborted: 3, timeout: 1, unrecognized: 1 });
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([1, 8]);
    expect([cell(out, "final/valid").successes, cell(out, "final/valid").count]).toEqual([1, 7]); // minus t7
    expect([cell(out, "final/attributable").successes, cell(out, "final/attributable").count]).toEqual([1, 4]); // minus t3, t4, t8
    expect([cell(out, "final/completable").successes, cell(out, "final/completable").count]).toEqual([1, 3]); // minus t5
    expect(out.diagnostics).toMatchObject({ timeouts_with_passing_score: 1, grader_errors: 1 }); // t5, t4
    expect(out.unrecognized_statuses).toEqual([{ value: "completed", attempts: 1 }]);
  });
});
