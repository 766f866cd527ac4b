/**
 * `denom timeouts INPUT...`: every kept timeout attempt with its cause (docs/metrics.md) and the evidence behind it, in words and as the numbers the view
 * `attempt_timeout_cause` (queries/20_timeout_cause.sql) decided on. The cause
 * and every figure come from that view; this module only words them.
 */
import type { Session } from "../db/session.js";
import type { RowOf } from "../db/session.js";
import type { Thresholds, TimeoutCause } from "../definitions.js";
import { percent, plural, seconds } from "../number-format.js";
import type { RunsOptions } from "../ingest/runs.js";

/** Options of `denom timeouts`. */
export interface TimeoutsOptions extends RunsOptions {
  /** list only the attempts of this cause; null lists all */
  cause: TimeoutCause | null;
}

/**
 * One timeout attempt. Times are ISO 8601 UTC, durations seconds, shares fractions
 * of `timeout_limit_s` (0.4, not 40). A field is null when the record does not say.
 */
export interface TimeoutRow {
  run_id: string | null;
  task_id: string;
  trial: number;
  attempt: number;
  cause: TimeoutCause;
  /** the deciding evidence in words, e.g. "read_file {path: notes.txt} called 7 times in a row" */
  evidence: string;
  /** every rule that fired, in rule order; the first one is the cause (empty for unknown) */
  rules_fired: string[];
  /** where the evidence came from: the attempt's `events`, its `last_event`/`repeated_tool_calls` fields, or nothing */
  evidence_source: "events" | "fields" | "none";
  started_at: string | null;
  ended_at: string | null;
  timeout_limit_s: number | null;
  /** events of the agent itself (harness phases and queue events not counted) */
  agent_event_count: number;
  /** started_at - submitted_at, seconds, and its share of the budget */
  queue_wait_s: number | null;
  queue_wait_share: number | null;
  /** time covered by queued/waiting_for_slot events, seconds, and its share of the budget */
  queued_event_s: number | null;
  queued_event_share: number | null;
  /** time spent waiting inside the run (its total time minus its working time), seconds, and its share of the budget (null under a working limit, which excludes waiting) */
  waiting_s: number | null;
  waiting_share: number | null;
  /** which queue condition held: queue_wait, queued_events, waiting or agent_never_started; null when none did */
  queue_reason: "queue_wait" | "queued_events" | "waiting" | "agent_never_started" | null;
  /** the harness recorded phases, but no agent phase and no event of the agent (FormatTraits.agentPhase) */
  agent_never_started: boolean;
  /** harness phase times (FormatTraits.agentPhase): setup before the agent, and the agent phase, seconds */
  setup_s: number | null;
  agent_phase_s: number | null;
  /** the last agent event (or the record's `last_event`), and whether it is a request still waiting */
  last_event_type: string | null;
  last_event_name: string | null;
  last_event_status: string | null;
  last_event_at: string | null;
  is_waiting_request: boolean | null;
  /** seconds from the last event to ended_at: how long a waiting request was pending when killed */
  last_event_age_s: number | null;
  /** the longest run of identical consecutive calls (or `repeated_tool_calls`); args as canonical JSON */
  repeated_call_count: number | null;
  repeated_call_name: string | null;
  repeated_call_args: string | null;
  /** gaps between consecutive agent events (trailing gap to ended_at excluded), means in seconds */
  gap_count: number;
  first_third_gap_mean_s: number | null;
  last_third_gap_mean_s: number | null;
  /** last-third mean / first-third mean; null when the first third averages 0 or there are fewer than 3 gaps */
  gap_ratio: number | null;
}

/** What `denom timeouts` returns: the rows, and what the text output and `--strict` need besides. */
export interface TimeoutsData {
  timeouts: TimeoutRow[];
  /** the `--cause` filter, null when every cause is listed */
  cause: TimeoutCause | null;
  thresholds: Thresholds;
  /** lines read, records parsed and blank lines: the accounting view (no record = nothing to list, exit 1) */
  lines: number;
  records: number;
  blank: number;
  /** lines rejected while reading the inputs */
  rejected: number;
  /** sources that broke part-way (a truncated gzip or tar); --strict fails on these too */
  broken_sources: number;
}

/**
 * Loads the inputs and lists every kept timeout attempt (duplicates dropped), ordered
 * by cause in rule order, then run, task, trial and attempt.
 * Throws DataError when an input cannot be read.
 */
export async function runTimeouts(session: Session, options: TimeoutsOptions): Promise<TimeoutsData> {
  const read = await session.selectOne("meta/accounting");
  const timeouts = await readTimeouts(session, options.cause);
  return {
    timeouts,
    cause: options.cause,
    thresholds: options.thresholds,
    lines: Number(read?.lines ?? 0),
    records: Number(read?.records ?? 0),
    blank: Number(read?.blank ?? 0),
    rejected: Number(read?.rejected ?? 0),
    broken_sources: Number(read?.broken_sources ?? 0),
  };
}

/** Reads the timeout rows from a database whose views are in place. */
export async function readTimeouts(session: Session, cause: TimeoutCause | null): Promise<TimeoutRow[]> {
  const rows = await session.select("timeouts/timeout_attempts", { cause });
  return rows.map(toTimeoutRow);
}

