#!/usr/bin/env node
// The floor a denom command is measured against (bench/report-speed.mjs): Node
// starting, a DuckDB instance, read_json of the same input and a count; nothing
// of denom. Prints the count.
//   node bench/floor.mjs FILE
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { DuckDBInstance } from "@duckdb/node-api";

const instance = await DuckDBInstance.create(":memory:");
const connection = await instance.connect();
const reader = await connection.runAndReadAll("SELECT count(*) AS n FROM read_json($file)", { file: process.argv[2] });
console.log(String(reader.getRowObjects()[0].n));
connection.closeSync();
instance.closeSync();
