/**
 * Nothing left behind, the other ends than a signal while reading (those are
 * test/left-behind.test.ts's): a reader that closes the pipe early, a signal
 * during a slow statement in DuckDB, a full temporary folder. Each spawns
 * dist/bin.js with TMPDIR pointed at a fresh folder and asserts it empty after.
 */
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { appears, BIN, ended, evalBytes, rec, run, start } from "./spawned.js";

describe("the other ends: a closed pipe, a slow statement, a full temporary folder", () => {
  it.concurrent("`export ... -o - | head -1`: one line out, the temporary export folder removed", async () => {
    const tmp = tempDir();
    const input = join(tempDir(), "run.jsonl");
    // 2,000 attempts with a 200-character message: about 0.5 MB of CSV, far more than a pipe holds (64 KiB), so the write meets EPIPE
    writeFileSync(
      input,
      Array.from({ length: 2_000 }, (_, i) => JSON.stringify({ task_id: `t${i}`, status: "success", error_message: "x".repeat(200) })).join("\n"),
    );
    const r = await run("sh", ["-c", `"${process.execPath}" "${BIN}" export "$1" --what attempts --format csv -o - | head -1`, "sh", input], {
      env: { ...process.env, TMPDIR: tmp },
    });
    expect([r.status, r.stdout.split("\n").length, r.stderr]).toEqual([0, 2, ""]);
    expect(readdirSync(tmp)).toEqual([]);
  });
  it.concurrent("SIGINT one second into a slow `denom query`: exit 130 within 3 s, one line, nothing left", async () => {
    const tmp = tempDir();
    const db = join(tempDir(), "runs.duckdb");
    const ingest = await run(process.execPath, [BIN, "ingest", "-", "--db", db], { input: rec("a") + rec("b"), env: { ...process.env, TMPDIR: tmp } });
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
      const jsonl = await run(process.execPath, [BIN, "report", "-"], { input: lines, env: { ...process.env, TMPDIR: mnt } });
      expect([jsonl.status, jsonl.stderr]).toEqual([1, `denom: ${way}\n`]);
      expect(readdirSync(mnt)).toEqual([]);
      // an .eval from stdin: Node cannot write its spooled copy
      const zip = await run(process.execPath, [BIN, "report", "-"], {
        input: await evalBytes(200, () => randomBytes(1500).toString("base64")),
        env: { ...process.env, TMPDIR: mnt },
      });
      expect([zip.status, zip.stderr]).toEqual([1, `denom: ${way}\n`]);
      expect(readdirSync(mnt)).toEqual([]);
    } finally {
      spawnSync("umount", [mnt]);
    }
  });
});
