/**
 * Issue 16, terminal output: control characters from an input are shown escaped
 * on the terminal, never sent raw; JSON, CSV and the database keep the exact text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { escapeControls, escapeMessage, terminalSafe } from "../src/render/terminal.js";
import { denom, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 120_000 });

const CLEAR = "\u001b[2J";
const TITLE = "\u001b]0;owned\u0007";
const TASK = `t${CLEAR}${TITLE}x`;
/** what the terminal shows instead: each control character as an escape */
const TASK_SHOWN = "t\\x1b[2J\\x1b]0;owned\\x07x";
const STATUS = "\u009b31mdone"; // a C1 CSI, then an unrecognized status

/** Any control character but the newline (what a terminal would act on). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("escapeControls", () => {
  it("writes C0, DEL, C1 and bidi controls as escapes, and leaves other text alone", () => {
    expect(escapeControls(TASK)).toBe(TASK_SHOWN);
    expect(escapeControls("a\tb\nc\rd\u007f\u009b\u202eé")).toBe("a\\tb\\nc\\rd\\x7f\\x9b\\u202eé");
    expect(escapeControls("plain task-1 ✓")).toBe("plain task-1 ✓");
    expect(escapeMessage("line 1\nline\u001b2")).toBe("line 1\nline\\x1b2");
    expect(terminalSafe({ [TASK]: [TASK, 3, null, { s: STATUS }] })).toEqual({ [TASK_SHOWN]: [TASK_SHOWN, 3, null, { s: "\\x9b31mdone" }] });
  });
});

describe("a hostile task id and status reach no terminal raw", () => {
  const input =
    [
      JSON.stringify({ task_id: TASK, status: "timeout", events: [{ ts: 1, type: "tool_call", name: `ls${CLEAR}` }] }),
      JSON.stringify({ task_id: "b", status: STATUS }),
      JSON.stringify({ task_id: "c", status: "success", trial: `x${CLEAR}` }),
    ].join("\n") + "\n";

  it("report, md, timeouts, audit and query tables, and stderr show escapes; JSON, CSV and the database keep the text", async () => {
    const dir = tempDir({ [`run${CLEAR}.jsonl`]: input });
    const file = join(dir, `run${CLEAR}.jsonl`);
    const shown: Record<string, string> = {};
    for (const args of [["report"], ["report", "--format", "md"], ["timeouts"], ["audit", "--claim", "50%"]]) {
      const r = await denom([...args, file]);
      shown[`${args[0]} ${args[1] ?? ""} stdout`] = r.stdout;
      shown[`${args[0]} ${args[1] ?? ""} stderr`] = r.stderr;
    }
    for (const [what, text] of Object.entries(shown)) expect(RAW.test(text), what).toBe(false);
    expect(shown["timeouts  stdout"]).toContain(TASK_SHOWN);
    expect(shown["report  stdout"]).toContain("\\x9b31mdone");
    // the reject of line 3 on stderr names the file and quotes the value, escaped
    expect(shown["report  stderr"]).toContain('run\\x1b[2J.jsonl:3: trial: expected a number, got "x\\u001b[2J"');
    // the exact text where it is data
    const json = await denom(["timeouts", "--json", file]);
    expect(json.json()[0].task_id).toBe(TASK);
    const csv = join(dir, "attempts.csv");
    expect((await denom(["export", file, "--out", csv, "--what", "attempts"])).code).toBe(0);
    expect(readFileSync(csv, "utf8")).toContain(TASK);
    const db = join(dir, "runs.duckdb");
    const ingest = await denom(["ingest", file, "--db", db]);
    expect(RAW.test(ingest.stdout + ingest.stderr)).toBe(false);
    const q = await denom(["query", "--db", db, "SELECT task_id, raw_status FROM attempts ORDER BY task_id"]);
    expect(RAW.test(q.stdout)).toBe(false);
    expect(q.stdout).toContain(TASK_SHOWN);
    const qj = await denom(["query", "--db", db, "--json", "SELECT task_id FROM attempts ORDER BY task_id"]);
    expect(qj.json().map((r: { task_id: string }) => r.task_id)).toEqual(["b", TASK]);
    const qc = await denom(["query", "--db", db, "--csv", "SELECT task_id FROM attempts WHERE task_id <> 'b'"]);
    expect(qc.stdout).toContain(TASK);
  });
});

describe("compare and gate show escapes too", () => {
  it("a hostile task id on both sides reaches the compare text, markdown and gate text escaped", async () => {
    // one task on each side, so the task is paired and discordant (A passed, B failed): its id is printed
    const a = JSON.stringify({ task_id: TASK, status: "success" }) + "\n";
    const b = JSON.stringify({ task_id: TASK, status: "failure" }) + "\n";
    const dir = tempDir({ "a.jsonl": a, "b.jsonl": b });
    const text = await denom(["compare", join(dir, "a.jsonl"), join(dir, "b.jsonl")]);
    const md = await denom(["compare", "--format", "md", join(dir, "a.jsonl"), join(dir, "b.jsonl")]);
    const gate = await denom(["gate", join(dir, "a.jsonl"), "--min", "final/total=0.5"]);
    for (const r of [text, md, gate]) expect(RAW.test(r.stdout + r.stderr)).toBe(false);
    expect(text.stdout).toContain(TASK_SHOWN);
    expect(gate.code).toBe(0);
  });
});
