/**
 * Issue 15, the ingest side: gzip read as `gzip -dc` reads it (concatenated
 * members, trailing garbage), CR line endings, ids that keep the text they
 * were written with (integers beyond 2^53), keys written twice in one object,
 * inputs that are no log named for what they are, a forced --input-format that
 * maps nothing, and --run-per-file. Every count below is worked out by hand
 * from the bytes written here.
 */
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { gunzipMembers } from "../src/ingest/bytes/gunzip.js";
import { keyMarks, readLiterals, needsLiteralRead } from "../src/json-text.js";
import { LineSplitter } from "../src/ingest/bytes/lines.js";
import { parseLine } from "../src/ingest/records/parse-line.js";
import { looksLike, notALog } from "../src/ingest/bytes/sources.js";
import { denom, tempDir } from "./helpers.js";

const rec = (task: string | number, status: string, extra: Record<string, unknown> = {}) => JSON.stringify({ task_id: task, status, ...extra });
const lines = (...rs: string[]) => rs.map((r) => `${r}\n`).join("");

async function inflate(bytes: Buffer, chunk = 5): Promise<{ text: string; problem: string | null }> {
  const problem = { text: null as string | null };
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) pieces.push(bytes.subarray(i, i + chunk));
  let text = "";
  for await (const c of gunzipMembers(Readable.from(pieces), problem)) text += c.toString();
  return { text, problem: problem.text };
}

describe("gzip as gzip -dc reads it", () => {
  const a = gzipSync(lines(rec("a", "success"), rec("b", "failure")));
  const b = gzipSync(lines(rec("c", "success")));

  it("reads concatenated members as one stream, in any chunk size", async () => {
    for (const chunk of [1, 5, 4096]) {
      expect(await inflate(Buffer.concat([a, b]), chunk)).toEqual({
        text: lines(rec("a", "success"), rec("b", "failure"), rec("c", "success")),
        problem: null,
      });
    }
  });

  it("reports bytes after the last member as trailing garbage and keeps everything before them", async () => {
    const r = await inflate(Buffer.concat([a, b, Buffer.from("junk\n")]));
    expect(r.text).toBe(lines(rec("a", "success"), rec("b", "failure"), rec("c", "success")));
    // 5 bytes "junk\n" after member 2, at offset a.length + b.length
    expect(r.problem).toBe(`5 bytes of trailing garbage after gzip member 2 (offset ${a.length + b.length}); every record before them is kept`);
    // zero padding is no garbage (gzip ignores it too)
    expect(await inflate(Buffer.concat([a, Buffer.alloc(7)]))).toEqual({ text: lines(rec("a", "success"), rec("b", "failure")), problem: null });
  });

  it("keeps what a cut member gave before the cut", async () => {
    const r = await inflate(Buffer.concat([a, b.subarray(0, b.length - 4)]));
    // member 2 has its whole deflate data but only half its trailer
    expect(r.text).toBe(lines(rec("a", "success"), rec("b", "failure"), rec("c", "success")));
    expect(r.problem).toMatch(/^gzip stream ended early \(member 2 has no complete trailer\)/);
  });

  it("counts every record of a gzip with stray bytes, warns, and --strict fails; a gzip inside a gzip is unwrapped", async () => {
    const dir = tempDir({
      "garbage.jsonl.gz": Buffer.concat([a, b, Buffer.from([0x0a, 0x41, 0x42])]),
      "double.jsonl.gz": gzipSync(Buffer.concat([a, b])),
    });
    const r = await denom(["report", "--json", join(dir, "garbage.jsonl.gz")]);
    expect(r.code).toBe(0);
    // 3 records: a, b from member 1, c from member 2; the 3 stray bytes lose nothing
    expect(r.json().accounting).toMatchObject({ lines: 3, records: 3, rejected: 0, broken_sources: 1 });
    expect(r.stderr).toContain("garbage.jsonl.gz: 3 bytes of trailing garbage after gzip member 2");
    expect((await denom(["report", "--strict", join(dir, "garbage.jsonl.gz")])).code).toBe(1);
    const d = await denom(["report", "--json", join(dir, "double.jsonl.gz")]);
    expect(d.json().accounting).toMatchObject({ lines: 3, records: 3, broken_sources: 0 });
    expect(d.json().rates[0]).toMatchObject({ successes: 2, count: 3 });
  });
});

