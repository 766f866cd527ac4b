/**
 * Test helpers: run denom in-process (fast, exact exit codes), spawn the built
 * CLI (a few end-to-end tests), locate fixtures and the shared real records.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import tar from "tar-stream";
import { main } from "../src/cli.js";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, "..");
export const FIXTURES = join(here, "fixtures");
export const CASES = join(FIXTURES, "cases");
/** ../shared beside the checkout: present in CI, absent in a user's own clone. */
export const SHARED = resolve(ROOT, "..", "shared");
export const REAL = join(SHARED, "data", "real");
export const hasShared = existsSync(REAL);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON */
  json<T = any>(): T;
}

/** Runs `denom ...args` in this process; `stdin` feeds the `-` input. */
export async function denom(args: string[], stdin: string | Buffer = ""): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    stdin: Readable.from([Buffer.from(stdin)]),
    env: { NO_COLOR: "1" },
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/**
 * Runs `denom ...args` in this process with `cwd` as the working folder (relative
 * paths, and any file DuckDB would write relative to it, resolve there), restored
 * afterwards. Tests of one file run one after another, so nothing else sees the change.
 */
export async function denomIn(cwd: string, args: string[], stdin: string | Buffer = ""): Promise<CliResult> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await denom(args, stdin);
  } finally {
    process.chdir(before);
  }
}

/** Spawns the built CLI (dist/bin.js, built by `npm test`'s pretest), in `cwd` when given. */
export function denomBin(args: string[], input?: string | Buffer, cwd?: string): CliResult {
  const r = spawnSync(process.execPath, [join(ROOT, "dist", "bin.js"), ...args], {
    input,
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 28,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

/** Writes files into a fresh temporary folder and returns its path. */
export function tempDir(files: Record<string, string | Buffer> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "denom-test-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** A tar archive holding `files` (name -> content), built in memory. */
export async function tarOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** JSONL text from objects. */
export function jsonl(...records: object[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** A rate cell of a report's JSON output. */
export function cell(out: { rates: { basis: string; denominator: string; successes: number; count: number; rate: number | null }[] }, key: string) {
  const [basis, denominator] = key.split("/");
  const r = out.rates.find((x) => x.basis === basis && x.denominator === denominator);
  if (!r) throw new Error(`no rate cell ${key}`);
  return r;
}

/**
 * `make()` run on first use only, its promise shared by the later calls: one run of
 * denom whose output several read-only tests of a file check (each test still runs
 * alone: the first to ask runs it). Parse with `json()` per test: no test sees
 * another's changes to the parsed object.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
