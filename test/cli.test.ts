/** The built executable: help, exit codes, and no stack traces without --debug. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/version.js";
import { ROOT, denomBin, tempDir } from "./helpers.js";

describe("dist/bin.js", () => {
  it("prints help with the commands and exits 0", () => {
    const r = denomBin(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: denom/);
    expect(r.stdout).toMatch(/report \[options\] \[inputs\.\.\.\]/);
  });

  it("shows examples in a command's help", () => {
    const r = denomBin(["report", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n {2}\$ denom report samples\/seed-100\.jsonl/);
  });

  it("runs the README's main job on the shipped sample", () => {
    const r = denomBin(["report", join(ROOT, "samples", "seed-100.jsonl")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/total\s+70\/100\s+70\.0%\s+\[[\d., ]+\]\s+82\/100\s+82\.0%/);
    expect(r.stderr).toBe("");
  });

  it("exits 1 with one line, no stack trace, on a missing input", () => {
    const missing = join(tempDir(), "no-such-file.jsonl");
    const r = denomBin(["report", missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`denom: cannot read ${missing}: no such file or folder\n`);
  });

  it("adds the stack trace with --debug", () => {
    const r = denomBin(["--debug", "report", join(tempDir(), "no-such-file.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^denom: cannot read .*no-such-file\.jsonl/);
    expect(r.stderr).toMatch(/\n\s+at /);
  });

  it("exits 2 on an unknown option", () => {
    const r = denomBin(["report", "--frobnicate", "x.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^denom: error: unknown option '--frobnicate'/);
  });

  it("reads stdin with -", () => {
    const r = denomBin(["report", "--json", "-"], '{"task_id":"a","status":"ok"}\n');
    expect(r.code).toBe(0);
    expect(r.json().rates[4]).toMatchObject({ basis: "final", denominator: "total", successes: 1, count: 1 });
  });

  it("exits 2 with help on stderr when no command is given", () => {
    const r = denomBin([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/Usage: denom/);
    expect(denomBin(["help", "report"]).code).toBe(0);
    expect(denomBin(["help", "frobnicate"]).code).toBe(2);
  });

  it("stops quietly when the reader closes the pipe early", () => {
    // `denom report ... | head -1`: the shell's pipe, so the write fails with EPIPE
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${join(ROOT, "dist", "bin.js")}" report "${join(ROOT, "samples", "seed-100.jsonl")}" | head -1`], {
      encoding: "utf8",
    });
    expect(r.stdout).toBe(`denom ${VERSION} · 100 tasks, 100 trials, 130 attempts\n`);
    expect(r.stderr).toBe("");
  });

  it("refuses stdin twice, and fails on stdin that yields no record: nothing to report is no success", () => {
    expect(denomBin(["report", "-", "-"], "").code).toBe(2);
    // two newlines: 2 lines, both blank, no record
    const blank = denomBin(["report", "-"], "\n\n");
    expect(blank).toMatchObject({ code: 1, stdout: "", stderr: "denom: no record in - (2 blank lines): nothing to report\n" });
    const empty = denomBin(["report", "--json", "-"], "");
    expect(empty).toMatchObject({ code: 1, stdout: "", stderr: "denom: no record in - (empty): nothing to report\n" });
  });

  it("will not take a file that is not a DuckDB database for --db", () => {
    const dir = tempDir({ "runs.jsonl": '{"task_id":"a","status":"ok"}\n' });
    const r = denomBin(["ingest", join(ROOT, "samples", "timeouts-mix.jsonl"), "--db", join(dir, "runs.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--db .*runs\.jsonl: not a DuckDB database file/);
  });
});