describe("line endings", () => {
  const split = (bytes: Buffer | string, chunk = 3) => {
    const s = new LineSplitter();
    const got: (string | null)[] = [];
    const buf = Buffer.from(bytes);
    for (let i = 0; i < buf.length; i += chunk) s.push(buf.subarray(i, i + chunk), (l) => got.push(l.text));
    s.end((l) => got.push(l.text));
    return { got, endings: s.endings, mixed: s.mixedEndings };
  };

  it("ends a line at a lone CR in a file of CR line endings", () => {
    for (const chunk of [1, 2, 3, 100]) {
      expect(split("ab\rcd\r\ref", chunk)).toEqual({ got: ["ab", "cd", "", "ef"], endings: "cr", mixed: 0 });
      // CRLF split across chunks stays one ending
      expect(split("ab\rcd\r\nef\n", chunk)).toEqual({ got: ["ab", "cd", "ef"], endings: "cr", mixed: 2 });
    }
    // a CRLF file stays an LF file; a lone CR inside one of its lines is counted
    expect(split("ab\r\ncd\r\n")).toEqual({ got: ["ab", "cd"], endings: "lf", mixed: 0 });
    expect(split("ab\ncd\re\n")).toEqual({ got: ["ab", "cd\re"], endings: "lf", mixed: 1 });
    // the first line's ending decides: a lone CR there makes a CR file, whose LFs are mixed endings
    expect(split("a\rb\ncd\n")).toEqual({ got: ["a", "b", "cd"], endings: "cr", mixed: 2 });
  });

  it("reads a CR-only log as its lines, and warns about a mixed one", async () => {
    const cr = [rec("a", "success"), rec("b", "failure"), rec("c", "success")].join("\r") + "\r";
    const dir = tempDir({ "cr.jsonl": cr, "mixed.json": `${rec("a", "success")}\r${rec("b", "failure")}\n${rec("c", "failure")}\r` });
    const r = await denom(["report", "--json", join(dir, "cr.jsonl")]);
    expect(r.json().accounting).toMatchObject({ lines: 3, records: 3, blank: 0, rejected: 0 });
    expect(r.json().rates[0]).toMatchObject({ successes: 2, count: 3 });
    expect(r.stderr).toBe("");
    // sniffed (a .json name): CR lines are JSONL lines too; one LF among them is a mixed ending
    const m = await denom(["report", "--json", join(dir, "mixed.json")]);
    expect(m.json().accounting).toMatchObject({ lines: 3, records: 3 });
    expect(m.stderr).toContain("mixed.json: mixed line endings: its lines end with a lone CR, but 1 end with LF or CRLF");
  });
});

