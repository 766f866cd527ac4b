/** JSONL vs JSON documents, and the document walker over stream-json tokens. */
import { describe, expect, it } from "vitest";
import { peek } from "../src/ingest/bytes/peek.js";
import { readUnits, sniff } from "../src/ingest/records/reader.js";
import type { RejectKind, Unit } from "../src/ingest/types.js";

async function read(text: string | Buffer, chunk = 7) {
  const units: Unit[] = [];
  const blanks: number[] = [];
  const rejects: [number, string | null, string][] = [];
  const kinds: RejectKind[] = [];
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const summary = await readUnits(chunks(), new Set(["results"]), {
    unit: (u) => units.push(u),
    blank: (n) => blanks.push(n),
    reject: (line, location, reason, _excerpt, kind) => {
      rejects.push([line, location, reason]);
      kinds.push(kind);
    },
  });
  return { summary, values: units.map((u) => u.value), where: units.map((u) => u.location ?? u.line), blanks, rejects, kinds };
}

const RESULTS: ReadonlySet<string> = new Set(["results"]);

describe("sniff", () => {
  it("calls a file of one-line objects JSONL, even when its first line is broken", () => {
    expect(sniff(Buffer.from('{"a":1}\n{"b":2}\n'), true, RESULTS)).toBe("jsonl");
    expect(sniff(Buffer.from('{"a":\n{"b":2}\n'), true, RESULTS)).toBe("jsonl");
  });
  it("calls an array or a pretty-printed object a JSON document", () => {
    expect(sniff(Buffer.from('[{"a":1}]'), true, RESULTS)).toBe("json");
    expect(sniff(Buffer.from('{\n  "results": [\n    {"a": 1}\n  ]\n}\n'), true, RESULTS)).toBe("json");
  });
  it("calls a minified document a document: a first line holding a container array", () => {
    expect(sniff(Buffer.from('{"results":[{"a":1},{"b":2}],"accuracy":0.5}\n'), true, RESULTS)).toBe("json");
    expect(sniff(Buffer.from('{"results":[{"a":1}]}'), true, RESULTS)).toBe("json");
    // a container key that holds no array, or a key that is no container: a record, JSONL
    expect(sniff(Buffer.from('{"results":5}\n{"results":6}\n'), true, RESULTS)).toBe("jsonl");
    expect(sniff(Buffer.from('{"runs":[1]}\n'), true, RESULTS)).toBe("jsonl");
  });
});

