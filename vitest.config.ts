import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Two projects (issue 19, docs/development.md "Test suite time"):
 *   shared    every test file but the ones below, without per-file isolation: the
 *             files of one worker share the module cache, so DuckDB's bindings,
 *             the query catalog and denom's modules are loaded once per worker
 *             instead of once per file (about 0.3 s of CPU a file)
 *   isolated  the files that mock a module (vi.mock) or change a setting of the whole process
 *             (scratch.ts leaveTeardownToProcessEnd), which need a module graph of their own
 * One worker per core (vitest's default keeps one core free: a single worker on the
 * two-core machines we run on); a test's own DuckDB runs one thread for small inputs.
 */
const ISOLATED = ["test/prehash.test.ts", "test/teardown.test.ts"];

export default defineConfig({
  test: {
    // every temporary folder of the run inside one, removed at its end (test/temp-folder.ts)
    globalSetup: ["test/temp-folder.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { TZ: "UTC", NO_COLOR: "1" },
    pool: "forks",
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED, isolate: true } },
    ],
  },
});
