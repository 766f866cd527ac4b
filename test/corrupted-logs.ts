/**
 * The corrupted logs of the corruption property test (issue 7): generated
 * canonical records, then cut, spliced, flipped, duplicated, reordered and
 * dropped bytes. Shared by test/corruption.property.test.ts (against an oracle)
 * and test/fast-path.test.ts (the fast path against the per-line path).
 */
import fc from "fast-check";

/** What the generator writes: the canonical fields that decide the grid, and statuses from every class. */
export const record = fc.record(
  {
    run_id: fc.constantFrom("r1", "r2"),
    task_id: fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6"),
    trial: fc.integer({ min: 0, max: 2 }),
    attempt: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom("success", "passed", "failure", "incorrect", "timeout", "error", "infra_error", "invalid", "weird_status", "Success "),
  },
  { requiredKeys: ["task_id", "status"] },
);

/** One corruption of the bytes of a log. */
export type Corruption =
  | { kind: "cut"; at: number }
  | { kind: "splice"; from: number; length: number; to: number }
  | { kind: "flip"; at: number; value: number }
  | { kind: "duplicate"; line: number }
  | { kind: "reorder"; a: number; b: number }
  | { kind: "drop"; from: number; length: number };

export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("splice" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 120 }), to: fc.nat() }),
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("reorder" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("drop" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
);

/** Applies one corruption; positions are taken modulo the current size. */
export function corrupt(bytes: Buffer, c: Corruption): Buffer {
  const n = bytes.length;
  if (n === 0) return bytes;
  switch (c.kind) {
    case "cut":
      return bytes.subarray(0, c.at % n);
    case "splice": {
      // a piece of the log pasted elsewhere, as a hand-concatenated log holds
      const from = c.from % n;
      const piece = bytes.subarray(from, Math.min(n, from + c.length));
      const to = c.to % (n + 1);
      return Buffer.concat([bytes.subarray(0, to), piece, bytes.subarray(to)]);
    }
    case "flip": {
      const out = Buffer.from(bytes);
      out[c.at % n] = c.value;
      return out;
    }
    case "drop": {
      const from = c.from % n;
      return Buffer.concat([bytes.subarray(0, from), bytes.subarray(Math.min(n, from + c.length))]);
    }
    case "duplicate":
    case "reorder": {
      const lines = splitLines(bytes);
      if (lines.length === 0) return bytes;
      if (c.kind === "duplicate") {
        const i = c.line % lines.length;
        lines.splice(i, 0, lines[i]);
      } else {
        const a = c.a % lines.length;
        const b = c.b % lines.length;
        [lines[a], lines[b]] = [lines[b], lines[a]];
      }
      return Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
    }
  }
}

/** Physical lines of a JSONL file: `\n` ends a line; a last line without one still counts. */
export function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** Arbitrary corrupted logs: 1 to 30 generated records, then 1 to 4 corruptions. */
export const corruptedLog = fc
  .tuple(fc.array(record, { minLength: 1, maxLength: 30 }), fc.array(corruption, { minLength: 1, maxLength: 4 }))
  .map(([records, corruptions]) => {
    let bytes = Buffer.from(records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    for (const c of corruptions) bytes = corrupt(bytes, c);
    return bytes;
  });
