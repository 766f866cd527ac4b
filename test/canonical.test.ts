import { describe, expect, it } from "vitest";
import { canonicalJson, normalizeAttempt } from "../src/formats/canonical-record.js";
import { parseLine } from "../src/ingest/records/parse-line.js";
import { TABLES } from "../src/db/schema.js";

function ok(record: Record<string, unknown>) {
  const r = normalizeAttempt(record);
  if ("error" in r) throw new Error(r.error);
  return r.attempt;
}

function error(record: Record<string, unknown>): string {
  const r = normalizeAttempt(record);
  if (!("error" in r)) throw new Error("expected a reject");
  return r.error;
}

describe("normalizeAttempt", () => {
  it("fills the defaults: trial 0, attempt 1, no run", () => {
    const a = ok({ task_id: "t1", status: "success" });
    expect([a.run_id, a.trial, a.attempt, a.status, a.events]).toEqual([null, 0, 1, "success", []]);
  });

  it("reads the aliases of DESIGN section 2", () => {
    const a = ok({ instance_id: "django-1", epoch: 2, retry: 1, status: "passed", error: "boom" });
    // retry 1 is the second attempt
    expect([a.task_id, a.trial, a.attempt, a.error_message]).toEqual(["django-1", 2, 2, "boom"]);
    expect(ok({ sample_id: 7, status: "ok" }).task_id).toBe("7");
  });

  it("keeps unknown fields in extra and never rejects them", () => {
    const a = ok({ task_id: "t", status: "success", harness_version: "1.2", nested: { a: 1 } });
    expect(JSON.parse(a.extra!)).toEqual({ harness_version: "1.2", nested: { a: 1 } });
  });

  it("rejects a missing task_id or status, naming the field", () => {
    expect(error({ status: "success" })).toBe("task_id: missing");
    expect(error({ task_id: "t" })).toBe("status: missing");
  });

  it("rejects values of the wrong type or out of bounds", () => {
    expect(error({ task_id: "t", status: "success", attempt: 0 })).toBe("attempt: must be >= 1, got 0");
    expect(error({ task_id: "t", status: "success", trial: 1.5 })).toBe("trial: expected a whole number, got 1.5");
    expect(error({ task_id: "t", status: "success", timeout_limit_s: 0 })).toBe("timeout_limit_s: must be > 0, got 0");
    expect(error({ task_id: "t", status: "success", fault: "user" })).toBe('fault: expected "agent" or "environment", got "user"');
    expect(error({ task_id: "t", status: 1 })).toBe("status: expected a string, got a number");
  });

  it("rejects an empty or blank task_id, which would pool every such record into one task", () => {
    expect(error({ task_id: "", status: "success" })).toBe('task_id: empty ("")');
    expect(error({ task_id: "   ", status: "success" })).toBe('task_id: empty ("   ")');
    // an alias is read the same way; other ids may be empty (agent "" is a group of its own)
    expect(error({ instance_id: "", status: "success" })).toBe('task_id: empty ("")');
    expect(ok({ task_id: "t", status: "success", agent: "" }).agent).toBe("");
  });

  it("rejects a timestamp out of range, naming the field (events too) instead of failing the run", () => {
    // 1743494401000000000000 is above 1e17, so nanoseconds: 1743494401000 s, in the year 57219
    expect(error({ task_id: "t", status: "success", started_at: 1743494401000000000000 })).toMatch(
      /^started_at: timestamp out of range: 1\.743494401e\+21 \(read as epoch nanoseconds: .*\); denom reads years 1970 to 2200 \(UTC\)$/,
    );
    expect(error({ task_id: "t", status: "timeout", events: [{ ts: "0001-01-01T00:00:00Z" }] })).toBe(
      'events[0].ts: timestamp out of range: "0001-01-01T00:00:00Z"; denom reads years 1970 to 2200 (UTC)',
    );
  });

  it("rejects ended_at before started_at", () => {
    expect(error({ task_id: "t", status: "success", started_at: "2025-03-12T09:00:10Z", ended_at: "2025-03-12T09:00:00Z" })).toBe(
      "ended_at is before started_at (10 s earlier)",
    );
  });

  it("counts naive timestamps, events' too", () => {
    const a = ok({
      task_id: "t",
      status: "timeout",
      started_at: "2025-03-12T09:00:00",
      events: [
        { ts: "2025-03-12T09:00:05", type: "tool_call" },
        { ts: "2025-03-12T09:00:06Z", kind: "tool_result" },
      ],
    });
    expect(a.naive_timestamps).toBe(2);
    expect(a.events.map((e) => e.type)).toEqual(["tool_call", "tool_result"]);
  });

  it("flattens events with canonical arguments", () => {
    const a = ok({ task_id: "t", status: "timeout", events: [{ type: "tool_call", name: "read", args: { b: 1, a: [2, { d: 3, c: 4 }] } }] });
    expect(a.events[0]).toEqual({ seq: 0, ts: null, type: "tool_call", name: "read", args: '{"a":[2,{"c":4,"d":3}],"b":1}', status: null });
  });

  it("reads grader_error: false, 0 and empty values as no grader error, true as one", () => {
    const graderError = (v: unknown) => ok({ task_id: "t", status: "success", grader_error: v }).grader_error;
    // a JSON-stringified false ("false") would be non-empty text: the success would turn aborted
    expect([false, 0, "", "  ", [], {}].map(graderError)).toEqual([null, null, null, null, null, null]);
    expect([true, 1].map(graderError)).toEqual(["true", "true"]);
    expect(graderError("judge returned HTTP 503")).toBe("judge returned HTTP 503");
    expect(graderError({ code: 503 })).toBe('{"code":503}');
    // the same reading for error_message (alias error)
    expect(ok({ task_id: "t", status: "failure", error: false }).error_message).toBeNull();
  });

  it("reads llm_tokens as a whole number beyond 32 bits, into a BIGINT column", () => {
    // 3e9 > 2^31 - 1 = 2147483647, the INTEGER limit
    expect(ok({ task_id: "t", status: "success", llm_tokens: 3e9 }).llm_tokens).toBe(3e9);
    expect(error({ task_id: "t", status: "success", llm_tokens: 10.5 })).toBe("llm_tokens: expected a whole number, got 10.5");
    expect(error({ task_id: "t", status: "success", llm_tokens: -1 })).toBe("llm_tokens: must be >= 0, got -1");
    expect(TABLES.attempts.find((c) => c.name === "llm_tokens")?.type).toBe("BIGINT");
    // the other whole numbers stay 32-bit
    expect(error({ task_id: "t", status: "success", tool_call_count: 3e9 })).toBe("tool_call_count: must be <= 2147483647, got 3000000000");
  });

  it("rejects an event that is not an object", () => {
    expect(error({ task_id: "t", status: "timeout", events: [{ type: "x" }, 5] })).toBe("events[1]: expected an object, got a number");
  });
});

