/** The line splitter and the per-line parser, apart from any stream (STYLE convention 5). */
import { describe, expect, it } from "vitest";
import { LineSplitter, overlongReason, type PhysicalLine } from "../src/ingest/bytes/lines.js";
import { parseLine, replaceNonFinite } from "../src/ingest/records/parse-line.js";

/** Feeds `bytes` to a splitter in chunks of `size` bytes and returns every line. */
function split(bytes: Buffer, size: number, maxBytes?: number): PhysicalLine[] {
  const out: PhysicalLine[] = [];
  const s = new LineSplitter(maxBytes);
  for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size), (l) => out.push(l));
  s.end((l) => out.push(l));
  return out;
}

describe("LineSplitter", () => {
  // BOM, a CRLF line, an empty line, a non-ASCII line, a last line without newline
  const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\r\n\n{"b":"é漢🙂"}\n  \n{"c":3}', "utf8")]);

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

describe("LineSplitter runs of blank lines", () => {
  /** What the splitter gives for `chunks`: lines as `no:text`, runs as `no+count`. */
  const split = (chunks: string[]) => {
    const got: string[] = [];
    const s = new LineSplitter();
    for (const c of chunks)
      s.push(
        Buffer.from(c),
        (l) => got.push(`${l.no}:${l.text}`),
        (first, count) => got.push(`${first}+${count}`),
      );
    s.end((l) => got.push(`${l.no}:${l.text}`));
    return { got, lines: s.lines };
  };

  it("hands 1,024 or more newlines in a row over as one run, fewer one by one, numbering on", () => {
    // a (1), 2,000 empty lines (2..2001), b (2002), 2 empty lines (2003, 2004), c (2005)
    const text = `a\n${"\n".repeat(2000)}b\n\n\nc`;
    const { got, lines } = split([text]);
    expect(lines).toBe(2005);
    expect(got).toEqual(["1:a", "2+2000", "2002:b", "2003:", "2004:", "2005:c"]);
    // cut inside the run: 1,500 in the first chunk (a run), 500 in the second (one by one)
    const cut = split([text.slice(0, 1502), text.slice(1502)]);
    expect(cut.lines).toBe(2005);
    expect(cut.got.slice(0, 3)).toEqual(["1:a", "2+1500", "1502:"]);
    expect(cut.got.slice(-5)).toEqual(["2001:", "2002:b", "2003:", "2004:", "2005:c"]);
    expect(cut.got.length).toBe(2 + 500 + 4);
  });
});

describe("LineSplitter with a line limit", () => {
  // limit 10 bytes: "short" (5), 25 x's (over), exactly 10 y's (at the limit: kept), "after", and a last line of 12 z's
  const input = Buffer.from(`short\n${"x".repeat(25)}\n${"y".repeat(10)}\nafter\n${"z".repeat(12)}`);

  for (const size of [1, 3, 7, 11, 64]) {
    it(`skips the overlong lines, counts their bytes and reads on, in ${size}-byte chunks`, () => {
      const lines = split(input, size, 10);
      // the head is what was held when the line passed the limit: more than 10 bytes of its start, never more
      // than the limit plus one chunk
      const head = (l: PhysicalLine) => l.overlong && /^(x+|z+)$/.test(l.overlong.head) && l.overlong.head.length > 10 && l.overlong.head.length <= 10 + size;
      expect(lines.map((l) => [l.no, l.text, l.bytes, l.overlong ? head(l) : null])).toEqual([
        [1, "short", 5, null],
        [2, null, 25, true],
        [3, "y".repeat(10), 10, null],
        [4, "after", 5, null],
        [5, null, 12, true],
      ]);
      expect(overlongReason(lines[1])).toBe(
        "line of 25 bytes, longer than the 0.0 MiB limit; skipped without reading it into memory (--max-line-bytes raises the limit)",
      );
    });
  }

  it("holds at most the limit and a chunk while skipping: the head kept is 256 bytes", () => {
    const big = Buffer.concat([Buffer.from("a".repeat(1000)), Buffer.from("b".repeat(300_000)), Buffer.from("\nok\n")]);
    const lines = split(big, 4096, 2048);
    expect(lines.map((l) => [l.text, l.bytes, l.overlong?.head.length ?? null])).toEqual([
      [null, 301_000, 256],
      ["ok", 2, null],
    ]);
    expect(overlongReason({ no: 1, text: null, bytes: 70e6, overlong: { limit: 64 * 1024 * 1024, head: "" } })).toContain("longer than the 64 MiB limit");
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
