/**
 * Writing an output file whole or not at all: the bytes go to a
 * temporary file beside it, which is renamed onto it only once complete, so a
 * failed write (a full disk, Ctrl-C, a DuckDB error) never leaves a truncated
 * CSV or an empty Parquet file behind, and an older file of that name stays as
 * it was.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { DataError, duckdbMessage } from "./errors.js";
import { keepScratch, removeScratch, scratchBeside } from "./scratch.js";

/** A file written to its temporary path, waiting to be put in place by `commit`. */
export interface Staged<T> {
  target: string;
  temporary: string;
  result: T;
}

/**
 * Runs `write` on a temporary path beside `target` (scratchBeside, or the one
 * given) and returns it staged (not yet in place). Throws DataError naming `target` (never the temporary path)
 * and saying what was kept when the write fails; the temporary file is removed.
 */
export async function stage<T>(target: string, write: (temporary: string) => T | Promise<T>, temporary: string = scratchBeside(target)): Promise<Staged<T>> {
  try {
    return { target, temporary, result: await write(temporary) };
  } catch (e) {
    removeScratch(temporary);
    throw writeError(target, temporary, e);
  }
}

/**
 * Puts every staged file in place (renames, in order). When a rename fails,
 * the files already put in place by this call are removed too (a data file
 * without its meta file is a partial export) and the rest are dropped. Throws
 * DataError naming the file that could not be put in place.
 */
export function commit(files: readonly Staged<unknown>[]): void {
  for (const [i, f] of files.entries()) {
    try {
      renameSync(f.temporary, f.target);
      keepScratch(f.temporary);
    } catch (e) {
      for (const done of files.slice(0, i)) rmSync(done.target, { force: true });
      for (const rest of files.slice(i)) removeScratch(rest.temporary);
      throw writeError(f.target, f.temporary, e);
    }
  }
}

/** Removes staged files that will not be put in place. */
export function discard(files: readonly Staged<unknown>[]): void {
  for (const f of files) removeScratch(f.temporary);
}

/** One line: the file, why it could not be written, and what is on disk now. */
function writeError(target: string, temporary: string, e: unknown): DataError {
  const inner = (e as { cause?: unknown }).cause ?? e;
  const code = (inner as NodeJS.ErrnoException).code;
  let why = code === "ENOSPC" ? "no space left on device" : duckdbMessage(inner).replaceAll(temporary, target);
  if (/no space left on device/i.test(why)) why = "no space left on device";
  else if (code === "EACCES" || code === "EPERM") why = "permission denied";
  else if (code === "ENOENT") why = "its folder does not exist";
  const kept = existsSync(target) ? `${target} is left as it was` : "no file was written";
  return new DataError(`cannot write ${target}: ${why}; ${kept}`, { cause: e });
}