describe("canonicalJson", () => {
  it("gives equal text for equal values whatever the key order", () => {
    expect(canonicalJson({ b: 1, a: { y: 2, x: 1 } })).toBe(canonicalJson({ a: { x: 1, y: 2 }, b: 1 }));
  });

  it("sorts keys by UTF-16 code units at every level, whichever way the text is built", () => {
    // the order of Array.prototype.sort: "10" < "9" < "B" < "a" < "é"; JSON.parse puts "9" before "10"
    expect(canonicalJson(JSON.parse('{"é":1,"a":"x","B":true,"9":null,"10":[{"z":1,"y":2}]}'))).toBe('{"10":[{"y":2,"z":1}],"9":null,"B":true,"a":"x","é":1}');
    // already in order, plain values: written as JSON.stringify writes them (escapes, -0, 1e21, non-finite as null)
    expect(canonicalJson({ a: 'q"\\', b: -0, c: 1e21, d: Infinity })).toBe('{"a":"q\\"\\\\","b":0,"c":1e+21,"d":null}');
    // the same values out of order give the same text
    expect(canonicalJson({ d: Infinity, c: 1e21, b: -0, a: 'q"\\' })).toBe('{"a":"q\\"\\\\","b":0,"c":1e+21,"d":null}');
    // more than 16 keys: 17 keys q..a, written backwards, come out a..q
    const many = Object.fromEntries([..."qponmlkjihgfedcba"].map((k, i) => [k, i]));
    expect(canonicalJson(many)).toBe(`{${[..."abcdefghijklmnopq"].map((k) => `"${k}":${16 - (k.charCodeAt(0) - 97)}`).join(",")}}`);
  });

  it("writes an integer beyond 2^53 in arguments as the object it is read into (its text kept), in or out of key order", () => {
    // parseLine keeps 12345678901234567891 as a BigLiteral, whose one own key is its text
    const parsed = parseLine('{"a":{"n":12345678901234567891},"b":{"z":0,"n":12345678901234567891}}');
    const value = (parsed as { value: Record<string, unknown> }).value;
    expect(canonicalJson(value.a)).toBe('{"n":{"text":"12345678901234567891"}}');
    expect(canonicalJson(value.b)).toBe('{"n":{"text":"12345678901234567891"},"z":0}');
  });
});