describe("ids keep the text they were written with", () => {
  it("keeps integers beyond 2^53 apart, in JSONL and in a JSON document", async () => {
    // both parse to the double 12345678901234567000: as numbers they would be one task
    const jsonl = `{"task_id":12345678901234567890,"status":"success"}\n{"task_id":12345678901234567891,"status":"failure"}\n`;
    const doc = `[{"task_id":12345678901234567890,"status":"success"},{"task_id":12345678901234567891,"status":"failure"}]`;
    const dir = tempDir({ "ids.jsonl": jsonl, "ids.json": doc });
    for (const file of ["ids.jsonl", "ids.json"]) {
      const out = (await denom(["export", join(dir, file), "--out", join(dir, `${file}.json`), "--what", "trials"])).code;
      expect(out).toBe(0);
      const r = await denom(["report", "--json", join(dir, file)]);
      // two tasks, one success: 1/2, no duplicate
      expect(r.json().meta.tasks).toBe(2);
      expect(r.json().accounting.duplicates).toBe(0);
      expect(r.json().rates[0]).toMatchObject({ successes: 1, count: 2 });
    }
    const line = parseLine('{"task_id":12345678901234567891,"n":9007199254740993,"ok":1}');
    expect(line.kind).toBe("value");
    const v = (line as { value: Record<string, unknown> }).value;
    expect(String(v.task_id)).toBe("12345678901234567891");
    expect(String(v.n)).toBe("9007199254740993");
    expect(v.ok).toBe(1);
  });

  it("lists a key written twice in one object; the last value is read", async () => {
    expect(keyMarks('{"a":1,"b":{"a":"x\\":y"},"c" : [1]}')).toBe(4);
    // a string starting with a colon counts too (at least the keys written, never fewer):
    // 3 keys and the value ":" here, so 4 marks for 3 keys read
    const colon = '{"a" :1,"a" :2,"b":":"}';
    expect(keyMarks(colon)).toBe(4);
    expect(needsLiteralRead(JSON.parse(colon), colon)).toBe(true);
    expect(readLiterals(colon)!.duplicateKeys).toEqual(["a"]);
    // an escaped backslash before a key's closing quote: `"x\\\\"` is the key x\\, and its quote closes it
    expect(keyMarks('{"x\\\\":1,"y":"\\":"}')).toBe(2);
    const text = '{"task_id":"t","status":"failure","events":[{"n":1,"n":2}],"status":"success"}';
    expect(needsLiteralRead(JSON.parse(text), text)).toBe(true);
    expect(readLiterals(text)).toEqual({ value: JSON.parse(text), duplicateKeys: ["events[0].n", "status"] });
    const dir = tempDir({ "dup.jsonl": lines(text, rec("u", "failure")) });
    const r = await denom(["report", "--json", join(dir, "dup.jsonl")]);
    // t reads as success (last wins), u failure: 1/2
    expect(r.json().rates[0]).toMatchObject({ successes: 1, count: 2 });
    expect(r.stderr).toContain('dup.jsonl:1: key "events[0].n" is written twice in one object; the last value is read');
    expect(r.stderr).toContain('dup.jsonl:1: key "status" is written twice in one object; the last value is read');
  });
});

