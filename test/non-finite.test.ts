/**
 * The streaming NaN / Infinity filter of JSON documents: its fast path (a piece
 * with no token passes through, only the string state is carried) must give what
 * reading the whole text at once gives, wherever the pieces are cut.
 */
import { describe, expect, it } from "vitest";
import { replaceNonFinite } from "../src/ingest/records/parse-line.js";
import { NonFiniteFilter } from "../src/json-text.js";

/** Feeds `text` in pieces of `size` characters; returns the joined output and the count. */
function chunked(text: string, size: number): { text: string; count: number } {
  const f = new NonFiniteFilter();
  let out = "";
  for (let i = 0; i < text.length; i += size) out += f.push(text.slice(i, i + size), i + size >= text.length);
  return { text: out, count: f.count };
}

describe("NonFiniteFilter", () => {
  // [input, expected output, tokens replaced], worked out by hand
  const cases: [string, string, number][] = [
    // the string holds an escaped quote and the word NaN; only the bare NaN after it is a token
    ['{"s": "a\\" NaN \\\\", "v": NaN}', '{"s": "a\\" NaN \\\\", "v": null}', 1],
    // a long string: the pieces before "NaN" have no token (fast path) and end inside the string
    ['{"note": "xxxxxxxxxxxxxxxxxxxxxxxxxx NaN"}', '{"note": "xxxxxxxxxxxxxxxxxxxxxxxxxx NaN"}', 0],
    // newlines between values: the state after a newline is "outside a string"
    ['[\n {"a": "q\\\\"},\n {"b": -Infinity},\n {"c": "Infinity"}\n]', '[\n {"a": "q\\\\"},\n {"b": null},\n {"c": "Infinity"}\n]', 1],
    // a token at the very end, and one word that only starts like a token
    ['{"NaNa": 1, "x": [Infinity, NaNa, NaN]', '{"NaNa": 1, "x": [null, NaNa, null]', 2],
  ];
  for (const [input, output, count] of cases) {
    it(`reads ${JSON.stringify(input.slice(0, 30))}… the same in pieces of 1 to 40 characters`, () => {
      for (let size = 1; size <= 40; size++) expect(chunked(input, size), `pieces of ${size}`).toEqual({ text: output, count });
    });
  }

  it("agrees with the whole-text reading on generated documents, cut anywhere", () => {
    const parts = [
      '"a\\\\"',
      '"q\\"NaN\\"q"',
      "NaN",
      "-Infinity",
      "Infinity",
      '"NaN"',
      '"\\\\\\"x"',
      "\n",
      " ",
      '{"k":',
      "1,",
      '"é漢🙂"',
      "NaNa",
      '"s\\\\\\\\"',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let doc = 0; doc < 500; doc++) {
      let text = "";
      for (let k = 1 + Math.floor(next() * 40); k > 0; k--) text += parts[Math.floor(next() * parts.length)];
      const size = 1 + Math.floor(next() * 60);
      expect(chunked(text, size), `${JSON.stringify(text)} in pieces of ${size}`).toEqual(replaceNonFinite(text));
    }
  });
});
