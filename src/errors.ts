/**
 * Typed errors and the fixed exit codes. Only `main` in cli.ts turns these into
 * a process exit code; nothing else calls `process.exit`.
 */

/** Exit codes of every denom command (docs/commands.md, STYLE convention 2). */
export const ExitCode = {
  ok: 0,
  /** data or runtime error, or any reject under `--strict` */
  data: 1,
  /** bad flags or arguments */
  usage: 2,
  /** `denom audit`: the claim was not reproduced */
  notReproduced: 3,
  /** `denom gate`: a condition failed; `denom compare --fail-if-worse`: the candidate is worse there */
  gateFailed: 4,
  /** ended by SIGHUP (128 + 1) */
  hangup: 129,
  /** ended by SIGINT, Ctrl-C (128 + 2) */
  interrupted: 130,
  /** ended by SIGTERM (128 + 15) */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error meant for the user: one line saying where, what, and what fixes it. */
export class DenomError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.data,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A flag or argument is wrong (exit 2). The message names the flag that fixes it. */
export class UsageError extends DenomError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** The input cannot be read or makes no sense (exit 1). */
export class DataError extends DenomError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.data, options);
  }
}

/**
 * The inputs yielded no record (exit 1): an empty file or stdin, only blank
 * lines, every line rejected, a folder of files no format reads. Nothing to
 * report is never a success; a gate turns it into its own failure (exit 4).
 */
export class NoRecordError extends DataError {}

/** The first line of a DuckDB error (the "LINE 1: ... ^" pointer block below it dropped). */
export function duckdbMessage(e: unknown): string {
  return String((e as Error)?.message ?? e)
    .split("\n")[0]
    .trim();
}
