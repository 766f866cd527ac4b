/**
 * `denom report --format md`: the meta block and the tables as GitHub markdown,
 * with text from the inputs escaped so it cannot break a table.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { code, escapeMarkdown } from "../src/render/markdown.js";
import { denom, jsonl, ROOT, tempDir } from "./helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");

/** The cells of a markdown table row, split on pipes that are not escaped. */
function cells(row: string): string[] {
  return row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe("report --format md", () => {
  it("prints the rate grid of seed-100 as a markdown table", async () => {
    const r = await denom(["report", SEED, "--format", "md"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => l.startsWith("| **"));
    // DESIGN section 4: first 70/100, 70/100, 70/90, 70/70; final 82/100, 82/100, 82/94, 82/85
    expect(rows.map((l) => [cells(l)[0], cells(l)[1], cells(l)[3]])).toEqual([
      ["**total**", "70/100 70.0%", "82/100 82.0%"],
      ["**valid**", "70/100 70.0%", "82/100 82.0%"],
      ["**attributable**", "70/90 77.8%", "82/94 87.2%"], // 70/90 = 0.7778, 82/94 = 0.8723
      ["**completable**", "70/70 100.0%", "82/85 96.5%"], // 82/85 = 0.9647
    ]);
    const sha = createHash("sha256").update(readFileSync(SEED)).digest("hex");
    // the source's line names the format that read it
    expect(r.stdout).toContain(`| \`${SEED}\` | jsonl | canonical | \`${sha}\` |`);
    expect(r.stdout).toContain("#### Trials by status");
  });

  it("escapes names and values from the inputs so every table keeps its columns", async () => {
    const dir = tempDir({ "run|1*.jsonl": jsonl({ task_id: "a", status: "maybe|so*" }, { task_id: "b", status: "success" }) });
    const r = await denom(["report", join(dir, "run|1*.jsonl"), "--format", "md"]);
    expect(r.code, r.stderr).toBe(0);
    const sourceRow = r.stdout.split("\n").find((l) => l.includes("run\\|1*.jsonl"));
    expect(sourceRow && cells(sourceRow)).toHaveLength(9);
    expect(r.stdout).toContain('unrecognized status "maybe\\|so\\*": 1 attempts');
  });

  it("agrees with --json and refuses --json with another format", async () => {
    const a = await denom(["report", SEED, "--json"]);
    const b = await denom(["report", SEED, "--format", "json"]);
    expect(b.stdout).toBe(a.stdout);
    const both = await denom(["report", SEED, "--json", "--format", "md"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--format md");
  });
});

describe("markdown escaping", () => {
  it("escapes markup and table borders, and fences code spans past inner backticks", () => {
    expect(escapeMarkdown("a|b *c* _d_ [e] <f>\nnext")).toBe("a\\|b \\*c\\* \\_d\\_ \\[e\\] \\<f> next");
    expect(code("x`y|z")).toBe("``x`y\\|z``");
    expect(code("`start")).toBe("`` `start ``");
  });
});
