/**
 * One meaning per flag: --format names the output on every command
 * and --input-format the input; --json, -o/--out (- = stdout), --quiet,
 * --no-color / NO_COLOR / TERM=dumb; a hint when - reads from a terminal; the
 * progress line cleared before a warning; thousands separators; the strict
 * figure marked as the one to quote.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { Notices } from "../src/io.js";
import { count } from "../src/number-format.js";
import { ROOT, denom, jsonl, tempDir } from "./helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");
const BOLD = "\u001b[1m";

/** Two tasks: a passes, b fails; 1 success of 2 trials on every denominator. */
const TWO = jsonl({ task_id: "a", status: "success" }, { task_id: "b", status: "failure" });

/** Runs denom with terminals as asked: `tty` makes stdout and stderr TTYs, `stdinTty` stdin. */
async function run(args: string[], opts: { env?: Record<string, string>; tty?: boolean; stdinTty?: boolean; stdin?: string } = {}) {
  let stdout = "";
  let stderr = "";
  const stdin = Readable.from([Buffer.from(opts.stdin ?? "")]) as Readable & { isTTY?: boolean };
  if (opts.stdinTty) stdin.isTTY = true;
  const code = await main(args, {
    stdout: { write: (s) => (stdout += s), isTTY: opts.tty ?? false },
    stderr: { write: (s) => (stderr += s), isTTY: opts.tty ?? false },
    stdin,
    env: opts.env ?? {},
  });
  return { code, stdout, stderr };
}

