/**
 * Issue 35, raw escapes: CSV, TSV and JSON written to a terminal by `export`
 * and `query --format csv` show their control characters escaped (a value
 * cannot clear the screen or set the clipboard with OSC 52); to a pipe or a
 * file the bytes stay exact.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { main } from "../src/cli.js";
import { terminalData } from "../src/render/terminal.js";
import { denom, jsonl, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 120_000 });

/** a task id that clears the screen, sets the clipboard (OSC 52), then a C1 CSI and a right-to-left override */
const TASK = "t\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b\u202ex";
/** as CSV and TSV show it on a terminal */
const TASK_SHOWN = "t\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07\\x9b\\u202ex";
/** Any control character but tab, newline and a CRLF's CR (what a terminal would act on). */
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

/** `denom ...args` with stdout a terminal (`tty`) or a pipe. */
async function run(args: string[], tty: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (s: string | Uint8Array) => (stdout += s), isTTY: tty },
    stderr: { write: (s: string | Uint8Array) => (stderr += s), isTTY: false },
    stdin: Readable.from([Buffer.from("")]),
    env: { NO_COLOR: "1" },
  });
  return { code, stdout, stderr };
}

describe("terminalData", () => {
  it("escapes every control but tab and newline: as \\x.. in CSV, as \\u.... in JSON", () => {
    expect(terminalData("a\tb\nc\u001b[2J\u009b\u202e\r", false)).toBe("a\tb\nc\\x1b[2J\\x9b\\u202e\\r");
    expect(terminalData("a\tb\nc\u001b[2J\u009b\u202e\r", true)).toBe("a\tb\nc\\u001b[2J\\u009b\\u202e\\u000d");
    expect(terminalData('plain,"csv"\r\n', false)).toBe('plain,"csv"\r\n');
  });
});

describe("a hostile task id in CSV, TSV and JSON", () => {
  const input = jsonl({ task_id: TASK, status: "success" });

  it("export: escaped on a terminal, exact to a pipe and to a file", async () => {
    const dir = tempDir({ "run.jsonl": input });
    const file = join(dir, "run.jsonl");
    for (const format of ["csv", "tsv"]) {
      const tty = await run(["export", file, "--what", "trials", "--format", format], true);
      expect(tty.code, format).toBe(0);
      expect(RAW.test(tty.stdout), format).toBe(false);
      // the second line is the trial's row; its task_id column is the second
      expect(tty.stdout.split("\n")[1].split(format === "csv" ? "," : "\t")[1], format).toBe(TASK_SHOWN);
      const pipe = await run(["export", file, "--what", "trials", "--format", format], false);
      expect(pipe.stdout.split("\n")[1].split(format === "csv" ? "," : "\t")[1], format).toBe(TASK);
    }
    for (const format of ["json", "jsonl"]) {
      const tty = await run(["export", file, "--what", "trials", "--format", format], true);
      expect(RAW.test(tty.stdout), format).toBe(false);
      // JSON escapes: the same value once parsed
      const row = format === "json" ? JSON.parse(tty.stdout)[0] : JSON.parse(tty.stdout.split("\n")[0]);
      expect(row.task_id, format).toBe(TASK);
      const pipe = await run(["export", file, "--what", "trials", "--format", format], false);
      expect(pipe.stdout, format).toContain("\u009b\u202e"); // DuckDB writes these two raw
    }
    // -o FILE with stdout a terminal: the file holds the exact text
    const csv = join(dir, "trials.csv");
    expect((await run(["export", file, "--what", "trials", "-o", csv], true)).code).toBe(0);
    expect(readFileSync(csv, "utf8").split("\n")[1].split(",")[1]).toBe(TASK);
  });

  it("query --format csv and --json: escaped on a terminal, exact to a pipe", async () => {
    const dir = tempDir({ "run.jsonl": input });
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", join(dir, "run.jsonl"), "--db", db])).code).toBe(0);
    const sql = "SELECT task_id FROM trials";
    const tty = await run(["query", "--db", db, "--format", "csv", sql], true);
    expect(tty.code).toBe(0);
    // RFC 4180 line ends, CRLF, stay
    expect(tty.stdout).toBe(`task_id\r\n${TASK_SHOWN}\r\n`);
    expect((await run(["query", "--db", db, "--csv", sql], false)).stdout).toBe(`task_id\r\n${TASK}\r\n`);
    const json = await run(["query", "--db", db, "--json", sql], true);
    expect(RAW.test(json.stdout)).toBe(false);
    expect(JSON.parse(json.stdout)).toEqual([{ task_id: TASK }]);
  });
});
