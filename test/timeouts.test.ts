/**
 * The timeout classifier (queries/15_attempt_facts.sql, 20_timeout_cause.sql; DESIGN
 * section 5) and `denom timeouts`, on hand-made attempts. Every attempt below starts at
 * 09:00:00 with a 300 s budget; event times are written as seconds after the start.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compactArgs } from "../src/commands/timeouts.js";
import { cell, CASES, denom, hasShared, jsonl, REAL, tempDir } from "./helpers.js";

const START = Date.parse("2025-06-02T09:00:00Z");
const at = (s: number) => new Date(START + s * 1000).toISOString();

interface Ev {
  t: number;
  type: string;
  name?: string;
  args?: unknown;
  status?: string;
}

/** A timeout attempt that ran from 09:00:00 for `endS` seconds (default the whole 300 s budget). */
function timeout(task: string, events: Ev[] | null, extra: Record<string, unknown> = {}, endS = 300) {
  return {
    task_id: task,
    status: "timeout",
    submitted_at: at(0),
    started_at: at(0),
    ended_at: at(endS),
    timeout_limit_s: 300,
    ...(events ? { events: events.map((e) => ({ ts: at(e.t), type: e.type, name: e.name, args: e.args, status: e.status })) } : {}),
    ...extra,
  };
}

const call = (t: number, name: string, args: unknown): Ev => ({ t, type: "tool_call", name, args });
const result = (t: number, name: string): Ev => ({ t, type: "tool_result", name });

/** Runs `denom timeouts --json` on the records and returns the rows by task. */
async function classify(records: object[], flags: string[] = []) {
  const dir = tempDir({ "runs.jsonl": jsonl(...records) });
  const r = await denom(["timeouts", "--json", ...flags, join(dir, "runs.jsonl")]);
  expect(r.code, r.stderr).toBe(0);
  const rows = r.json<any[]>();
  return Object.fromEntries(rows.map((row) => [row.task_id, row]));
}

/** `n` identical read_file calls 20 s apart, each answered 2 s later. */
function sameCalls(n: number, args: unknown = { path: "notes.txt" }): Ev[] {
  return Array.from({ length: n }, (_, i) => [call(10 + 20 * i, "read_file", args), result(12 + 20 * i, "read_file")]).flat();
}

describe("loop: the longest run of identical consecutive calls", () => {
  it("results between identical calls keep the run going", async () => {
    const rows = await classify([timeout("looping", sameCalls(5))]);
    // 5 read_file calls, each followed by its tool_result: one run of 5 >= --loop-min 5
    expect(rows.looping.cause).toBe("loop");
    expect(rows.looping.repeated_call_count).toBe(5);
    expect(rows.looping.evidence).toBe("read_file {path: notes.txt} called 5 times in a row");
  });

  it("changed arguments end the run", async () => {
    const events = [
      ...sameCalls(3),
      call(70, "read_file", { path: "other.txt" }),
      result(72, "read_file"),
      ...sameCalls(3).map((e) => ({ ...e, t: e.t + 80 })),
    ];
    const rows = await classify([timeout("broken-run", events)]);
    // notes.txt x3, other.txt x1, notes.txt x3: the longest run is 3, not 6 or 7
    expect(rows["broken-run"].repeated_call_count).toBe(3);
    expect(rows["broken-run"].cause).not.toBe("loop");
  });

  it("of two runs of equal length the earlier is named; a longer later run wins", async () => {
    const grep = (t: number) => call(t, "grep", { q: "x" });
    const read = (t: number) => call(t, "read_file", { path: "a.txt" });
    // grep x5 (t 10..50), read_file x5 (t 60..100): a tie at 5, the grep run came first
    const tie = [10, 20, 30, 40, 50].map(grep).concat([60, 70, 80, 90, 100].map(read));
    // grep x5, read_file x6: the later run is longer
    const longer = [10, 20, 30, 40, 50].map(grep).concat([60, 70, 80, 90, 100, 110].map(read));
    const rows = await classify([timeout("tie", tie), timeout("longer", longer)]);
    expect(rows.tie.repeated_call_count).toBe(5);
    expect(rows.tie.evidence).toBe("grep {q: x} called 5 times in a row");
    expect(rows.longer.repeated_call_count).toBe(6);
    expect(rows.longer.evidence).toBe("read_file {path: a.txt} called 6 times in a row");
  });

  it("arguments compare as values: key order does not matter", async () => {
    const events = [0, 1, 2, 3, 4].map((i) => call(10 + 20 * i, "grep", i % 2 ? { b: 2, a: 1 } : { a: 1, b: 2 }));
    const rows = await classify([timeout("key-order", events)]);
    // {a:1,b:2} and {b:2,a:1} are the same arguments: 5 identical calls
    expect(rows["key-order"].repeated_call_count).toBe(5);
    expect(rows["key-order"].cause).toBe("loop");
  });

  it("4 identical calls are not a loop at the default, and are with --loop-min 4", async () => {
    const records = [timeout("four-calls", sameCalls(4))];
    const byDefault = await classify(records);
    expect(byDefault["four-calls"].repeated_call_count).toBe(4);
    expect(byDefault["four-calls"].cause).toBe("unknown"); // 4 < 5; gaps are even (2 s, 18 s, ...), no wait
    const lowered = await classify(records, ["--loop-min", "4"]);
    expect(lowered["four-calls"].cause).toBe("loop"); // 4 >= 4
  });
});