describe("--format names the output, --input-format the input", () => {
  it("prints JSON with --format json or --json on every command that reads runs", async () => {
    const dir = tempDir({ "two.jsonl": TWO });
    const input = join(dir, "two.jsonl");
    for (const flag of [["--format", "json"], ["--json"]]) {
      // no timeout among a and b: an empty array
      expect((await denom(["timeouts", input, ...flag])).json()).toEqual([]);
      // strict figure 1/2 = 0.5: the claim 50% is reproduced
      expect((await denom(["audit", input, "--claim", "50%", ...flag])).json()).toMatchObject({
        claim: "50%",
        reproduced: true,
        strict: { successes: 1, count: 2, rate: 0.5 },
      });
      expect((await denom(["formats", ...flag])).json().formats.map((f: { name: string }) => f.name)).toContain("canonical");
      // export's rows: the two trials, a then b
      const rows = (await denom(["export", input, ...flag])).json();
      expect(rows.map((r: { task_id: string; final_status: string }) => [r.task_id, r.final_status])).toEqual([
        ["a", "success"],
        ["b", "failure"],
      ]);
    }
  });

  it("still reads --format NAME of an input format as --input-format, with a warning; anything else is a usage error naming --input-format", async () => {
    const dir = tempDir({ "two.jsonl": TWO });
    const ok = await denom(["report", join(dir, "two.jsonl"), "--format", "canonical"]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe(
      "denom: warning: --format canonical names an input format: read as --input-format canonical (--format names the output: table, json, md, html)\n",
    );
    const bad = await denom(["timeouts", join(dir, "two.jsonl"), "--format", "xml"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--format xml: no such output; use one of table, json, md (the input's format is --input-format NAME");
    const two = await denom(["report", join(dir, "two.jsonl"), "--json", "--format", "md"]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("--json and --format md ask for two outputs");
  });

  it("writes the output to -o FILE (nothing on stdout) and to stdout for -o -", async () => {
    const dir = tempDir({ "two.jsonl": TWO });
    const file = join(dir, "report.json");
    const toFile = await denom(["report", join(dir, "two.jsonl"), "--json", "-o", file]);
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe("");
    expect(JSON.parse(readFileSync(file, "utf8")).rates[4]).toMatchObject({ basis: "final", denominator: "total", successes: 1, count: 2 });
    const toStdout = await denom(["report", join(dir, "two.jsonl"), "--json", "--out", "-"]);
    expect(toStdout.json().rates[4].successes).toBe(1);
    const self = await denom(["report", join(dir, "two.jsonl"), "-o", join(dir, "two.jsonl")]);
    expect(self.code).toBe(2);
    const csv = await denom(["export", join(dir, "two.jsonl"), "--what", "rates", "-o", "-"]);
    // the grid as CSV on stdout, header first: 8 cells
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^basis,denominator,/);
    expect(csv.stdout.trim().split("\r\n")).toHaveLength(9);
  });
});

describe("colour and stderr", () => {
  it("uses bold only on a TTY, never with NO_COLOR, TERM=dumb, --no-color or -o FILE", async () => {
    const dir = tempDir({ "two.jsonl": TWO });
    const input = join(dir, "two.jsonl");
    expect((await run(["report", input], { tty: true })).stdout).toContain(BOLD);
    expect((await run(["report", input], { tty: true, env: { NO_COLOR: "1" } })).stdout).not.toContain("\u001b[");
    expect((await run(["report", input], { tty: true, env: { TERM: "dumb" } })).stdout).not.toContain("\u001b[");
    expect((await run(["report", input, "--no-color"], { tty: true })).stdout).not.toContain("\u001b[");
    const file = join(dir, "out.txt");
    await run(["report", input, "-o", file], { tty: true });
    expect(readFileSync(file, "utf8")).not.toContain("\u001b[");
  });

  it("--quiet drops warnings and rejected lines from stderr but keeps --strict's error", async () => {
    const dir = tempDir({ "bad.jsonl": `${TWO}not json\n` });
    const loud = await denom(["report", join(dir, "bad.jsonl"), "--strict"]);
    expect(loud.stderr).toContain("bad.jsonl:3: invalid JSON");
    const quiet = await denom(["report", join(dir, "bad.jsonl"), "--strict", "--quiet"]);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toBe("denom: 1 line rejected and --strict is set\n");
    // the output still counts the line: 3 lines = 2 records + 0 blank + 1 rejected
    expect(quiet.stdout).toContain("lines: 3 = 2 records + 0 blank + 1 rejected");
  });

  it("export -q writes the file and prints nothing, on stdout either", async () => {
    const dir = tempDir({ "two.jsonl": TWO });
    const file = join(dir, "trials.csv");
    const loud = await denom(["export", join(dir, "two.jsonl"), "-o", file]);
    // two trials, a and b: two rows
    expect(loud.stdout).toMatch(/^wrote 2 rows of trials to .*trials\.csv \(csv, \d+ columns\); meta block in .*trials\.csv\.meta\.json\n$/);
    const quiet = await denom(["export", join(dir, "two.jsonl"), "-o", file, "-q"]);
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, "", ""]);
    // header + the two trials
    expect(readFileSync(file, "utf8").trim().split(/\r?\n/)).toHaveLength(3);
  });

  it("export refuses --format that the file's name contradicts, and takes a name no format has", async () => {
    const dir = tempDir({ "two.jsonl": TWO });
    const bad = await denom(["export", join(dir, "two.jsonl"), "--format", "csv", "-o", join(dir, "x.json")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("x.json: the file's name says json; name it for csv, or leave --format out");
    expect(existsSync(join(dir, "x.json"))).toBe(false);
    const txt = await denom(["export", join(dir, "two.jsonl"), "--format", "csv", "-o", join(dir, "x.txt"), "-q"]);
    expect(txt.code).toBe(0);
    // CSV (CRLF rows, as DuckDB writes them): a header of column names, then the two trials
    const lines = readFileSync(join(dir, "x.txt"), "utf8").trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^[a-z_]+(,[a-z_0-9]+)+$/);
    expect(lines).toHaveLength(3);
  });

  it("says how to end stdin when - reads from a terminal", async () => {
    const r = await run(["report", "-", "--json"], { stdinTty: true, stdin: TWO });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^denom: reading records from stdin, which is a terminal: paste them and end with Ctrl-D/);
    expect((await run(["report", "-", "--json"], { stdin: TWO })).stderr).toBe("");
  });

  it("clears the progress line before anything else reaches stderr", () => {
    let err = "";
    const notices = new Notices({ write: (s) => (err += s) }, false);
    notices.statusLine("reading 12 MB");
    notices.print("denom: x:3: invalid JSON\n");
    notices.print("denom: warning: y\n");
    notices.clearLine(); // nothing on the screen any more: writes nothing
    expect(err).toBe("\rreading 12 MB\u001b[K\r\u001b[Kdenom: x:3: invalid JSON\ndenom: warning: y\n");
  });
});

describe("the text report", () => {
  it("marks the strict figure as the one to quote", async () => {
    const r = await denom(["report", SEED]);
    // seed-100: 82 of 100 trials pass on their final attempt
    expect(r.stdout).toMatch(/\n {2}total +70\/100 +70\.0% +\[60\.4, 78\.1\] +82\/100 +82\.0% +\[73\.3, 88\.3\] \*\n/);
    expect(r.stdout).toContain("\n  * the figure to quote: 82/100 = 82.0% (final/total: every trial counted)\n");
  });

  it("prints counts with thousands separators", async () => {
    expect([count(0), count(999), count(1000), count(1234567), count(2.5)]).toEqual(["0", "999", "1,000", "1,234,567", "2.5"]);
    // 1,200 tasks, one trial each; the first 1,000 pass
    const records = Array.from({ length: 1200 }, (_, i) => ({ task_id: `t${i}`, status: i < 1000 ? "success" : "failure" }));
    const dir = tempDir({ "big.jsonl": jsonl(...records) });
    const r = await denom(["report", join(dir, "big.jsonl")]);
    expect(r.stdout).toContain("1,200 tasks, 1,200 trials, 1,200 attempts");
    expect(r.stdout).toContain("lines: 1,200 = 1,200 records + 0 blank + 0 rejected");
    expect(r.stdout).toContain("* the figure to quote: 1,000/1,200 = 83.3%");
    expect(r.stdout).toMatch(/\n {2}success +1,000 +1,000\n/);
  });
});
