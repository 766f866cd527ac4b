/** JSONL vs JSON documents, and the document walker over stream-json tokens. */
import { describe, expect, it } from "vitest";
import { readUnits, sniff, type Unit } from "../src/ingest/reader.js";

async function read(text: string, chunk = 7) {
  const units: Unit[] = [];
  const blanks: number[] = [];
  const rejects: [number, string | null, string][] = [];
  const bytes = Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const summary = await readUnits(chunks(), new Set(["results"]), {
    unit: (u) => units.push(u),
    blank: (n) => blanks.push(n),
    reject: (line, location, reason) => rejects.push([line, location, reason]),
  });
  return { summary, values: units.map((u) => u.value), where: units.map((u) => u.location ?? u.line), blanks, rejects };
}

describe("sniff", () => {
  it("calls a file of one-line objects JSONL, even when its first line is broken", () => {
    expect(sniff(Buffer.from('{"a":1}\n{"b":2}\n'), true)).toBe("jsonl");
    expect(sniff(Buffer.from('{"a":\n{"b":2}\n'), true)).toBe("jsonl");
  });
  it("calls an array or a pretty-printed object a JSON document", () => {
    expect(sniff(Buffer.from('[{"a":1}]'), true)).toBe("json");
    expect(sniff(Buffer.from('{\n  "results": [\n    {"a": 1}\n  ]\n}\n'), true)).toBe("json");
  });
});

describe("readUnits", () => {
  it("reads JSONL line by line with physical line numbers", async () => {
    const r = await read('{"a":1}\n\n{"b":\n{"c":3}\n');
    expect(r.values).toEqual([{ a: 1 }, { c: 3 }]);
    expect(r.where).toEqual([1, 4]);
    expect(r.blanks).toEqual([2]);
    expect(r.rejects.map(([line]) => line)).toEqual([3]);
    expect(r.summary).toEqual({ format: "jsonl", physicalLines: 4, nonFinite: 0 });
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

  it("reads NaN and Infinity in a document as null and counts them", async () => {
    const r = await read('[\n {"score": NaN},\n {"score": -Infinity, "s": "NaN"}\n]', 2);
    expect(r.values).toEqual([{ score: null }, { score: null, s: "NaN" }]);
    expect(r.summary.nonFinite).toBe(2);
  });

  it("keeps the elements read before a document breaks and rejects the rest", async () => {
    const r = await read('[\n {"a": 1},\n {"b": 2},\n {"c": ');
    expect(r.values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.rejects.length).toBe(1);
    expect(r.rejects[0][1]).toBe("[2]");
  });
});
