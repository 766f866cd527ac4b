/**
 * The format adapters, tried in order: the first whose `detect` accepts a raw
 * record maps it. The canonical record comes last and accepts anything (its
 * normaliser then says what is missing).
 */
import { agentCompassFormat } from "./agentcompass.js";
import { canonicalFormat } from "./canonical.js";
import { taskSummaryFormat } from "./task-summary.js";
import { terminalBenchFormat } from "./terminal-bench.js";
import type { FormatAdapter } from "./types.js";

export type { AdaptContext, Adapted, FormatAdapter } from "./types.js";

export const FORMATS: readonly FormatAdapter[] = [terminalBenchFormat, taskSummaryFormat, agentCompassFormat, canonicalFormat];

/** Top-level keys of JSON documents whose arrays hold records, from every adapter. */
export const CONTAINER_KEYS: ReadonlySet<string> = new Set(FORMATS.flatMap((f) => f.containerKeys ?? []));

/** The adapter for one raw record. */
export function formatFor(record: Record<string, unknown>): FormatAdapter {
  return FORMATS.find((f) => f.detect(record)) ?? canonicalFormat;
}
