/**
 * Nothing left behind: every temporary file and folder denom makes (scratch.ts's
 * one registry) is gone after a normal end, an error, SIGINT, SIGTERM, SIGHUP
 * and a reader that closes the pipe early; a signal stops a statement running in
 * DuckDB at once; a full temporary folder is one clean line naming it and the
 * way out. Each case spawns dist/bin.js with TMPDIR pointed at a fresh, empty
 * folder and asserts that folder is empty when the process has ended.
 */
import { readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { appears, ended, evalBytes, rec, start } from "./spawned.js";

const SIGNALS = [
  ["SIGINT", 130, "interrupted"],
  ["SIGTERM", 143, "terminated"],
  ["SIGHUP", 129, "hung up"],
] as const;

describe("a signal removes every temporary file and ends with 128 + its number", () => {
  for (const [signal, code, word] of SIGNALS) {
    it.concurrent(`${signal} while JSONL is read from stdin held open: exit ${code}, the temporary folder empty`, async () => {
      const tmp = tempDir();
      const child = start(["report", "-"], tmp);
      const end = ended(child);
      child.stdin!.write(rec("a"));
      await appears(tmp, /^denom-/);
      child.kill(signal);
      const r = await end;
      expect([r.code, r.stderr]).toEqual([code, `\ndenom: ${word}; temporary files removed\n`]);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }

  for (const [what, gz] of [
    [".eval from stdin", false],
    [".eval.gz from stdin", true],
  ] as const) {
    it.concurrent(`SIGINT while an ${what} is spooled (stdin held open): its zip copy is removed too`, async () => {
      const tmp = tempDir();
      const whole = await evalBytes(40);
      // the first half of the archive, then stdin stays open: denom is copying it to a temporary zip
      const half = gz ? gzipSync(whole).subarray(0, 20_000) : whole.subarray(0, Math.floor(whole.length / 2));
      const child = start(["report", "-"], tmp);
      const end = ended(child);
      child.stdin!.write(half);
      await appears(tmp, /zip-/);
      child.kill("SIGINT");
      const r = await end;
      expect([r.code, r.stderr]).toEqual([130, "\ndenom: interrupted; temporary files removed\n"]);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }
});
