/**
 * Strings from an input shown on stderr (a warning, a rejected line) are cut as
 * the text outputs cut them: a run of more than SHOWN_MAX (500) characters
 * without a space keeps 500 and says how many it left out (`…(+99,502 chars)`);
 * a line still longer than 2,000 characters keeps its first 1,500 and last 500.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denom, tempDir } from "./helpers.js";

const WARNING_END = " is written twice in one object; the last value is read, as JSON.parse does";

describe("stderr lines are bounded", () => {
  it("a 100,000-character key named in a warning: 500 of it and the marker", async () => {
    const key = "T".repeat(100_000);
    const d = tempDir({ "run.jsonl": `{"task_id": "a", "status": "success", "${key}": 1, "${key}": 2}\n` });
    const r = await denom(["report", join(d, "run.jsonl")]);
    expect(r.code).toBe(0);
    // the warning quotes the key: `"` + 100,000 T's + `"` is one word of 100,002 characters, 500 kept
    expect(r.stderr).toBe(`denom: warning: ${join(d, "run.jsonl")}:1: key "${"T".repeat(499)}…(+99,502 chars)${WARNING_END}\n`);
  });

  it("a 120,000-character key with spaces: the line's first 1,500 and last 500 characters", async () => {
    const key = "ab ".repeat(40_000).trimEnd();
    const d = tempDir({ "run.jsonl": `{"task_id": "a", "status": "success", "${key}": 1, "${key}": 2}\n` });
    const r = await denom(["report", join(d, "run.jsonl")]);
    // the warning's text (after `denom: warning: `) is what is bounded
    const whole = `${join(d, "run.jsonl")}:1: key "${key}"${WARNING_END}`;
    expect(whole.length).toBeGreaterThan(120_000);
    expect(r.stderr).toBe(`denom: warning: ${whole.slice(0, 1500)}…(+${(whole.length - 2000).toLocaleString("en-US")} chars)${whole.slice(-500)}\n`);
  });
});
