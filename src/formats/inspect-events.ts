/**
 * Inspect AI's events reduced to denom's compact events: shared by the `.json`
 * log's adapter (inspect.ts) and the `.eval` archive's reader
 * (inspect-eval.ts), which reduces each event as it is streamed.
 */
import { numberOf, objectOf, textOf } from "./shared.js";

/**
 * One Inspect event (`{event, timestamp, ...}`) as denom keeps it (docs/inputs.md,
 * the canonical attempt record's events), or null for the kinds not kept (spans, state, store,
 * info, sandbox, ...). The mapping is formats/inspect.ts's docstring's.
 */
export function inspectEvent(raw: unknown): Record<string, unknown> | null {
  const e = objectOf(raw);
  if (!e) return null;
  const ts = e.timestamp ?? null;
  switch (e.event) {
    case "model": {
      if (e.pending === true) return { ts, type: "llm_request", name: textOf(e.model), status: "pending" };
      const failed = (e.error !== undefined && e.error !== null && e.error !== "") || objectOf(e.output)?.error;
      const retries = numberOf(e.retries) ?? 0;
      return { ts, type: "llm_call", name: textOf(e.model), status: failed ? "error" : retries > 0 ? "retried" : "ok" };
    }
    case "tool": {
      const failed = e.error !== undefined && e.error !== null;
      return { ts, type: "tool_call", name: textOf(e.function), args: e.arguments ?? null, status: e.pending === true ? "pending" : failed ? "error" : "ok" };
    }
    case "sample_limit":
      return { ts, type: "sample_limit", name: textOf(e.type) };
    case "error":
      return { ts, type: "error", name: textOf(objectOf(e.error)?.message)?.slice(0, 200) ?? null };
    default:
      return null;
  }
}
