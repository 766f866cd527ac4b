#!/usr/bin/env node
// The executable: hands argv and the process's streams to main and sets the exit code.
import { main } from "./cli.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
