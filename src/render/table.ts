/**
 * Shared helpers for text tables (cli-table3): a compact style that fits 80
 * columns, colour only when asked for.
 */
import { createRequire } from "node:module";
import { count } from "../number-format.js";

/** cli-table3's display width of a string (colour codes left out, wide characters two columns). */
const { strlen } = createRequire(import.meta.url)("cli-table3/src/utils.js") as { strlen: (text: string) => number };

export interface TextOptions {
  /** colour allowed (a TTY without NO_COLOR) */
  color: boolean;
}

/**
 * A table with a header row; numbers get thousands separators, right-aligned
 * where `align` says so. The layout of cli-table3 with the compact style above
 * (two spaces before and between columns, no borders, trailing blanks trimmed),
 * laid out here in one pass: cli-table3's own layout takes time that grows
 * faster than the rows (10 s for 20,000), and a signal cannot stop a render
 * that holds the thread. Widths are display widths (cli-table3's strlen:
 * colour codes left out, wide characters two columns); a cell with newlines
 * takes as many lines.
 */
export function table(head: string[], rows: (string | number)[][], align: ("left" | "right")[] = [], options: TextOptions = { color: false }): string {
  const all = [head.map((h) => (options.color ? `\u001b[1m${h}\u001b[22m` : h)), ...rows.map((r) => r.map((c) => (typeof c === "number" ? count(c) : c)))];
  const cells = all.map((r) =>
    r.map((c) =>
      String(c)
        .split("\n")
        .map((line) => ({ line, width: strlen(line) })),
    ),
  );
  // loops, not Math.max(...spread): a spread of 300,000 rows overflows the stack
  const widths: number[] = [];
  for (const r of cells) for (const [i, c] of r.entries()) for (const l of c) widths[i] = Math.max(widths[i] ?? 0, l.width);
  const columns = widths.length;
  const out: string[] = [];
  for (const r of cells) {
    const height = r.reduce((h, c) => Math.max(h, c.length), 1);
    for (let k = 0; k < height; k++) {
      let text = "";
      for (let i = 0; i < columns; i++) {
        const part = r[i]?.[k] ?? { line: "", width: 0 };
        const fill = " ".repeat(widths[i] - part.width);
        text += `  ${align[i] === "right" ? fill + part.line : part.line + fill}`;
      }
      out.push(text.trimEnd());
    }
  }
  return out.join("\n");
}

/** A section title. */
export function heading(text: string, options: TextOptions): string {
  return options.color ? `\u001b[1m${text}\u001b[22m` : text;
}