describe("sluggish: gaps between events grow", () => {
  it("the trailing gap to ended_at is not a gap", async () => {
    // 5 events 10 s apart (4 gaps of 10 s), then nothing for 250 s until the kill at 300 s.
    // Counting the trailing 250 s as a 5th gap would give first third 10 s, last third 250 s (x25).
    const events = [10, 20, 30, 40, 50].map((t, i) => call(t, "step", { n: i }));
    const rows = await classify([timeout("idle-tail", events)]);
    expect(rows["idle-tail"].gap_count).toBe(4);
    expect(rows["idle-tail"].first_third_gap_mean_s).toBe(10); // floor(4/3) = 1 gap: 10 s
    expect(rows["idle-tail"].last_third_gap_mean_s).toBe(10);
    expect(rows["idle-tail"].cause).toBe("unknown");
  });

  it("gaps that grow past the ratio are sluggish, with the thirds in the evidence", async () => {
    // times 10, 13, 17, 23, 32, 46, 66, 96: gaps 3, 4, 6, 9, 14, 20, 30 (n = 7, floor(7/3) = 2)
    // first third (3 + 4) / 2 = 3.5 s, last third (20 + 30) / 2 = 25 s, ratio 25 / 3.5 = 7.142857
    const events = [10, 13, 17, 23, 32, 46, 66, 96].map((t, i) => call(t, "step", { n: i }));
    const rows = await classify([timeout("slowing", events)]);
    expect(rows.slowing.cause).toBe("sluggish");
    expect(rows.slowing.gap_count).toBe(7);
    expect(rows.slowing.gap_ratio).toBeCloseTo(25 / 3.5, 9);
    expect(rows.slowing.evidence).toBe("gaps grew from 3.5 s to 25 s (x7.1)");
  });

  it("3 gaps are too few, however they grow", async () => {
    // times 0, 1, 10, 100: 3 gaps (1, 9, 90); the rule needs at least 4
    const events = [0, 1, 10, 100].map((t, i) => call(t, "step", { n: i }));
    const rows = await classify([timeout("three-gaps", events)]);
    expect(rows["three-gaps"].gap_count).toBe(3);
    expect(rows["three-gaps"].cause).toBe("unknown");
  });

  it("--sluggish-ratio moves the threshold", async () => {
    // times 0, 10, 20, 35, 50: gaps 10, 10, 15, 15; floor(4/3) = 1: first 10 s, last 15 s, x1.5
    const events = [0, 10, 20, 35, 50].map((t, i) => call(t, "step", { n: i }));
    const records = [timeout("mild", events)];
    expect((await classify(records)).mild.cause).toBe("unknown"); // 1.5 < 2
    expect((await classify(records, ["--sluggish-ratio", "1.5"])).mild.cause).toBe("sluggish"); // 1.5 >= 1.5
  });
});

