/**
 * Temporary files and folders of this process: the temporary
 * database and spill folder of a session, the CSV of `query --csv`, an export
 * being written, a zip spooled from stdin or a gzip, the rows of an export to
 * stdout, compare's Parquet files. Each is named `denom-<pid>-<host>-...` and
 * registered here (the one registry of them), so
 *  - `removeAllScratch` removes them before the process ends, however it ends:
 *    bin.ts calls it on the process's `exit` event (a normal end, an error, a
 *    closed pipe) and on SIGINT, SIGTERM and SIGHUP (`endNow`);
 *  - a later denom removes those of a process that died without cleaning up
 *    (kill -9, a crash, a power cut): `sweepStale`, run once per process before
 *    its first temporary folder is made, removes every `denom-<pid>-<host>-*`
 *    entry of this host, owned by this user, whose process no longer runs.
 */
import { createHash, randomBytes } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

const live = new Set<string>();

/** What must be stopped before the process can end: DuckDB connections running a statement. */
const stoppers = new Set<() => void>();

/** A short digest of the host name: a /tmp shared by containers never sweeps another host's folders. */
const HOST = createHash("sha256").update(hostname()).digest("hex").slice(0, 8);

/** The name prefix of the temporary entries of process `pid` on this host. */
export function scratchPrefix(pid: number = process.pid): string {
  return `denom-${pid}-${HOST}-`;
}

const STALE = new RegExp(`^denom-(\\d+)-${HOST}-`);

let swept = false;

/**
 * Creates a fresh folder under the OS temp folder, `denom-<pid>-<host>-<label>XXXXXX`,
 * registered for removal (see the module comment). Throws the file system's
 * error (ENOSPC, EACCES) when it cannot be made.
 */
export function makeScratch(label = ""): string {
  if (!swept) {
    swept = true;
    sweepStale();
  }
  const dir = mkdtempSync(join(tmpdir(), `${scratchPrefix()}${label}`));
  live.add(dir);
  return dir;
}

/**
 * A temporary path beside `target` (same folder, so a rename onto `target` is
 * atomic): `.<name>.denom-<pid>-<host>-<random>.tmp`, registered for removal.
 */
export function scratchBeside(target: string): string {
  const slash = target.lastIndexOf("/");
  const dir = slash < 0 ? "" : target.slice(0, slash + 1);
  const path = `${dir}.${target.slice(slash + 1)}.${scratchPrefix()}${randomBytes(4).toString("hex")}.tmp`;
  live.add(path);
  return path;
}

/** Removes a temporary entry (folder or file) and forgets it; missing is fine. */
export function removeScratch(path: string): void {
  live.delete(path);
  rmSync(path, { recursive: true, force: true });
}

/** Forgets a temporary path that was renamed into place (nothing left to remove). */
export function keepScratch(path: string): void {
  live.delete(path);
}

/** Removes every temporary entry this process still holds; synchronous, for signal handlers. Never throws. */
export function removeAllScratch(): void {
  for (const path of [...live]) {
    try {
      removeScratch(path);
    } catch {
      // the process is ending: what cannot be removed now is swept by the next denom
    }
  }
}

/**
 * Registers `stop` (a DuckDB connection's interrupt) to run before the process
 * ends on a signal: a statement still running in DuckDB's threads otherwise
 * keeps the process from exiting. Returns the function that unregisters it.
 */
export function onEnd(stop: () => void): () => void {
  stoppers.add(stop);
  return () => void stoppers.delete(stop);
}

let processEndsWithCommand = false;

/**
 * For the executable (bin.ts), whose process ends when its command does: an
 * in-memory DuckDB instance closed from now on is left for the process's end to
 * free (Database.close), not destroyed on the command's way out. Callers that go
 * on after a command (the tests, which run commands in-process) never call it.
 */
export function leaveTeardownToProcessEnd(): void {
  processEndsWithCommand = true;
}

/** True once leaveTeardownToProcessEnd was called. */
export function teardownLeftToProcessEnd(): boolean {
  return processEndsWithCommand;
}

/**
 * Stops what runs (every `onEnd` function: DuckDB statements interrupted) and
 * removes every temporary entry; for the signal handlers of bin.ts. Never throws.
 */
export function stopAll(): void {
  for (const stop of [...stoppers]) {
    try {
      stop();
    } catch {
      // a connection already closed has nothing to stop
    }
  }
  removeAllScratch();
}

/** True when a process with this id runs (or exists under another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary folders left in `dir` (the OS temp folder) by denom
 * processes of this host and user that no longer run; returns their paths.
 * Never throws: a folder that cannot be removed is left for the next run.
 */
export function sweepStale(dir: string = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const m = STALE.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || running(pid)) continue;
    const path = join(dir, name);
    try {
      if (uid !== undefined && lstatSync(path).uid !== uid) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another process may be removing it too
    }
  }
  return removed;
}
