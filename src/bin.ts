#!/usr/bin/env node
// The executable: hands argv and the process's streams to main and sets the exit code.
import { ExitCode } from "./errors.js";
import { removeAllScratch } from "./scratch.js";

// `denom report INPUT...` loads DuckDB before the rest of denom and starts its in-memory
// database and the schema's tables, which DuckDB makes on a thread of its own while the
// commands load (about 15 ms off every report: docs/benchmarks.md). Not for
// --help (it never loads DuckDB), --db (a kept file) or stdin (a temporary file).
const argv = process.argv.slice(2);
if (argv[0] === "report" && !argv.some((a) => a === "-" || a === "-h" || a === "--help" || a.startsWith("--db"))) {
  const [{ Database }, { createTables }] = await Promise.all([import("./db/database.js"), import("./db/schema.js")]);
  Database.openAhead((db) => createTables(db));
}
const { main } = await import("./cli.js");

// Ctrl-C (SIGINT) and SIGTERM end the run at once with 130 or 143: nothing is written to a
// --db file outside its transaction, and an in-memory database has nothing to keep. The
// temporary database, spill files and half-written exports are removed first (scratch.ts);
// after a kill -9 the next denom removes them. This file is the one place that ends the process.
for (const [signal, code] of [
  ["SIGINT", ExitCode.interrupted],
  ["SIGTERM", 143],
] as const) {
  process.once(signal, () => {
    removeAllScratch();
    process.stderr.write(`\ndenom: ${signal === "SIGINT" ? "interrupted" : "terminated"}; temporary files removed\n`);
    process.exit(code);
  });
}

// A reader that stops early (`denom report ... | head`) closes the pipe: stop quietly, as
// other command-line tools do, instead of failing on the write.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? ExitCode.ok);
    throw e;
  });
}

process.exitCode = await main(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
