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
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Colour is used only on a TTY and never when NO_COLOR is set (https://no-color.org). */
export function useColor(sink: TextSink, env: Io["env"]): boolean {
  return Boolean(sink.isTTY) && env.NO_COLOR === undefined;
}
