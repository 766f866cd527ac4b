/** Rows of `denom query` as a text table (cli-table3) or as JSON objects. */
import type { QueryRows } from "../commands/query.js";
import type { Cell, Row } from "../db/values.js";
import { table, type TextOptions } from "./table.js";

/** A text table with a header row; numbers right-aligned, NULL spelled out, lists and structs as JSON. */
export function renderRowsTable(result: QueryRows, options: TextOptions): string {
  const align = result.columns.map((_, i) => (result.rows.some((r) => typeof r[i] === "number") ? "right" : "left"));
  const rows = result.rows.map((r) => r.map(cellText));
  const count = `(${result.rows.length} row${result.rows.length === 1 ? "" : "s"})`;
  return `${table(
    result.columns.map((c) => c.name),
    rows,
    align,
    options,
  )}\n${count}\n`;
}

/** One object per row, keyed by column name (a repeated name keeps its last value). */
export function rowsAsObjects(result: QueryRows): Row[] {
  return result.rows.map((r) => Object.fromEntries(result.columns.map((c, i) => [c.name, r[i]])));
}

function cellText(value: Cell): string {
  if (value === null) return "NULL";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}