describe("external: the last event is a request still waiting", () => {
  it("a request that got its response later is not external", async () => {
    const answered = [
      call(5, "search", { q: "b" }),
      result(9, "search"),
      { t: 40, type: "llm_request", name: "chat" },
      { t: 45, type: "llm_response", name: "chat" },
    ];
    const unanswered = answered.slice(0, 3);
    const rows = await classify([timeout("answered", answered), timeout("unanswered", unanswered)]);
    expect(rows.answered.cause).toBe("unknown");
    expect(rows.answered.is_waiting_request).toBe(false);
    expect(rows.unanswered.cause).toBe("external");
    // the llm_request went out at 40 s and the attempt was killed at 300 s: 260 s
    expect(rows.unanswered.last_event_age_s).toBe(260);
    expect(rows.unanswered.evidence).toBe("llm_request chat pending for 260 s when killed");
  });

  it("a pending status makes any last event a wait; a finished status ends a request", async () => {
    const rows = await classify([
      timeout("pending-tool", [call(5, "fetch", { url: "x" }), { t: 100, type: "tool_call", name: "fetch", args: { url: "y" }, status: "pending" }]),
      timeout("done-request", [{ t: 100, type: "http_request", name: "GET /a", status: "ok" }]),
      // a status saying the request is under way is no answer: sent at 120 s, killed at 300 s
      timeout("in-progress", [{ t: 120, type: "llm_request", name: "chat", status: "in_progress" }]),
    ]);
    // tool_call with status pending at 100 s, killed at 300 s: 200 s
    expect(rows["pending-tool"].cause).toBe("external");
    expect(rows["pending-tool"].evidence).toBe("tool_call fetch pending for 200 s when killed");
    expect(rows["done-request"].cause).toBe("unknown");
    expect(rows["in-progress"].cause).toBe("external");
    expect(rows["in-progress"].evidence).toBe("llm_request chat pending for 180 s when killed");
  });
});

describe("queue: the wait before the start ate the budget", () => {
  it("started_at - submitted_at against --queue-share of the budget", async () => {
    const rows = await classify([timeout("queued-120", null, { submitted_at: at(-120) }), timeout("queued-60", null, { submitted_at: at(-60) })]);
    // 120 / 300 = 40% >= 25%; 60 / 300 = 20% < 25%
    expect(rows["queued-120"].cause).toBe("queue");
    expect(rows["queued-120"].queue_wait_share).toBeCloseTo(0.4, 12);
    expect(rows["queued-120"].queue_reason).toBe("queue_wait");
    expect(rows["queued-120"].evidence).toBe("waited 120 s of the 300 s budget in the queue (40%)");
    expect(rows["queued-60"].cause).toBe("unknown");
  });

  it("queued/waiting_for_slot events that cover the share", async () => {
    const rows = await classify([
      // waiting_for_slot from 0 s until the first call at 90 s: 90 / 300 = 30% >= 25%
      timeout("slot-wait", [{ t: 0, type: "waiting_for_slot" }, call(90, "edit", { f: 1 }), result(95, "edit")]),
      // queued at 250 s and still queued when killed at 300 s: 50 / 300 = 16.7% < 25%
      timeout("late-queue", [call(10, "edit", { f: 1 }), { t: 250, type: "queued" }]),
    ]);
    expect(rows["slot-wait"].cause).toBe("queue");
    expect(rows["slot-wait"].queued_event_s).toBe(90);
    expect(rows["slot-wait"].evidence).toBe("queued/waiting_for_slot events cover 90 s of the 300 s budget (30%)");
    expect(rows["late-queue"].queued_event_s).toBe(50);
    expect(rows["late-queue"].cause).toBe("unknown");
    // queue events are not the agent's: slot-wait has two agent events (the call and its
    // result), late-queue one (the call), so late-queue has no gap at all
    expect(rows["slot-wait"].agent_event_count).toBe(2);
    expect(rows["late-queue"].gap_count).toBe(0);
  });
});