describe("inputs that are not logs", () => {
  it("names zip, bzip2, xz, zstd, UTF-16, UTF-32 and binary data by their first bytes", () => {
    expect(notALog(Buffer.from("PK\x03\x04....", "latin1"))).toBe("a zip archive, not a log: unzip it and name the files inside");
    expect(notALog(Buffer.from("BZh91AY&SY", "latin1"))).toMatch(/^bzip2-compressed data.*bunzip2 -c FILE \| denom report -$/);
    expect(notALog(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 4]))).toMatch(/^xz-compressed data/);
    expect(notALog(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]))).toMatch(/^zstd-compressed data/);
    const text = `${rec("a", "success")}\n`;
    expect(notALog(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]))).toBe(
      "UTF-16LE text; denom reads UTF-8: iconv -f UTF-16LE -t UTF-8 FILE > FILE.utf8.jsonl, then read that file",
    );
    expect(notALog(Buffer.from(text, "utf16le"))).toMatch(/^UTF-16LE text/); // no byte-order mark
    expect(notALog(Buffer.from(text, "utf16le").swap16())).toMatch(/^UTF-16BE text/);
    const wide = Buffer.alloc(text.length * 4);
    for (let i = 0; i < text.length; i++) wide.writeUInt32LE(text.charCodeAt(i), i * 4);
    expect(notALog(wide)).toMatch(/^UTF-32LE text; denom reads UTF-8: iconv -f UTF-32LE/);
    // 20 NUL bytes in 100: binary; 3 damaged bytes in a log: still read line by line
    expect(notALog(Buffer.concat([Buffer.alloc(20), Buffer.from("x".repeat(80))]))).toBe(
      "binary data (20 of its first 100 bytes are control bytes), not a text log",
    );
    expect(notALog(Buffer.from(`${text}\x00\x01\x02${text}`, "latin1"))).toBeNull();
    expect(notALog(Buffer.from(text))).toBeNull();
  });

  it("says what a text input with lines but no record looks like", () => {
    expect(looksLike(Buffer.from("task,status\na,success\n"))).toMatch(/^CSV \(comma-separated values\), not a log.*\(first line: "task,status"\)$/);
    expect(looksLike(Buffer.from("task\tstatus\na\tsuccess\n"))).toMatch(/^TSV \(tab-separated values\)/);
    expect(looksLike(Buffer.from("<html><body>\n"))).toMatch(/^HTML or XML/);
    expect(looksLike(Buffer.from("hello world\n"))).toBe('plain text, not a log (first line: "hello world")');
    expect(looksLike(Buffer.from("[1]\n"))).toBe('JSON that holds no record denom reads (first line: "[1]")');
  });

  it("exits 1 naming the input; an empty one stays exit 0 with its warning", async () => {
    const dir = tempDir({
      "runs.csv": "task,status\na,success\nb,failure\n",
      "notes.txt": "hello\nworld\n",
      "u16.jsonl": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines(rec("a", "success")), "utf16le")]),
      "empty.jsonl": "",
      "gz-csv.gz": gzipSync("task,status\na,success\n"),
    });
    const cases: [string, string][] = [
      ["runs.csv", "runs.csv: 3 lines but no record (1 rejected): it looks like CSV (comma-separated values), not a log"],
      ["notes.txt", 'notes.txt: 2 lines but no record (1 rejected): it looks like plain text, not a log (first line: "hello")'],
      ["u16.jsonl", "u16.jsonl: UTF-16LE text; denom reads UTF-8: iconv -f UTF-16LE -t UTF-8 FILE"],
      ["gz-csv.gz", "gz-csv.gz: 2 lines but no record (1 rejected): it looks like CSV"],
    ];
    for (const [file, message] of cases) {
      const r = await denom(["report", join(dir, file)]);
      expect([file, r.code]).toEqual([file, 1]);
      expect(r.stderr).toContain(`denom: ${join(dir, file)}`);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe("");
    }
    const empty = await denom(["report", join(dir, "empty.jsonl")]);
    expect(empty).toMatchObject({ code: 1, stdout: "", stderr: `denom: no record in ${join(dir, "empty.jsonl")} (empty): nothing to report\n` });
    // beside a log, a source with no record is a warning and the log is read
    const log = tempDir({ "a.jsonl": lines(rec("a", "success")), "b.json": "hello\n" });
    const mixed = await denom(["report", "--json", log]);
    expect(mixed.code).toBe(0);
    expect(mixed.stderr).toContain("b.json: 1 line but no record (1 rejected): it looks like plain text");
    expect(mixed.json().rates[0]).toMatchObject({ successes: 1, count: 1 });
  }, 300_000);

  it("refuses a forced --input-format that recognises none of the first records", async () => {
    // Inspect samples carry id, epoch, input and target; these canonical records carry none of them
    const dir = tempDir({ "runs.jsonl": lines(rec("a", "success"), rec("b", "failure")) });
    const r = await denom(["report", join(dir, "runs.jsonl"), "--input-format", "inspect"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "runs.jsonl: --input-format inspect maps none of its first 2 records (none is a record inspect reads; its first record has keys task_id, status)",
    );
    expect((await denom(["report", join(dir, "runs.jsonl"), "--input-format", "canonical"])).code).toBe(0);
  });
});

