/**
 * `denom timeouts` as GitHub markdown: the title and the classifier's rules,
 * then one table row per timeout attempt, the same rows as the text
 * (timeouts-text.ts); task ids and evidence escaped.
 */
import type { TimeoutsData } from "../commands/timeouts.js";
import { escapeMarkdown, mdTable } from "./markdown.js";
import { timeoutListing } from "./timeouts-text.js";

export function renderTimeoutsMarkdown(data: TimeoutsData): string {
  const listing = timeoutListing(data);
  const out = [`#### ${escapeMarkdown(listing.title)}`, escapeMarkdown(listing.rules)];
  if (listing.rows.length)
    out.push(
      mdTable(
        listing.head,
        listing.rows.map((r) => r.map((c) => (typeof c === "number" ? c : escapeMarkdown(c)))),
        listing.align,
      ),
    );
  return `${out.join("\n\n")}\n`;
}
