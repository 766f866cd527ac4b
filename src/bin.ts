#!/usr/bin/env node
// The executable: hands argv and the process's streams to main and sets the exit code.
import { ExitCode } from "./errors.js";
import { leaveTeardownToProcessEnd, removeAllScratch, stopAll } from "./scratch.js";

// `denom report INPUT...` loads DuckDB before the rest of denom and starts its in-memory
// database and the schema's tables, which DuckDB makes on a thread of its own while the
// commands load (about 15 ms off every report: docs/benchmarks.md). Not for
// --help (it never loads DuckDB), --db (a kept file) or stdin (a temporary file).
const argv = process.argv.slice(2);
// the process ends with its command: DuckDB's in-memory instance is freed by that end,
// not destroyed on the way out (Database.close)
leaveTeardownToProcessEnd();
if (argv[0] === "report" && !argv.some((a) => a === "-" || a === "-h" || a === "--help" || a.startsWith("--db"))) {
  const [{ Database }, { createTables }] = await Promise.all([import("./db/database.js"), import("./db/schema.js")]);
  Database.openAhead((db) => createTables(db));
}
const { main } = await import("./cli.js");

// Nothing is left behind however the process ends (scratch.ts holds the one registry of
// temporary paths): on the `exit` event (a normal end, an error, a closed pipe below) the
// registry is emptied. Ctrl-C (SIGINT), SIGTERM and SIGHUP end the run at once with 128 +
// the signal's number (130, 143, 129): a statement running in DuckDB is interrupted first
// (else its threads keep the process alive), nothing is written to a --db file outside its
// transaction, and an in-memory database has nothing to keep. After a kill -9 the next
// denom removes what is left. This file is the one place that ends the process.
process.on("exit", removeAllScratch);
for (const [signal, code, word] of [
  ["SIGINT", ExitCode.interrupted, "interrupted"],
  ["SIGTERM", ExitCode.terminated, "terminated"],
  ["SIGHUP", ExitCode.hangup, "hung up"],
] as const) {
  process.once(signal, () => {
    stopAll();
    process.stderr.write(`\ndenom: ${word}; temporary files removed\n`);
    process.exit(code);
  });
}

// A reader that stops early (`denom report ... | head`) closes the pipe: stop quietly, as
// other command-line tools do, instead of failing on the write (the exit event removes the
// temporary files; a running statement is interrupted first).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") {
      stopAll();
      process.exit(process.exitCode ?? ExitCode.ok);
    }
    throw e;
  });
}

process.exitCode = await main(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