describe("differing duplicates from two sources, lookalike ids, pooling: never quiet", () => {
  it("names both sources and the count, opens the report with it, counts it, and --strict fails; identical copies stay quiet", async () => {
    // a.jsonl: t0..t2 all success; b.jsonl: t0, t1 failure (a day later: kept), t2 the same line as a's
    const t2 = rec("t2", "success", { ended_at: "2025-01-01T00:00:00Z" });
    const dir = tempDir({
      "a.jsonl": lines(rec("t0", "success", { ended_at: "2025-01-01T00:00:00Z" }), rec("t1", "success", { ended_at: "2025-01-01T00:00:00Z" }), t2),
      "b.jsonl": lines(rec("t0", "failure", { ended_at: "2025-01-02T00:00:00Z" }), rec("t1", "failure", { ended_at: "2025-01-02T00:00:00Z" }), t2),
    });
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    const r = await denom(["report", "--json", dir]);
    expect(r.code).toBe(0);
    const out = r.json();
    // 3 duplicates dropped: t0 and t1 of a (differing, from another source), t2 (identical)
    expect(out.accounting).toMatchObject({ duplicates: 3, duplicates_identical: 1, duplicates_differing: 2, duplicates_across_sources: 2, duplicate_keys: 0 });
    expect(out.meta.duplicate_sources).toEqual([{ kept_source: b, dropped_source: a, duplicates: 2 }]);
    const warning = `${b} and ${a} hold 2 differing copies of the same (run, task, trial, attempt), so they count as one run: the copies of ${b} are kept, those of ${a} dropped; if they are two runs, --run-per-file makes each file its own run`;
    expect(r.stderr).toBe(`denom: warning: ${warning}\n`);
    const text = await denom(["report", dir]);
    expect(text.stdout.startsWith(`! ${warning}\n`)).toBe(true);
    expect((await denom(["report", "--strict", dir])).code).toBe(1);
    expect((await denom(["audit", "--strict", "--claim", "1/3", dir])).code).toBe(1);
    // the same line in two files is no such duplicate
    const same = tempDir({ "a.jsonl": lines(t2), "b.jsonl": lines(t2) });
    const quiet = await denom(["report", "--json", "--strict", same]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.json().accounting).toMatchObject({ duplicates: 1, duplicates_identical: 1, duplicates_across_sources: 0 });
  }, 300_000);

  it("keeps ids that differ only by case or whitespace apart and says so", async () => {
    const dir = tempDir({ "ids.jsonl": lines(rec("Task-1", "success"), rec("task-1 ", "failure"), rec("task-1", "failure"), rec("x", "success")) });
    const r = await denom(["report", "--json", join(dir, "ids.jsonl")]);
    // four tasks: the three spellings of task-1 stay three
    expect(r.json().meta.tasks).toBe(4);
    expect(r.json().meta.id_lookalikes).toEqual([{ field: "task_id", folded: "task-1", variants: ["Task-1", "task-1", "task-1 "] }]);
    expect(r.stderr).toContain('1 set of task_id values differ only by case or surrounding whitespace and are kept apart: "Task-1" / "task-1" / "task-1 "');
  });

  it("warns when the inputs hold several agents or models, naming them, each group with its own figure", async () => {
    // 3 trials of agent A (model m), 2 of agent B (model m): two agents, one model
    const dir = tempDir({
      "runs.jsonl": lines(
        ...["t1", "t2", "t3"].map((t) => rec(t, "success", { run_id: "r1", agent: "A", model: "m" })),
        ...["t1", "t2"].map((t) => rec(t, "failure", { run_id: "r2", agent: "B", model: "m" })),
      ),
    });
    const r = await denom(["report", "--json", join(dir, "runs.jsonl")]);
    expect(r.json().meta.pooling).toEqual([
      {
        dimension: "agent",
        values: 2,
        split_by: "agent",
        groups: [
          { value: "A", trials: 3 },
          { value: "B", trials: 2 },
        ],
        within_groups: false,
      },
    ]);
    expect(r.stderr).toBe(
      "denom: warning: the inputs hold 2 agents (trials: A 3, B 2): each group has its own figure, none is quoted for all; --pool pools them\n",
    );
    // A's 3/3 and B's 0/2, each its own figure to quote
    expect(r.json().groups.map((g: any) => [g.value, g.rates.find((c: any) => c.basis === "final" && c.denominator === "total").successes])).toEqual([
      ["agent A", 3],
      ["agent B", 0],
    ]);
    // split that way already: no advice
    expect((await denom(["report", "--json", "--by", "agent", join(dir, "runs.jsonl")])).stderr).toBe("");
  });

  it("counts keys written twice in accounting", async () => {
    const dir = tempDir({ "dup.jsonl": lines('{"task_id":"t","status":"failure","status":"success"}', '{"task_id":"u","task_id":"v","status":"failure"}') });
    const out = (await denom(["report", "--json", join(dir, "dup.jsonl")])).json();
    // one repeat on each line: status on line 1, task_id on line 2 (v wins)
    expect(out.accounting.duplicate_keys).toBe(2);
    expect(out.meta.tasks).toBe(2);
    expect(out.rates[0]).toMatchObject({ successes: 1, count: 2 });
  });
});