describe("rule order: the first rule that fires wins", () => {
  it("queue before loop, external before loop, loop before sluggish", async () => {
    // sluggish and looping: 5 identical calls at 0, 10, 20, 60, 100 s (gaps 10, 10, 40, 40: x4)
    const slowLoop = [0, 10, 20, 60, 100].map((t) => call(t, "read_file", { path: "a" }));
    const rows = await classify([
      timeout("queue-and-loop", sameCalls(5), { submitted_at: at(-100) }), // 100 / 300 = 33%
      timeout("external-and-loop", [...sameCalls(5), { t: 200, type: "llm_request", name: "chat" }]),
      timeout("loop-and-sluggish", slowLoop),
    ]);
    expect(rows["queue-and-loop"].cause).toBe("queue");
    expect(rows["queue-and-loop"].rules_fired).toEqual(["queue", "loop"]);
    expect(rows["queue-and-loop"].evidence).toBe("waited 100 s of the 300 s budget in the queue (33%) (also fired: loop)");
    expect(rows["external-and-loop"].cause).toBe("external");
    // and sluggish too: times 10, 12, 30, 32, ..., 90, 92, 200 give 10 gaps 2, 18, 2, 18, 2, 18, 2, 18, 2, 108;
    // floor(10/3) = 3: first (2 + 18 + 2) / 3 = 7.33 s, last (18 + 2 + 108) / 3 = 42.67 s, x5.8 >= 2
    expect(rows["external-and-loop"].rules_fired).toEqual(["external", "loop", "sluggish"]);
    expect(rows["loop-and-sluggish"].cause).toBe("loop");
    expect(rows["loop-and-sluggish"].rules_fired).toEqual(["loop", "sluggish"]);
  });
});

describe("records without events", () => {
  it("no events at all gives unknown", async () => {
    const rows = await classify([timeout("bare", null)]);
    expect(rows.bare.cause).toBe("unknown");
    expect(rows.bare.evidence_source).toBe("none");
    expect(rows.bare.evidence).toBe("no agent events recorded");
  });

  it("seed-format records: last_event waiting_api_response is external, repeated_tool_calls 6 is a loop", async () => {
    const seed = (task: string, extra: object) => ({
      task_id: task,
      first_status: "timeout",
      final_status: "timeout",
      attempts: 1,
      started_at: at(0),
      ended_at: at(300),
      timeout_limit_s: 300,
      ...extra,
    });
    const rows = await classify([
      seed("seed-external", { last_event: "waiting_api_response", last_event_ts: at(255) }),
      seed("seed-loop", { repeated_tool_calls: 6 }),
      seed("seed-four", { repeated_tool_calls: 4, last_event: "thinking" }),
    ]);
    expect(rows["seed-external"].cause).toBe("external");
    // last_event_ts 255 s, killed at 300 s: 45 s
    expect(rows["seed-external"].evidence).toBe("last_event waiting_api_response pending for 45 s when killed");
    expect(rows["seed-loop"].cause).toBe("loop"); // 6 >= 5
    expect(rows["seed-loop"].evidence_source).toBe("fields");
    expect(rows["seed-four"].cause).toBe("unknown"); // 4 < 5, and "thinking" is no wait
    expect(rows["seed-four"].evidence).toBe("no rule fired (last_event thinking, repeated_tool_calls 4; no events recorded)");
  });

  it("events, when present, decide over last_event and repeated_tool_calls", async () => {
    const rows = await classify([timeout("both", [call(10, "a", { x: 1 }), result(20, "a")], { last_event: "waiting_api_response", repeated_tool_calls: 9 })]);
    expect(rows.both.evidence_source).toBe("events");
    expect(rows.both.repeated_call_count).toBe(1);
    expect(rows.both.cause).toBe("unknown");
  });
});

