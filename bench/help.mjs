#!/usr/bin/env node
// --help for the bench scripts: each imports this file first; given --help or -h, it
// prints the comment block at the top of the script being run (its usage) and exits 0
// before the script reads or writes anything.
//   node bench/SCRIPT.mjs --help
import { readFileSync } from "node:fs";

if (process.argv.slice(2).some((a) => a === "--help" || a === "-h")) {
  const lines = readFileSync(process.argv[1], "utf8").split("\n");
  const usage = [];
  for (const line of lines.slice(lines[0].startsWith("#!") ? 1 : 0)) {
    if (!line.startsWith("//")) break;
    usage.push(line.replace(/^\/\/ ?/, ""));
  }
  process.stdout.write(`${usage.join("\n")}\n`);
  process.exit(0);
}
