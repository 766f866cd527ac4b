/**
 * `denom audit` as GitHub markdown: per claim a heading with the verdict, then
 * the same lines as the text (audit-text.ts) as a nested list; the total of
 * several claims last. No figure is computed here.
 */
import type { AuditData } from "../commands/audit.js";
import { auditBlocks, auditTotal } from "./audit-text.js";
import { escapeMarkdown, markdownBlock } from "./markdown.js";

export function renderAuditMarkdown(data: AuditData): string {
  const blocks = auditBlocks(data).map((lines) => markdownBlock(lines));
  const total = auditTotal(data);
  if (total) blocks.push(`**${escapeMarkdown(total)}**`);
  return `${blocks.join("\n\n")}\n`;
}
