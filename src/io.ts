import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Readable } from "node:stream";

/** Where a command's text goes. stdout carries results only; stderr progress and warnings. */
export interface Io {
  stdout: TextSink;
  stderr: TextSink;
  /** read by the `-` input */
  stdin: Readable;
  env: Record<string, string | undefined>;
  /** the clock for the progress line, in ms (Date.now when absent; tests pass their own) */
  now?: () => number;
}

export interface TextSink {
  /** text, or bytes (Parquet to stdout) */
  write(text: string | Uint8Array): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * True when `env` says the terminal shows no escape codes: `NO_COLOR` set to
 * anything but "" (https://no-color.org) or `TERM=dumb`.
 */
export function plainTerminal(env: Io["env"]): boolean {
  return (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";
}

/**
 * Colour (and bold) is used only on a TTY, never with NO_COLOR, TERM=dumb or
 * `--no-color` (`wanted` false).
 */
export function useColor(sink: TextSink, env: Io["env"], wanted = true): boolean {
  return wanted && Boolean(sink.isTTY) && !plainTerminal(env);
}

/**
 * Writes `text` to `path` through a temporary file beside it and a rename, so a
 * reader never sees half a file and a failed write leaves an existing file as it
 * was. Throws the fs error (the caller names the flag).
 */
export function writeFileAtomic(path: string, text: string | Buffer): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // nothing was left behind
    }
    throw e;
  }
}

/**
 * stderr for a command: warnings and rejected lines (dropped with `--quiet`),
 * and one status line (the progress line) that is cleared before anything else
 * is written, so a warning never runs into it.
 */
export class Notices {
  private lineShown = false;

  constructor(
    private readonly sink: TextSink,
    /** `--quiet`: no warnings, no rejected lines, no progress line (errors still go out) */
    readonly quiet: boolean,
  ) {}

  /** Writes a whole line (or lines) of text, after clearing the status line. */
  print(text: string): void {
    if (this.quiet) return;
    this.clearLine();
    this.sink.write(text);
  }

  /** Draws `text` as the one status line (a TTY only: \r and erase-to-end). */
  statusLine(text: string): void {
    if (this.quiet) return;
    this.sink.write(`\r${text}\u001b[K`);
    this.lineShown = true;
  }

  /** Removes the status line, if one is on the screen. */
  clearLine(): void {
    if (!this.lineShown) return;
    this.sink.write("\r\u001b[K");
    this.lineShown = false;
  }
}