function toTimeoutRow(r: RowOf<"timeouts/timeout_attempts">): TimeoutRow {
  // the three columns of a closed vocabulary, named by the view (attempt_timeout_cause)
  const figures = {
    ...r,
    cause: r.cause as TimeoutCause,
    evidence_source: r.evidence_source as TimeoutRow["evidence_source"],
    queue_reason: r.queue_reason as TimeoutRow["queue_reason"],
  };
  const { run_id, task_id, trial, attempt, cause, ...rest } = figures;
  // identity, cause and evidence first: what a reader of the JSON looks at
  return { run_id, task_id, trial, attempt, cause, evidence: describeEvidence(figures), ...rest };
}

/**
 * The deciding evidence of a timeout row in words, e.g.
 * "waited 120 s of the 300 s budget in the queue (40%)",
 * "llm_request chat pending for 260 s when killed",
 * "read_file {path: notes.txt} called 7 times in a row",
 * "gaps grew from 3.5 s to 25 s (x7.1)". Rules that fired but lost on order are
 * named after it ("also fired: loop").
 */
export function describeEvidence(row: Omit<TimeoutRow, "evidence">): string {
  const also = row.rules_fired.filter((rule) => rule !== row.cause);
  const main = causeEvidence(row);
  return also.length ? `${main} (also fired: ${also.join(", ")})` : main;
}

function causeEvidence(row: Omit<TimeoutRow, "evidence">): string {
  switch (row.cause) {
    case "queue":
      return queueEvidence(row);
    case "external":
      return externalEvidence(row);
    case "loop":
      return loopEvidence(row);
    case "sluggish":
      return gapEvidence(row);
    default:
      return unknownEvidence(row);
  }
}

function queueEvidence(row: Omit<TimeoutRow, "evidence">): string {
  const budget = `of the ${seconds(row.timeout_limit_s)} budget`;
  switch (row.queue_reason) {
    case "queue_wait":
      return `waited ${seconds(row.queue_wait_s)} ${budget} in the queue (${percent(row.queue_wait_share, 0)})`;
    case "queued_events":
      return `queued/waiting_for_slot events cover ${seconds(row.queued_event_s)} ${budget} (${percent(row.queued_event_share, 0)})`;
    case "waiting":
      return `spent ${seconds(row.waiting_s)} ${budget} waiting, not working (total_time - working_time: rate limits, shared resources; ${percent(row.waiting_share, 0)})`;
    default:
      return "the agent phase never started (the harness recorded its phases, but no agent_started)";
  }
}

function externalEvidence(row: Omit<TimeoutRow, "evidence">): string {
  const what = row.evidence_source === "fields" ? `last_event ${row.last_event_type}` : eventLabel(row.last_event_type, row.last_event_name);
  const verb = row.last_event_status === "waiting" ? "waiting" : "pending";
  return row.last_event_age_s === null ? `${what} still ${verb} when killed` : `${what} ${verb} for ${seconds(row.last_event_age_s)} when killed`;
}

function loopEvidence(row: Omit<TimeoutRow, "evidence">): string {
  if (row.evidence_source === "fields") return `the same tool call ${row.repeated_call_count} times in a row (repeated_tool_calls; no events recorded)`;
  const args = compactArgs(row.repeated_call_args);
  return `${row.repeated_call_name ?? "(unnamed call)"}${args ? ` ${args}` : ""} called ${row.repeated_call_count} times in a row`;
}

function gapEvidence(row: Omit<TimeoutRow, "evidence">): string {
  const ratio = row.gap_ratio === null ? "" : ` (x${row.gap_ratio.toFixed(1)})`;
  return `gaps grew from ${seconds(row.first_third_gap_mean_s)} to ${seconds(row.last_third_gap_mean_s)}${ratio}`;
}

function unknownEvidence(row: Omit<TimeoutRow, "evidence">): string {
  if (row.evidence_source === "none") {
    const phase =
      row.agent_phase_s === null
        ? ""
        : `; the agent phase ran ${seconds(row.agent_phase_s)}${row.setup_s === null ? "" : ` after ${seconds(row.setup_s)} of setup`}`;
    return `no agent events recorded${phase}`;
  }
  if (row.evidence_source === "fields") {
    const seen = [
      row.last_event_type === null ? null : `last_event ${row.last_event_type}`,
      row.repeated_call_count === null ? null : `repeated_tool_calls ${row.repeated_call_count}`,
    ].filter((s) => s !== null);
    return `no rule fired (${seen.join(", ")}; no events recorded)`;
  }
  const gaps = row.gap_count < 4 ? `only ${plural(row.gap_count, "gap")}` : `gaps x${row.gap_ratio === null ? "n/a" : row.gap_ratio.toFixed(1)}`;
  const run = plural(row.repeated_call_count ?? 0, "call");
  return `no rule fired (longest run ${run}, ${gaps}, last event ${eventLabel(row.last_event_type, row.last_event_name)})`;
}

function eventLabel(type: string | null, name: string | null): string {
  return [type ?? "(untyped event)", name].filter((s) => s !== null).join(" ");
}

/** Canonical JSON arguments in a short readable form: {"path":"notes.txt"} -> {path: notes.txt}; at most 60 characters. */
export function compactArgs(args: string | null): string {
  if (args === null) return "";
  let text: string;
  try {
    const value: unknown = JSON.parse(args);
    text =
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? `{${Object.entries(value)
            .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
            .join(", ")}}`
        : args;
  } catch {
    text = args;
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
