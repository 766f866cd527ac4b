/**
 * `denom timeouts` as text: one line per timeout attempt (task, trial, attempt,
 * cause, evidence in words), so that the listing greps well; the classifier's
 * thresholds above it. Rows arrive ordered by the command.
 */
import type { TimeoutsData } from "../commands/timeouts.js";
import { percent, plural } from "../number-format.js";
import { heading, table, type TextOptions } from "./table.js";

export function renderTimeoutsText(data: TimeoutsData, options: TextOptions): string {
  const listing = timeoutListing(data);
  const out = [heading(listing.title, options), listing.rules];
  if (listing.rows.length) out.push(table(listing.head, listing.rows, listing.align, options));
  return `${out.join("\n")}\n`;
}

/** The listing both renderers draw: its title, the classifier's rules, and one row per timeout attempt (a run column when several runs). */
export function timeoutListing(data: TimeoutsData): { title: string; rules: string; head: string[]; rows: (string | number)[][]; align: ("left" | "right")[] } {
  const t = data.thresholds;
  const runs = new Set(data.timeouts.map((r) => r.run_id)).size > 1;
  const head = [...(runs ? ["run"] : []), "task", "trial", "attempt", "cause", "evidence"];
  return {
    title: `${plural(data.timeouts.length, "timeout attempt")}${data.cause ? ` of cause ${data.cause}` : ""}`,
    rules: `rules in order: queue >= ${percent(t.queueShare, 0)} of the limit, external, loop >= ${t.loopMin} calls, sluggish x${t.sluggishRatio}`,
    head,
    rows: data.timeouts.map((r) => [...(runs ? [r.run_id ?? "(default)"] : []), r.task_id, r.trial, r.attempt, r.cause, r.evidence]),
    align: head.map((h) => (h === "trial" || h === "attempt" ? "right" : "left")),
  };
}
