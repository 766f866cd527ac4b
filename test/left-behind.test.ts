/**
 * Nothing left behind: every temporary file and folder denom makes (scratch.ts's
 * one registry) is gone after a normal end, an error, SIGINT, SIGTERM, SIGHUP
 * and a reader that closes the pipe early; a signal stops a statement running in
 * DuckDB at once; a full temporary folder is one clean line naming it and the
 * way out. Each case spawns dist/bin.js with TMPDIR pointed at a fresh, empty
 * folder and asserts that folder is empty when the process has ended.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { evalArchive, evalSpec, sample } from "./eval-archives.js";
import { ROOT, tempDir } from "./helpers.js";

const BIN = join(ROOT, "dist", "bin.js");

/** Spawns denom with TMPDIR = `tmp` (stdin a pipe the test holds). */
function start(args: string[], tmp: string): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: tmp, NO_COLOR: "1" } });
}

/** Waits until the child ends; its exit code (128 + n when a signal's handler set it), stderr and how long it took after `from`. */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }> {
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (c) => (stderr += c));
  child.stdout!.on("data", (c) => (stdout += c));
  return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stderr, stdout })));
}

/** Polls until `tmp` holds an entry whose name starts with `prefix` (denom made its temporary folder). */
async function appears(tmp: string, prefix: RegExp): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (readdirSync(tmp).some((n) => prefix.test(n))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${prefix} in ${tmp}: ${readdirSync(tmp).join(", ")}`);
}

const rec = (id: string) => `${JSON.stringify({ task_id: id, status: "success" })}\n`;

/** An .eval archive of `n` samples (each with a `note` of 4,000 x's, or what `note` gives), as Inspect writes one. */
async function evalBytes(n: number, note: (i: number) => string = () => "x".repeat(4000)): Promise<Buffer> {
  const ids = Array.from({ length: n }, (_, i) => `s${i}`);
  const spec = evalSpec({ eval_id: "e1", run_id: "r1", task: "t", model: "m", ids });
  return evalArchive([
    { name: "header.json", content: { version: 2, status: "success", eval: spec } },
    ...ids.map((id) => ({ name: `samples/${id}_epoch_1.json`, content: sample(id, 1, "C", { note: note(Number(id.slice(1))) }) })),
  ]);
}

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

describe("a reader that closes the pipe early", () => {
  it.concurrent("`export ... -o - | head -1`: one line out, the temporary export folder removed", async () => {
    const tmp = tempDir();
    const input = join(tempDir(), "run.jsonl");
    // 20,000 attempts of 250 bytes: 5 MB of CSV, far more than a pipe holds, so the write meets EPIPE
    writeFileSync(
      input,
      Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ task_id: `t${i}`, status: "success", error_message: "x".repeat(200) })).join("\n"),
    );
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${BIN}" export "$1" --what attempts --format csv -o - | head -1`, "sh", input], {
      encoding: "utf8",
      env: { ...process.env, TMPDIR: tmp },
    });
    expect([r.status, r.stdout.split("\n").length, r.stderr]).toEqual([0, 2, ""]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe("a signal stops a statement running in DuckDB", () => {
  it.concurrent("SIGINT one second into a slow `denom query`: exit 130 within 3 s, one line, nothing left", async () => {
    const tmp = tempDir();
    const db = join(tempDir(), "runs.duckdb");
    const ingest = spawnSync(process.execPath, [BIN, "ingest", "-", "--db", db], { input: rec("a") + rec("b"), env: { ...process.env, TMPDIR: tmp } });
    expect(ingest.status).toBe(0);
    // 10^13 pairs: hours of work, unless interrupted
    const child = start(["query", "--db", db, "SELECT count(*) FROM range(100000000) AS a, range(100000) AS b"], tmp);
    const end = ended(child);
    await appears(tmp, /^denom-/);
    await new Promise((r) => setTimeout(r, 1000));
    const sent = Date.now();
    child.kill("SIGINT");
    const r = await end;
    expect(Date.now() - sent).toBeLessThan(3000);
    expect([r.code, r.stderr, r.stdout]).toEqual([130, "\ndenom: interrupted; temporary files removed\n", ""]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe("a full temporary folder", () => {
  it.concurrent("is one line naming the folder and the way out (TMPDIR), exit 1, nothing left in it", async (ctx) => {
    const mnt = join(tempDir(), "full");
    mkdirSync(mnt);
    // a 256 KiB tmpfs stands for the full disk (needs root: skipped without)
    if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt]).status !== 0) {
      ctx.skip();
      return;
    }
    try {
      const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ task_id: `t${i}`, status: "success", error_message: "x".repeat(200) })).join(
        "\n",
      );
      const way = `no space left on device in the temporary folder ${mnt}: free space there, or point TMPDIR at a folder with room (TMPDIR=/path/with/room denom ...); the temporary files of this run are removed`;
      // JSONL from stdin: a temporary DuckDB file, which DuckDB cannot grow
      const jsonl = spawnSync(process.execPath, [BIN, "report", "-"], { input: lines, encoding: "utf8", env: { ...process.env, TMPDIR: mnt } });
      expect([jsonl.status, jsonl.stderr]).toEqual([1, `denom: ${way}\n`]);
      expect(readdirSync(mnt)).toEqual([]);
      // an .eval from stdin: Node cannot write its spooled copy
      const zip = spawnSync(process.execPath, [BIN, "report", "-"], {
        input: await evalBytes(200, () => randomBytes(1500).toString("base64")),
        encoding: "utf8",
        env: { ...process.env, TMPDIR: mnt },
      });
      expect([zip.status, zip.stderr]).toEqual([1, `denom: ${way}\n`]);
      expect(readdirSync(mnt)).toEqual([]);
    } finally {
      spawnSync("umount", [mnt]);
    }
  });
});