describe("harness phases (Terminal-Bench) are evidence, never a fake loop, slowdown or wait", () => {
  const trial = (task: string, phases: Record<string, string | null>) => ({
    task_id: task,
    trial_name: `${task}.1-of-1.run-a`,
    is_resolved: false,
    failure_mode: "agent_timeout",
    trial_started_at: "2025-06-02T09:00:00+00:00",
    trial_ended_at: "2025-06-02T09:20:00+00:00",
    ...phases,
  });
  const file = (...results: object[]) => JSON.stringify({ id: "r", results, n_resolved: 0, accuracy: 0 });

  it("a full agent phase is shown; a missing agent phase is the environment's", async () => {
    const dir = tempDir({
      "results.json": file(
        trial("ran", {
          agent_started_at: "2025-06-02T09:01:00+00:00",
          agent_ended_at: "2025-06-02T09:16:00+00:00",
          test_started_at: "2025-06-02T09:16:10+00:00",
          test_ended_at: "2025-06-02T09:19:00+00:00",
        }),
        trial("never-started", {
          agent_started_at: null,
          agent_ended_at: null,
          test_started_at: "2025-06-02T09:19:00+00:00",
          test_ended_at: "2025-06-02T09:19:30+00:00",
        }),
      ),
    });
    const r = await denom(["timeouts", "--json", join(dir, "results.json")]);
    expect(r.code, r.stderr).toBe(0);
    const rows = Object.fromEntries(r.json<any[]>().map((x) => [x.task_id, x]));
    // agent 09:01:00 -> 09:16:00 = 900 s, after 60 s of setup from the trial's start
    expect(rows.ran.cause).toBe("unknown");
    expect(rows.ran.agent_phase_s).toBe(900);
    expect(rows.ran.evidence).toBe("no agent events recorded; the agent phase ran 900 s after 60 s of setup");
    expect(rows["never-started"].cause).toBe("queue");
    expect(rows["never-started"].agent_never_started).toBe(true);
    expect(rows["never-started"].queue_reason).toBe("agent_never_started");
    expect(rows["never-started"].evidence).toBe("the agent phase never started (the harness recorded its phases, but no agent_started)");
  });

  it("phase events take no part in gaps, runs or the last event", async () => {
    // five phase events with gaps 1, 2, 50, 100 s (x50 if they were the agent's), and a
    // request before the last phase
    const names = ["agent_started", "setup_done", "checkpoint", "agent_ended", "test_started"];
    const phases = [0, 1, 3, 53, 153].map((t, i): Ev => ({ t, type: "phase", name: names[i] }));
    const rows = await classify([
      timeout("phases-only", phases),
      timeout("request-then-phase", [
        { t: 100, type: "llm_request", name: "chat" },
        { t: 200, type: "phase", name: "agent_ended" },
      ]),
    ]);
    expect(rows["phases-only"].gap_count).toBe(0);
    expect(rows["phases-only"].is_waiting_request).toBe(null); // no agent event at all
    expect(rows["phases-only"].cause).toBe("unknown");
    // the llm_request (100 s) is the last agent event: 200 s pending when killed at 300 s
    expect(rows["request-then-phase"].cause).toBe("external");
    expect(rows["request-then-phase"].last_event_age_s).toBe(200);
  });
});

