/** The line splitter and the per-line parser, apart from any stream (STYLE convention 5). */
import { describe, expect, it } from "vitest";
import { LineSplitter, parseLine, replaceNonFinite, type PhysicalLine } from "../src/ingest/lines.js";

/** Feeds `bytes` to a splitter in chunks of `size` bytes and returns every line. */
function split(bytes: Buffer, size: number): PhysicalLine[] {
  const out: PhysicalLine[] = [];
  const s = new LineSplitter();
  for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size), (l) => out.push(l));
  s.end((l) => out.push(l));
  return out;
}

describe("LineSplitter", () => {
  // BOM, a CRLF line, an empty line, a non-ASCII line, a last line without newline
  const input = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('{"a":1}\r\n\n{"b":"é漢🙂"}\n  \n{"c":3}', "utf8"),
  ]);

  for (let size = 1; size <= 13; size++) {
    it(`gives the same 5 lines when fed in ${size}-byte chunks`, () => {
      const lines = split(input, size);
      expect(lines.map((l) => [l.no, l.text])).toEqual([
        [1, '{"a":1}'], // BOM dropped, \r dropped
        [2, ""],
        [3, '{"b":"é漢🙂"}'],
        [4, "  "],
        [5, '{"c":3}'], // no trailing newline, still a line
      ]);
    });
  }

  it("counts a trailing newline as the end of the last line, not a new line", () => {
    expect(split(Buffer.from("x\ny\n"), 4).length).toBe(2);
    expect(split(Buffer.from(""), 4).length).toBe(0);
  });

  it("marks bytes that are not UTF-8 instead of replacing them", () => {
    const lines = split(Buffer.from([0x7b, 0xff, 0x7d, 0x0a, 0x61]), 2);
    expect(lines[0].text).toBeNull();
    expect(lines[1].text).toBe("a");
  });
});

describe("parseLine", () => {
  it("reads a JSON object", () => {
    expect(parseLine('{"task_id":"t1","status":"success"}')).toEqual({
      kind: "value",
      value: { task_id: "t1", status: "success" },
      nonFinite: 0,
    });
  });

  it("calls whitespace-only lines blank", () => {
    expect(parseLine("   \t ").kind).toBe("blank");
    expect(parseLine("").kind).toBe("blank");
  });

  it("rejects invalid JSON with the column", () => {
    const r = parseLine('{"task_id":"t1",');
    expect(r.kind).toBe("reject");
    expect((r as { reason: string }).reason).toMatch(/^invalid JSON \(/);
  });

  it("rejects JSON that is not an object", () => {
    expect(parseLine("[1,2]")).toEqual({ kind: "reject", reason: "expected a JSON object, got an array" });
    expect(parseLine("42")).toEqual({ kind: "reject", reason: "expected a JSON object, got 42" });
  });

  it("reads Python's NaN and Infinity tokens as null and counts them", () => {
    // three bare tokens; the one inside a string is text, not a token
    const r = parseLine('{"score":NaN,"cost_usd":Infinity,"x":-Infinity,"note":"NaN here"}');
    expect(r).toEqual({ kind: "value", value: { score: null, cost_usd: null, x: null, note: "NaN here" }, nonFinite: 3 });
  });

  it("does not touch names that merely contain the tokens", () => {
    expect(replaceNonFinite('{"NaNa":"x","v":NaNa}')).toEqual({ text: '{"NaNa":"x","v":NaNa}', count: 0 });
  });

  it("rejects invalid UTF-8", () => {
    expect(parseLine(null)).toEqual({ kind: "reject", reason: "invalid UTF-8" });
  });
});
