/**
 * The per-task summary record of the seed article (docs/inputs.md, the canonical attempt record): a line with
 * `first_status` and `final_status` (and optional `attempts`) instead of `status`
 * stands for a trial whose first attempt ended `first_status` and whose last
 * ended `final_status`. It becomes one attempt, or two (attempt 1 and attempt n).
 */
import type { FormatAdapter } from "./types.js";

/** Fields that describe the attempts rather than the trial; not copied to the attempts. */
const SUMMARY_FIELDS = ["first_status", "final_status", "attempts"];

/**
 * Fields a summary record holds once for the whole trial: its spend and counts
 * (summed over attempts, they would count twice), its trajectory evidence, and
 * the verdict on its result. They go to the final attempt only; the first
 * attempt of a two-attempt trial has its status and times, nothing else.
 */
export const FINAL_ATTEMPT_FIELDS: readonly string[] = [
  "cost_usd",
  "llm_tokens",
  "tool_call_count",
  "events",
  "last_event",
  "last_event_ts",
  "repeated_tool_calls",
  "score",
  "resolved",
  "is_resolved",
  "grader_error",
  "constraint_ok",
];

export const taskSummaryFormat: FormatAdapter = {
  name: "task-summary",
  describes: "per-task summary: one line per task with first_status, final_status, attempts",
  success: "`final_status` (first try: `first_status`) success or one of its aliases",
  traits: { summaryRecord: true },
  shapes: [
    { kind: "a trial summary", required: { first_status: "any" }, absent: ["status"] },
    { kind: "a trial summary", required: { final_status: "any" }, absent: ["status"] },
  ],
  adapt(record) {
    const first = record.first_status ?? record.final_status;
    const final = record.final_status ?? record.first_status;
    const rawCount = record.attempts;
    if (rawCount !== undefined && rawCount !== null && (typeof rawCount !== "number" || !Number.isInteger(rawCount) || rawCount < 1))
      return { error: `attempts: expected a whole number >= 1, got ${JSON.stringify(rawCount)}` };
    // statuses are matched after trim and lower-case (docs/metrics.md): "Success" is "success"
    const same = statusKey(first) === statusKey(final);
    const count = (rawCount as number | null | undefined) ?? (same ? 1 : 2);
    if (count === 1 && !same)
      return { error: `attempts is 1 but first_status (${JSON.stringify(first)}) differs from final_status (${JSON.stringify(final)})` };
    const shared: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (!SUMMARY_FIELDS.includes(k)) shared[k] = v;
    if (count === 1) return { attempts: [{ ...shared, status: first, attempt: 1 }] };
    const firstOnly: Record<string, unknown> = { ...shared };
    for (const k of FINAL_ATTEMPT_FIELDS) delete firstOnly[k];
    // The record's times span the whole trial: the first attempt started at
    // started_at, the last ended at ended_at; the rest is unknown.
    return {
      attempts: [
        { ...firstOnly, status: first, attempt: 1, ended_at: null },
        { ...shared, status: final, attempt: count, started_at: null, submitted_at: null },
      ],
    };
  },
};

function statusKey(v: unknown): unknown {
  return typeof v === "string" ? v.trim().toLowerCase() : v;
}
