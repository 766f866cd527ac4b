/**
 * Helpers of the tests that spawn dist/bin.js with TMPDIR pointed at a fresh
 * folder and look at that folder while and after the process runs
 * (test/left-behind.test.ts, test/left-behind-ends.test.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { evalArchive, evalSpec, sample } from "./eval-archives.js";
import { ROOT } from "./helpers.js";

export const BIN = join(ROOT, "dist", "bin.js");

/** Spawns denom with TMPDIR = `tmp` (stdin a pipe the test holds). */
export function start(args: string[], tmp: string): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: tmp, NO_COLOR: "1" } });
}

/** Waits until the child ends; its exit code (128 + n when a signal's handler set it), stderr and how long it took after `from`. */
export function ended(child: ChildProcess): Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }> {
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (c) => (stderr += c));
  child.stdout!.on("data", (c) => (stdout += c));
  return new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stderr, stdout })));
}

/** Polls until `tmp` holds an entry whose name starts with `prefix` (denom made its temporary folder). */
export async function appears(tmp: string, prefix: RegExp): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (readdirSync(tmp).some((n) => prefix.test(n))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${prefix} in ${tmp}: ${readdirSync(tmp).join(", ")}`);
}

export const rec = (id: string) => `${JSON.stringify({ task_id: id, status: "success" })}\n`;

/** An .eval archive of `n` samples (each with a `note` of 4,000 x's, or what `note` gives), as Inspect writes one. */
export async function evalBytes(n: number, note: (i: number) => string = () => "x".repeat(4000)): Promise<Buffer> {
  const ids = Array.from({ length: n }, (_, i) => `s${i}`);
  const spec = evalSpec({ eval_id: "e1", run_id: "r1", task: "t", model: "m", ids });
  return evalArchive([
    { name: "header.json", content: { version: 2, status: "success", eval: spec } },
    ...ids.map((id) => ({ name: `samples/${id}_epoch_1.json`, content: sample(id, 1, "C", { note: note(Number(id.slice(1))) }) })),
  ]);
}

/** Runs a command to its end without blocking the test worker (spawnSync would hold the tests that run beside it): its exit code, stdout and stderr. */
export function run(
  command: string,
  args: string[],
  options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: options.env ?? process.env });
  const end = ended(child);
  child.stdin!.on("error", () => {}); // a process that ends before reading all its input
  child.stdin!.end(options.input ?? "");
  return end.then((r) => ({ status: r.code, stdout: r.stdout, stderr: r.stderr }));
}
