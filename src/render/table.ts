/**
 * Shared helpers for text tables (cli-table3): a compact style that fits 80
 * columns, colour only when asked for.
 */
import { createRequire } from "node:module";
import Table from "cli-table3";
import { count } from "../number-format.js";

/** cli-table3's display width of a string (colour codes left out, wide characters two columns). */
const { strlen } = createRequire(import.meta.url)("cli-table3/src/utils.js") as { strlen: (text: string) => number };

export interface TextOptions {
  /** colour allowed (a TTY without NO_COLOR) */
  color: boolean;
}

/**
 * Rows cli-table3 lays out at a time. Its layout takes time that grows faster
 * than the rows (10 s for 20,000 rows, a stack overflow at 300,000, and a
 * render that holds the thread no signal can stop), so a long table is laid
 * out in blocks of this many rows with the column widths of the whole table:
 * the same text, in time that grows with the rows.
 */
const ROWS_PER_BLOCK = 200;

/** cli-table3's compact style: two spaces before and between columns, no borders. */
export const COMPACT = {
  style: { head: [], border: [], compact: false, "padding-left": 0, "padding-right": 0 },
  chars: {
    top: "",
    "top-mid": "",
    "top-left": "",
    "top-right": "",
    bottom: "",
    "bottom-mid": "",
    "bottom-left": "",
    "bottom-right": "",
    left: "  ",
    "left-mid": "",
    mid: "",
    "mid-mid": "",
    right: "",
    "right-mid": "",
    middle: "  ",
  },
};

/**
 * A table with a header row; numbers get thousands separators, right-aligned
 * where `align` says so. Laid out by cli-table3 (compact style above, trailing
 * blanks trimmed), ROWS_PER_BLOCK rows at a time with every column as wide as
 * its widest cell line in the whole table (display width: colour codes left
 * out, wide characters two columns), which is the width cli-table3 gives a
 * table laid out at once.
 */
export function table(head: string[], rows: (string | number)[][], align: ("left" | "right")[] = [], options: TextOptions = { color: false }): string {
  const heads = head.map((h) => (options.color ? `\u001b[1m${h}\u001b[22m` : h));
  const body = rows.map((r) => r.map((c) => (typeof c === "number" ? count(c) : String(c))));
  // loops, not Math.max(...spread): a spread of 300,000 rows overflows the stack
  const colWidths: number[] = [];
  for (const r of [heads, ...body])
    for (const [i, c] of r.entries()) for (const line of c.split("\n")) colWidths[i] = Math.max(colWidths[i] ?? 0, strlen(line));
  const blocks: string[] = [];
  for (let at = 0; at === 0 || at < body.length; at += ROWS_PER_BLOCK) {
    const t = new Table({ ...COMPACT, head: at === 0 ? heads : [], colWidths, colAligns: align.length ? align : undefined });
    for (const r of body.slice(at, at + ROWS_PER_BLOCK)) t.push(r);
    blocks.push(t.toString());
  }
  return blocks
    .join("\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}

/** A section title. */
export function heading(text: string, options: TextOptions): string {
  return options.color ? `\u001b[1m${text}\u001b[22m` : text;
}