describe("readUnits", () => {
  it("reads JSONL line by line with physical line numbers", async () => {
    const r = await read('{"a":1}\n\n{"b":\n{"c":3}\n');
    expect(r.values).toEqual([{ a: 1 }, { c: 3 }]);
    expect(r.where).toEqual([1, 4]);
    expect(r.blanks).toEqual([2]);
    expect(r.rejects.map(([line]) => line)).toEqual([3]);
    expect(r.summary).toMatchObject({ format: "jsonl", physicalLines: 4, nonFinite: 0 });
  });

  it("streams the elements of a top-level array", async () => {
    const r = await read('[\n {"a": 1},\n {"b": [1, {"c": 2}]},\n 7\n]\n');
    expect(r.values).toEqual([{ a: 1 }, { b: [1, { c: 2 }] }]);
    expect(r.where).toEqual(["[0]", "[1]"]);
    // the bare 7 is not a record
    expect(r.rejects).toEqual([[3, "[2]", "expected a JSON object, got 7"]]);
  });

  it("streams the elements of a container key and ignores the object's other keys", async () => {
    const doc = '{\n "id": "run-1",\n "results": [\n  {"t": 1},\n  {"t": 2}\n ],\n "accuracy": 0.5,\n "resolved_ids": ["x"]\n}\n';
    const r = await read(doc, 3);
    expect(r.values).toEqual([{ t: 1 }, { t: 2 }]);
    expect(r.where).toEqual(["results[0]", "results[1]"]);
    expect(r.summary.physicalLines).toBe(9);
  });

  it("takes a top-level object without a container as one record", async () => {
    const r = await read('{\n "run_id": "r",\n "nested": {"results": 1}\n}\n');
    expect(r.values).toEqual([{ run_id: "r", nested: { results: 1 } }]);
  });

  it("reads a minified document element by element: one bad element is one reject", async () => {
    const r = await read('{"results":[{"t":1},7,{"t":2}],"accuracy":0.5}\n');
    expect(r.values).toEqual([{ t: 1 }, { t: 2 }]);
    expect(r.where).toEqual(["results[0]", "results[2]"]);
    // element 2 of 3 is the bare 7
    expect(r.rejects).toEqual([[2, "results[1]", "expected a JSON object, got 7"]]);
    expect(r.summary.format).toBe("json");
  });

  it("reads a JSONL-named source line by line even when its first line starts with [", async () => {
    const text = "[truncated garbage\n" + '{"a":1}\n'.repeat(3);
    const units: Unit[] = [];
    const rejects: number[] = [];
    const summary = await readUnits(
      (async function* () {
        yield Buffer.from(text);
      })(),
      RESULTS,
      {
        unit: (u) => units.push(u),
        blank: () => {},
        reject: (line) => rejects.push(line),
      },
      "jsonl",
    );
    // line 1 rejected, lines 2..4 records: 4 lines = 3 records + 0 blank + 1 rejected
    expect([units.map((u) => u.line), rejects, summary.physicalLines, summary.format]).toEqual([[2, 3, 4], [1], 4, "jsonl"]);
  });

  it("shows a top-level scalar of a document as JSON in its reject", async () => {
    // stream-json packs the number 42 as the text "42": the reason must show 42, not "42"
    const r = await read('[{"a": 1}]\n42\ntrue\n"42"\n');
    expect(r.values).toEqual([{ a: 1 }]);
    expect(r.rejects).toEqual([
      [2, "value 2", "expected a JSON object, got 42"],
      [3, "value 3", "expected a JSON object, got true"],
      [4, "value 4", 'expected a JSON object, got "42"'],
    ]);
  });

  it("reads NaN and Infinity in a document as null and counts them", async () => {
    const r = await read('[\n {"score": NaN},\n {"score": -Infinity, "s": "NaN"}\n]', 2);
    expect(r.values).toEqual([{ score: null }, { score: null, s: "NaN" }]);
    expect(r.summary.nonFinite).toBe(2);
  });

  it("keeps the elements read before a document breaks and says the rest was not read", async () => {
    const r = await read('[\n {"a": 1},\n {"b": 2},\n {"c": ');
    expect(r.values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.rejects.length).toBe(1);
    // two elements read, so the break is in element 3, results index 2
    const [line, location, reason] = r.rejects[0];
    expect([line, location]).toEqual([3, "[2]"]);
    expect(reason).toMatch(/^invalid JSON document at element 3 \(.+\): the elements before it are kept, the rest of the document was not read$/);
    expect(r.kinds).toEqual(["document"]);
  });

  // the tokenizer once dropped the tokens of the call that met the bad token, so the
  // elements that ended in that call were lost (208 of 1,500 read; none of a small array)
  const elements = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `{"i": ${from + i}}`);
  const BROKE = (n: number) =>
    `invalid JSON document at element ${n} (Parser cannot parse input: expected a value): the elements before it are kept, the rest of the document was not read`;
  for (const [name, sep] of [
    ["one element a line", ",\n"],
    ["one line", ","],
  ] as const) {
    for (const chunk of [7, 1 << 16]) {
      it(`keeps all 1,000 elements before a bad token in an array of 1,500 (${name}, ${chunk}-byte chunks)`, async () => {
        const doc = `[${[...elements(0, 1000), "}x", ...elements(1000, 1500)].join(sep)}]\n`;
        const r = await read(doc, chunk);
        expect(r.values.length).toBe(1000);
        expect(r.values[0]).toEqual({ i: 0 });
        expect(r.values[999]).toEqual({ i: 999 });
        expect(r.rejects).toEqual([[1001, "[1000]", BROKE(1001)]]);
      });

      it(`keeps the elements before a bad token in a container array (${name}, ${chunk}-byte chunks)`, async () => {
        const doc = `{"model": "m", "results": [${[...elements(0, 1000), "}x", ...elements(1000, 1500)].join(sep)}]}\n`;
        const r = await read(doc, chunk);
        expect(r.values.length).toBe(1000);
        expect(r.rejects).toEqual([[1001, "results[1000]", BROKE(1001)]]);
      });
    }
  }

  for (const chunk of [7, 1 << 16]) {
    it(`keeps all 1,000 elements before a bad token on one line of 170 KB, tokenized in several calls (${chunk}-byte chunks)`, async () => {
      // each element 120 characters and a comma: the bad token at character 1 + 1,000 x 121 + 1 = 121,002, past the first 64 KiB call
      const pad = "x".repeat(100);
      const padded = Array.from({ length: 1500 }, (_, i) => `{"i": ${1000 + i}, "p": "${pad}"}`);
      expect(padded[0].length).toBe(120);
      const r = await read(`[${[...padded.slice(0, 1000), "}x", ...padded.slice(1000)].join(",")}]`, chunk);
      expect(r.values.length).toBe(1000);
      expect(r.values[999]).toEqual({ i: 1999, p: pad });
      expect(r.rejects).toEqual([[1001, "[1000]", BROKE(1001)]]);
    });
  }

  for (const chunk of [1, 7, 1 << 16]) {
    it(`keeps both elements of a 3-element array broken after its 2nd (${chunk}-byte chunks)`, async () => {
      const r = await read('[{"a": 1}, {"b": 2}, }x, {"c": 3}]', chunk);
      expect(r.values).toEqual([{ a: 1 }, { b: 2 }]);
      expect(r.rejects).toEqual([[3, "[2]", BROKE(3)]]);
    });
  }

  // the last newline before the break leaves the tokenizer in each of its states between tokens;
  // the elements that end after it, {"e": 5} among them, are read by the replay from that state
  const NESTED: [string, unknown][] = [
    ['[{"a": [1,\n 2]}', { a: [1, 2] }], // a comma in an array
    ['[{"a": [1\n, 2]}', { a: [1, 2] }], // a value in an array
    ['[{"a": [\n1, 2]}', { a: [1, 2] }], // an array opened
    ['[{"a": {"b":\n 2}}', { a: { b: 2 } }], // a colon
    ['[{"a": {"b"\n: 2}}', { a: { b: 2 } }], // a key
    ['[{"a": {"b": 1,\n "c": 2}}', { a: { b: 1, c: 2 } }], // a comma in an object
    ['[{"a": {"b": 1\n, "c": 2}}', { a: { b: 1, c: 2 } }], // a value in an object
    ['[{"a": {\n"b": 1}}', { a: { b: 1 } }], // an object opened
    ['[{"a": 1},\n {"b": 2}', { b: 2 }], // a comma in the top-level array
  ];
  for (const [start, value] of NESTED) {
    for (const chunk of [1, 1 << 16]) {
      it(`replays from the state after ${JSON.stringify(start)} (${chunk}-byte chunks)`, async () => {
        const r = await read(`${start}, {"e": 5}, }x, {"f": 6}]`, chunk);
        const before = start.startsWith('[{"a": 1},') ? [{ a: 1 }] : [];
        expect(r.values).toEqual([...before, value, { e: 5 }]);
        expect(r.rejects).toEqual([[before.length + 3, `[${before.length + 2}]`, BROKE(before.length + 3)]]);
      });
    }
  }

  it("tells a skipped element from a document break", async () => {
    const r = await read('[{"a": 1}, 7, {"b": 2}, ');
    // the bare 7 is skipped and reading goes on to {"b": 2}; then the document ends early
    expect(r.values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.kinds).toEqual(["element", "document"]);
  });

  for (const chunk of [3, 7, 1 << 16]) {
    it(`reads a JSON document that starts with a byte-order mark (${chunk}-byte chunks)`, async () => {
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      const r = await read(Buffer.concat([bom, Buffer.from('[{"a": 1},\n {"b": 2}]\n')]), chunk);
      expect(r.values).toEqual([{ a: 1 }, { b: 2 }]);
      expect(r.rejects).toEqual([]);
      expect(r.summary).toEqual({ format: "json", physicalLines: 2, nonFinite: 0 });
    });

    it(`rejects bytes that are not UTF-8 in a document instead of replacing them (${chunk}-byte chunks)`, async () => {
      // element 2 holds the byte 0xff, which UTF-8 never uses
      const doc = Buffer.concat([Buffer.from('[{"a": 1},\n {"b": "x'), Buffer.from([0xff]), Buffer.from('"},\n {"c": 3}]\n')]);
      const r = await read(doc, chunk);
      // element 1 is kept; element 2 and everything after it are not read
      expect(r.values).toEqual([{ a: 1 }]);
      expect(r.rejects).toEqual([[2, "[1]", "bytes that are not UTF-8 at element 2: the elements before it are kept, the rest of the document was not read"]]);
      expect(r.kinds).toEqual(["document"]);
      expect(r.summary.physicalLines).toBe(3); // the lines are still counted
    });
  }

  it("rejects a document that ends inside a UTF-8 sequence", async () => {
    // 0xe6 0xbc starts a three-byte character whose last byte never comes
    const r = await read(Buffer.concat([Buffer.from('[{"a": 1}, {"b": "'), Buffer.from([0xe6, 0xbc])]));
    expect(r.values).toEqual([{ a: 1 }]);
    expect(r.rejects[0][2]).toMatch(/^bytes that are not UTF-8 at element 2:/);
  });
});

describe("peek", () => {
  it("reads ahead until told and replays every byte, in order, once", async () => {
    async function* parts() {
      for (const p of ["ab", "cd\n", "ef", "g\n", "hi"]) yield Buffer.from(p);
    }
    let lines = 0;
    const p = await peek(parts(), (chunk) => (lines += chunk.includes(10) ? 1 : 0) >= 2);
    // stops after the chunk holding the second newline: "ab" + "cd\n" + "ef" + "g\n"
    expect([p.bytes.toString(), p.ended]).toEqual(["abcd\nefg\n", false]);
    const all: string[] = [];
    for await (const c of p.rest) all.push(c.toString());
    expect(all.join("")).toBe("abcd\nefg\nhi");
  });

  it("says when the source ended during the read-ahead", async () => {
    async function* parts() {
      yield Buffer.from("x");
    }
    const p = await peek(parts(), () => false);
    expect([p.bytes.toString(), p.ended]).toEqual(["x", true]);
  });
});
