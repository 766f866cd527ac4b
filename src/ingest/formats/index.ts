/**
 * The format adapters, tried in order: the first whose `detect` accepts a raw
 * record maps it. The canonical record comes last and accepts anything (its
 * normaliser then says what is missing).
 */
import { agentCompassFormat } from "./agentcompass.js";
import { canonicalFormat } from "./canonical.js";
import { inspectFormat } from "./inspect.js";
import { sweAgentFormat } from "./swe-agent.js";
import { tau2BenchFormat } from "./tau2-bench.js";
import { tauBenchFormat } from "./tau-bench.js";
import { taskSummaryFormat } from "./task-summary.js";
import { terminalBenchFormat } from "./terminal-bench.js";
import type { DocumentOptions } from "../reader.js";
import type { FormatAdapter } from "./types.js";

export type { AdaptContext, Adapted, FormatAdapter } from "./types.js";

/**
 * Each harness's records are told apart by fields no other harness writes
 * (tau-bench's `traj`, tau2-bench's `termination_reason`, Inspect's `epoch` with
 * `input` and `target`, SWE-agent's `info.model_stats`), so the order only
 * matters for the canonical record, which comes last.
 */
export const FORMATS: readonly FormatAdapter[] = [
  terminalBenchFormat,
  taskSummaryFormat,
  agentCompassFormat,
  tauBenchFormat,
  tau2BenchFormat,
  inspectFormat,
  sweAgentFormat,
  canonicalFormat,
];

/** Top-level keys of JSON documents whose arrays hold records, from every adapter. */
export const CONTAINER_KEYS: ReadonlySet<string> = new Set(FORMATS.flatMap((f) => f.containerKeys ?? []));

/** The adapter for one raw record. */
export function formatFor(record: Record<string, unknown>): FormatAdapter {
  return FORMATS.find((f) => f.detect(record)) ?? canonicalFormat;
}

/** How a source is read when it is a JSON document: the keys its adapter skips, by the source's name (e.g. a `.traj`). */
export function documentOptions(sourceName: string): DocumentOptions {
  const keys = FORMATS.flatMap((f) => (f.skipKeys && f.skipKeys.names.test(sourceName) ? f.skipKeys.keys : []));
  return keys.length ? { skipKeys: new Set(keys) } : {};
}
