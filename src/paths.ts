/**
 * Where denom's files are, from this module's own place: src/ (vitest), dist/ (tsc's
 * output) or a chunk of the bundle beside dist/bin.js (esbuild, package.json's build).
 * All three sit one folder below the package root, so every path is taken from here,
 * never from a module deeper down, whose place the bundle would not keep.
 */
import { fileURLToPath } from "node:url";

/** queries/ of the package root: the SQL every session runs (src/db/queries.ts) */
export const QUERIES_DIR = fileURLToPath(new URL("../queries/", import.meta.url));

/** the package's package.json (src/version.ts) */
export const PACKAGE_JSON = new URL("../package.json", import.meta.url);

/** @duckdb/node-api bundled into one file at build time (dist/vendor/; none beside src/) */
export const DUCKDB_BUNDLE = fileURLToPath(new URL("./vendor/duckdb-node-api.cjs", import.meta.url));

/** the line worker's compiled file (dist/ingest/load/line-worker.js; none beside src/, under vitest) */
export const LINE_WORKER = new URL("./ingest/load/line-worker.js", import.meta.url);
