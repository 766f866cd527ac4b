/**
 * The values of `@duckdb/node-api` denom uses, loaded with require() instead of
 * an ES import. The package is CommonJS: 120 files re-exported from one index.
 * An ES import makes Node lex every one of them for its named exports before
 * the first line runs (cjs-module-lexer): about 0.3 s of CPU per process, a
 * quarter of a small `denom report` (docs/benchmarks.md). require()
 * loads the same files without that pass. Types come from the package as usual
 * (`import type`); every value import of the package goes through this file.
 *
 * `npm run build` also bundles the package's files into one, dist/vendor/duckdb-node-api.cjs
 * (esbuild; its native bindings stay the package's own): finding, reading and
 * compiling some 190 files cost about 0.1 s of CPU more than one (docs/benchmarks.md).
 * That file is what dist/ loads; without it (the tests, over src/) the package.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type * as DuckDB from "@duckdb/node-api";
import type * as Bindings from "@duckdb/node-bindings";
import { DUCKDB_BUNDLE } from "../paths.js";

const require = createRequire(import.meta.url);
const api = require(existsSync(DUCKDB_BUNDLE) ? DUCKDB_BUNDLE : "@duckdb/node-api") as typeof DuckDB;

export const { DuckDBInstance, DuckDBDataChunk, DuckDBTypeId, JSDuckDBValueConverter, createDuckDBValueConverter } = api;
export type DuckDBInstance = DuckDB.DuckDBInstance;
export type DuckDBDataChunk = DuckDB.DuckDBDataChunk;
export type DuckDBTypeId = DuckDB.DuckDBTypeId;

/** The package's native bindings, for what node-api does slowly: ingest/load/loader.ts writes its data chunks' vectors with them. */
export const bindings = require("@duckdb/node-bindings") as typeof Bindings;
