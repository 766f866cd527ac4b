#!/usr/bin/env node
// The executable: hands argv and the process's streams to main and sets the exit code.
import { main } from "./cli.js";
import { ExitCode } from "./errors.js";

// Ctrl-C ends the run at once with 130 (interrupted): nothing is written to a --db file
// outside its transaction, and an in-memory database has nothing to keep. This file is
// the one place that ends the process.
process.once("SIGINT", () => {
  process.stderr.write("\ndenom: interrupted\n");
  process.exit(ExitCode.interrupted);
});

// A reader that stops early (`denom report ... | head`) closes the pipe: stop quietly, as
// other command-line tools do, instead of failing on the write.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? ExitCode.ok);
    throw e;
  });
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
