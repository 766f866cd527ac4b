#!/usr/bin/env node
// The executable: hands argv and the process's streams to main and sets the exit code.
import { main } from "./cli.js";
import { ExitCode } from "./errors.js";

// Ctrl-C ends the run at once with 130 (interrupted): nothing is written to a --db file
// outside its transaction, and an in-memory database has nothing to keep. This is the
// one place besides the exit code below that ends the process.
process.once("SIGINT", () => {
  process.stderr.write("\ndenom: interrupted\n");
  process.exit(ExitCode.interrupted);
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
