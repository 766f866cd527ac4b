/**
 * The suite's global setup (vitest.config.ts): one temporary folder per test run,
 * made the system's temporary folder (TMPDIR) of everything the run starts (its
 * workers, the CLI processes the tests spawn, DuckDB's spill files), and removed
 * with everything in it when the run ends, so that a run leaves nothing behind in
 * the real temporary folder however a test made its own folders.
 *
 * The teardown also checks that promise: the real temporary folder must hold no
 * `denom-*` entry the run did not find there (a spawned process or a test that
 * wrote past TMPDIR): a new entry of denom's own (`denom-<pid>-<host>-*` of an
 * ended process, `denom-test-*`) fails the run, naming it; another `denom-*`
 * name is reported (programs beside the run may use the prefix). Other runs' suite
 * folders (`denom-suite-*`, a run beside this one) and the folders of denom
 * processes still running are not counted; a leaked folder of a process that
 * has ended is removed.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchPrefix, sweepStale } from "../src/scratch.js";

/** The name of a temporary entry of any denom process of this host (scratch.ts: denom-<pid>-<host>-...). */
const SCRATCH = new RegExp(`^${scratchPrefix(0).replace("-0-", "-\\d+-")}`);

/** True when `name` is a scratch entry (denom-<pid>-...) of a process that still runs. */
function ofLiveProcess(name: string): boolean {
  const pid = Number(/^denom-(\d+)-/.exec(name)?.[1] ?? Number.NaN);
  if (!Number.isInteger(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The `denom-*` entries of `dir` (the real temporary folder). */
export function denomEntries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.startsWith("denom-"));
  } catch {
    return [];
  }
}

/** Makes the run's folder and points TMPDIR at it; returns the teardown that removes it and checks nothing leaked. */
export default function setup(): () => void {
  // each vitest project runs the setup; the first one's folder serves them all
  if (process.env.DENOM_SUITE_TMPDIR) return () => {};
  const real = tmpdir();
  const before = new Set(denomEntries(real));
  const dir = mkdtempSync(join(real, "denom-suite-"));
  process.env.DENOM_SUITE_TMPDIR = dir;
  process.env.TMPDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env.DENOM_SUITE_TMPDIR;
    process.env.TMPDIR = real;
    const fresh = denomEntries(real).filter((n) => !before.has(n) && !n.startsWith("denom-suite-") && !ofLiveProcess(n));
    // denom's own temporary entries (denom-<pid>-<host>-, their process ended) and the tests' folders fail the
    // run; another denom-* name is reported only (other programs on the machine may use the prefix)
    const leaked = fresh.filter((n) => SCRATCH.test(n) || n.startsWith("denom-test-"));
    const other = fresh.filter((n) => !leaked.includes(n));
    if (other.length) console.warn(`new entries in ${real} during the test run, not denom's own: ${other.join(", ")}`);
    sweepStale(real);
    if (!leaked.length) return;
    // a teardown's throw is only logged by vitest: the exit code says it too
    process.exitCode = 1;
    throw new Error(
      `the test run left ${leaked.length} entr${leaked.length === 1 ? "y" : "ies"} in ${real}: ${leaked.join(", ")} (a test or a spawned denom wrote past TMPDIR; the folders of ended denom processes are removed)`,
    );
  };
}
