/**
 * `denom gate` as GitHub markdown, for a CI summary or a pull-request comment:
 * one table row per condition with its measured value and bound, then the
 * verdict in bold, the same words as the text (gate-text.ts).
 */
import type { GateData } from "../commands/gate.js";
import { gateNote, gateValue, gateVerdict } from "./gate-text.js";
import { code, escapeMarkdown, mdTable } from "./markdown.js";

export function renderGateMarkdown(data: GateData): string {
  const rows = data.conditions.map((c) => [
    c.passed ? "ok" : "**FAIL**",
    code(c.figure),
    gateValue(c, c.value) + (c.numerator !== null && c.denominator !== null ? ` (${c.numerator}/${c.denominator})` : ""),
    `${c.bound} ${gateValue(c, c.threshold)}`,
    gateNote(c, data.min_tasks),
  ]);
  const table = mdTable(["result", "figure", "measured", "bound", "note"], rows, ["left", "left", "right", "left", "left"]);
  return `${table}\n\n**${escapeMarkdown(gateVerdict(data))}**\n`;
}
