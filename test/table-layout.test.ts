/**
 * The text tables' layout (src/render/table.ts) is cli-table3's compact style,
 * laid out by cli-table3 in blocks of rows with the whole table's column widths:
 * the same text as cli-table3 laying out the table at once, for tables of every
 * shape (wide characters, emoji, multi-line cells, numbers, colour in the head,
 * more rows than a block), and time that grows with the rows (cli-table3 at once
 * took 10 s for 20,000 rows and overflowed the stack at 300,000).
 */
import Table from "cli-table3";
import { describe, expect, it } from "vitest";
import { count } from "../src/number-format.js";
import { COMPACT, table } from "../src/render/table.js";

/** cli-table3 with the options table() stands for. */
function cliTable3(head: string[], rows: (string | number)[][], align: ("left" | "right")[], color: boolean): string {
  const t = new Table({ ...COMPACT, head: head.map((h) => (color ? `\u001b[1m${h}\u001b[22m` : h)), colAligns: align });
  for (const r of rows) t.push(r.map((c) => (typeof c === "number" ? count(c) : c)));
  return t
    .toString()
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}

describe("text tables", () => {
  it("lay out as cli-table3 does: 600 tables of 1 to 5 columns and 0 to 6 rows, and tables longer than a block", () => {
    const pool = ["", "a", "abc def", "日本語", "😀x", "12.5%", "x\ny", "a longer cell of text", "—", "é"];
    let differing = 0;
    for (let t = 0; t < 600; t++) {
      const cols = 1 + (t % 5);
      const head = Array.from({ length: cols }, (_, i) => pool[(t + i * 3) % pool.length].replace("\n", "") || "h");
      const rows = Array.from({ length: t % 7 }, (_, r) =>
        Array.from({ length: cols }, (_, i) => ((t + r + i) % 4 === 0 ? (t * r + i) * 1000.5 : pool[(t * 7 + r * 3 + i) % pool.length])),
      );
      const align = Array.from({ length: cols }, (_, i) => ((t + i) % 3 === 0 ? "right" : "left") as "left" | "right");
      if (table(head, rows, align, { color: t % 2 === 0 }) !== cliTable3(head, rows, align, t % 2 === 0)) differing++;
    }
    expect(differing).toBe(0);
    // 199 to 401 rows cross one or two block edges; the widest cell sits in the last block
    for (const n of [199, 200, 201, 401]) {
      const rows = Array.from({ length: n }, (_, i) => [i === n - 1 ? "the widest cell, last" : `t${i}`, i * 1001]);
      expect(table(["task", "n"], rows, ["left", "right"])).toBe(cliTable3(["task", "n"], rows, ["left", "right"], false));
    }
  });

  it("a worked example: numbers right-aligned with separators, a wide character two columns", () => {
    expect(
      table(
        ["id", "n"],
        [
          ["日本", 1234],
          ["a", 5],
        ],
        ["left", "right"],
      ),
    ).toBe("  id        n\n  日本  1,234\n  a         5");
  });

  it("300,000 rows (no stack overflow, seconds not minutes)", () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`task-${i}`, i]);
    const started = Date.now();
    const text = table(["task", "n"], rows, ["left", "right"]);
    expect(text.split("\n").length).toBe(300_001);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