describe("--run-per-file", () => {
  it("makes each file its own run; two agents without run_id are two runs anyway", async () => {
    // agent A: 82 of 100 tasks pass; agent B: none, ended a day later (one run, its copy would win as a duplicate)
    const a = Array.from({ length: 100 }, (_, i) => rec(`t${i}`, i < 82 ? "success" : "failure", { agent: "A", ended_at: "2025-01-01T00:01:00Z" }));
    const b = Array.from({ length: 100 }, (_, i) => rec(`t${i}`, "failure", { agent: "B", ended_at: "2025-01-02T00:01:00Z" }));
    const dir = tempDir({ "a.jsonl": lines(...a), "b.jsonl": lines(...b) });
    const finalTotal = (g: { rates: { basis: string; denominator: string; successes: number; count: number }[] }) => {
      const c = g.rates.find((r) => r.basis === "final" && r.denominator === "total");
      return [c?.successes, c?.count];
    };
    // a run is run_id + agent + model: A's and B's default runs never merge, so nothing is dropped
    const run = (await denom(["report", "--json", dir])).json();
    expect(run.accounting.duplicates).toBe(0);
    expect(run.meta.runs).toBe(2);
    expect(finalTotal(run)).toEqual([82, 200]);
    // the same agent in both files, no run_id: one run, B's later copies kept, said on stderr
    const same = tempDir({ "a.jsonl": lines(...a), "b.jsonl": lines(...b.map((l) => l.replace('"agent":"B"', '"agent":"A"'))) });
    const merged = await denom(["report", "--json", same]);
    expect(merged.stderr).toContain(`${join(same, "b.jsonl")} and ${join(same, "a.jsonl")} hold 100 differing copies of the same (run, task, trial, attempt)`);
    expect(merged.stderr).toContain("--run-per-file makes each file its own run");
    expect(merged.json().accounting.duplicates_differing).toBe(100);
    expect(finalTotal(merged.json())).toEqual([0, 100]);
    const split = await denom(["report", "--json", "--run-per-file", "--by", "run_id", same]);
    const out = split.json();
    // two runs of 100 trials: 82 + 0 successes, no duplicate
    expect(out.accounting.duplicates).toBe(0);
    expect(out.rates[0]).toMatchObject({ successes: 82, count: 200 });
    const groups = out.groups.map((g: { value: string; rates: { basis: string; denominator: string; successes: number; count: number }[] }) => [
      g.value,
      ...finalTotal(g),
    ]);
    expect(groups).toEqual([
      [join(same, "a.jsonl"), 82, 100],
      [join(same, "b.jsonl"), 0, 100],
    ]);
  });
});
