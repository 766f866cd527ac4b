/**
 * Shared helpers for text tables (cli-table3): a compact style that fits 80
 * columns, colour only when asked for.
 */
import Table from "cli-table3";
import { count } from "../number-format.js";

export interface TextOptions {
  /** colour allowed (a TTY without NO_COLOR) */
  color: boolean;
}

/** A table with a header row; numbers get thousands separators, right-aligned where `align` says so. */
export function table(head: string[], rows: (string | number)[][], align: ("left" | "right")[] = [], options: TextOptions = { color: false }): string {
  const t = new Table({
    head: head.map((h) => (options.color ? `\u001b[1m${h}\u001b[22m` : h)),
    style: { head: [], border: [], compact: false, "padding-left": 0, "padding-right": 0 },
    colAligns: align.length ? align : undefined,
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
  });
  for (const r of rows) t.push(r.map((c) => (typeof c === "number" ? count(c) : c)));
  return t
    .toString()
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}

/** A section title. */
export function heading(text: string, options: TextOptions): string {
  return options.color ? `\u001b[1m${text}\u001b[22m` : text;
}