describe("denom timeouts", () => {
  const mix = join(CASES, "timeouts-mix", "attempts.jsonl");

  it("lists every timeout attempt of timeouts-mix, ordered by cause then task", async () => {
    const r = await denom(["timeouts", mix]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => l.includes(" to-"));
    // 6 timeouts: queue, external, loop, sluggish, then the two unknowns by task id
    expect(lines.map((l) => l.trim().split(/\s+/)[0])).toEqual(["to-queue", "to-external", "to-loop", "to-sluggish", "to-unknown-1", "to-unknown-2"]);
    // to-queue: submitted 09:00, started 09:02: 120 s of 300 s = 40%
    expect(r.stdout).toContain("waited 120 s of the 300 s budget in the queue (40%)");
    // to-external: llm_request at 09:00:40, killed at 09:05:00
    expect(r.stdout).toContain("llm_request chat pending for 260 s when killed");
    // to-loop: 7 read_file {path: notes.txt} calls, a tool_result after each
    expect(r.stdout).toContain("read_file {path: notes.txt} called 7 times in a row");
    expect(r.stdout).toContain("gaps grew from 3.5 s to 25 s (x7.1)");
  });

  it("--cause filters; --json gives the same rows", async () => {
    const r = await denom(["timeouts", "--json", "--cause", "unknown", mix]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<any[]>().map((x) => [x.task_id, x.cause])).toEqual([
      ["to-unknown-1", "unknown"],
      ["to-unknown-2", "unknown"],
    ]);
  });

  it("an unknown --cause is a usage error naming the flag", async () => {
    const r = await denom(["timeouts", "--cause", "slow", mix]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--cause slow");
    expect(r.stdout).toBe("");
  });

  it("--strict: a rejected line still lists the rows, and exits 1", async () => {
    const dir = tempDir({ "runs.jsonl": jsonl(timeout("kept", null)) + "{not json\n" });
    const r = await denom(["timeouts", "--json", "--strict", join(dir, "runs.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.json<any[]>().map((x) => x.task_id)).toEqual(["kept"]);
    expect(r.stderr).toContain("runs.jsonl:2");
  });

  it("--help shows examples and the rules", async () => {
    const r = await denom(["timeouts", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toContain("$ denom timeouts logs/ --cause loop");
    expect(r.stdout).toContain("the trailing gap to ended_at");
  });

  it("a duplicated timeout line is listed once", async () => {
    const line = timeout("twice", sameCalls(5));
    const rows = await classify([line, line]);
    expect(Object.keys(rows)).toEqual(["twice"]);
  });
});

describe("the report follows the classifier", () => {
  it("--queue-share moves to-queue out of queue, and back into the attributable denominator", async () => {
    const mix = join(CASES, "timeouts-mix", "attempts.jsonl");
    const r = await denom(["report", "--json", "--queue-share", "0.5", mix]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    // 120 / 300 = 40% < 50%: to-queue falls through to unknown (no wait, run 1, 3 gaps)
    expect(out.timeout_causes).toEqual({ queue: 0, external: 1, loop: 1, sluggish: 1, unknown: 3 });
    // 9 trials; only to-external is the environment's now: 2 successes / 8
    expect(cell(out, "final/attributable")).toMatchObject({ successes: 2, count: 8 });
    expect(out.meta.thresholds.queue_share).toBe(0.5);
  });
});

describe.skipIf(!hasShared)("real Terminal-Bench runs (../shared/data/real, read in place)", () => {
  it("agent_timeout trials have harness phases only: all unknown, none faked", async () => {
    const r = await denom(["timeouts", "--json", join(REAL, "terminal-bench-1")]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.json<any[]>();
    // failure_mode agent_timeout in the results.json files: orchestrator sonnet 117, qwen 172,
    // opus 167; swe-agent-mini runs 22 + 15 + 21 + 11 + 0 = 69; 525 in all
    expect(rows.length).toBe(525);
    expect(new Set(rows.map((x) => x.cause))).toEqual(new Set(["unknown"]));
    expect(rows.filter((x) => x.agent_phase_s !== null).length).toBe(69);
    const conda = rows.find((x) => x.task_id === "conda-env-conflict-resolution" && x.run_id === "2025-08-07__20-46-16");
    // agent 03:49:17.117192 -> 04:07:21.791562 = 1084.674370 s; setup from 03:48:21.576650 = 55.540542 s
    expect(conda.agent_phase_s).toBeCloseTo(1084.67437, 5);
    expect(conda.setup_s).toBeCloseTo(55.540542, 5);
    expect(conda.evidence).toBe("no agent events recorded; the agent phase ran 1084.7 s after 55.5 s of setup");
  });
});

describe("compactArgs", () => {
  it("shows object arguments without JSON quotes, and cuts long ones", () => {
    expect(compactArgs('{"path":"notes.txt"}')).toBe("{path: notes.txt}");
    expect(compactArgs('{"n":1,"tags":["a"]}')).toBe('{n: 1, tags: ["a"]}');
    expect(compactArgs(null)).toBe("");
    const long = compactArgs(JSON.stringify({ q: "x".repeat(100) }));
    expect(long.length).toBe(60);
    expect(long.endsWith("…")).toBe(true);
  });
});
