/**
 * Issue 35, output bounds: a string from an input (a task id, an agent's name)
 * is shown at most SHOWN_MAX = 500 characters long in the text, markdown and
 * HTML renderings, with a marker of what was cut; JSON keeps it whole. Before,
 * one task id of 100,000 characters made `timeouts` print 200 KB a row.
 */
import { describe, expect, it, vi } from "vitest";
import { shorten, terminalSafe } from "../src/render/terminal.js";
import { denom, jsonl, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 120_000 });

describe("shorten", () => {
  it("keeps 500 characters and says how many more there were", () => {
    expect(shorten("x".repeat(500))).toBe("x".repeat(500));
    expect(shorten("x".repeat(501))).toBe(`${"x".repeat(500)}…(+1 chars)`);
    expect(shorten("x".repeat(100_000))).toBe(`${"x".repeat(500)}…(+99,500 chars)`);
    // 499 letters, then a character of two code units across the cut: it goes whole
    expect(shorten(`${"a".repeat(499)}😀b`)).toBe(`${"a".repeat(499)}…(+3 chars)`);
  });

  it("is applied by terminalSafe before the escapes, keys too", () => {
    const long = `\u001b${"y".repeat(600)}`;
    expect(terminalSafe({ [long]: [long] })).toEqual({ [`\\x1b${"y".repeat(499)}…(+101 chars)`]: [`\\x1b${"y".repeat(499)}…(+101 chars)`] });
  });
});

describe("a task id and an agent of 100,000 characters", () => {
  const ID = "T".repeat(100_000);
  const AGENT = "A".repeat(100_000);
  const input = jsonl(
    { task_id: ID, agent: AGENT, status: "timeout", started_at: "2025-04-01T08:00:00Z", ended_at: "2025-04-01T08:05:00Z", timeout_s: 300 },
    { task_id: "b", agent: "short", status: "success", started_at: "2025-04-01T08:00:00Z", ended_at: "2025-04-01T08:01:00Z" },
  );
  const ID_SHOWN = `${"T".repeat(500)}…(+99,500 chars)`;
  const AGENT_SHOWN = `${"A".repeat(500)}…(+99,500 chars)`;

  it("are shown shortened, with the marker, by timeouts and report as text, markdown and HTML", async () => {
    const file = `${tempDir({ "run.jsonl": input })}/run.jsonl`;
    for (const [args, shown] of [
      [["timeouts"], ID_SHOWN],
      [["timeouts", "--format", "md"], ID_SHOWN],
      [["report", "--by", "agent"], AGENT_SHOWN],
      [["report", "--by", "agent", "--format", "md"], AGENT_SHOWN],
      [["report", "--by", "agent", "--format", "html"], AGENT_SHOWN],
    ] as const) {
      const r = await denom([...args, file]);
      const what = args.join(" ");
      expect(r.code, what).toBe(0);
      // before: 200,192 bytes for timeouts, 104,480 for the report by agent, 1,061,093 as HTML
      expect(r.stdout.length, what).toBeLessThan(100_000);
      expect(r.stdout, what).toContain(shown);
      expect(r.stdout, what).not.toContain(shown[0].repeat(501));
    }
  });

  it("are kept whole in JSON", async () => {
    const file = `${tempDir({ "run.jsonl": input })}/run.jsonl`;
    expect((await denom(["timeouts", "--json", file])).json()[0].task_id).toBe(ID);
    expect((await denom(["report", "--by", "agent", "--json", file])).stdout).toContain(`"${AGENT}"`);
  });
});
