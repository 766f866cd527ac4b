#!/usr/bin/env node
// Where a report's DuckDB statements spend their time: `denom report FILE` run in this
// process ROUNDS times (default 3), each statement that denom sends timed on the
// connection it ran on (Database.run, all and each, wrapped here; DuckDB's time and the
// wait for the main thread to take its result). Per run: the relations and SELECTs of
// queries/, their total time on all connections, each connection's busy time, the window
// from the first of them to the last statement, and the longest chain of them by the `Reads:`
// lines of queries/ (how long the relations would take with a connection per
// statement). After the runs, the costliest statements of the last one. The first run
// is cold (DuckDB's and the JIT's first use of everything), the others warm: a CLI run
// is always cold. Not part of npm test. Run from the project's root after `npm run build`:
//   node bench/statements.mjs FILE [ROUNDS] [--top N]
// FILE: any input `denom report` reads (e.g. samples/seed-100.jsonl).
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
const [file, rounds = "3"] = args;
if (!file) {
  process.stderr.write("usage: node bench/statements.mjs FILE [ROUNDS] [--top N] (--help for more)\n");
  process.exit(2);
}

const { Database } = await import(join(root, "dist", "db", "database.js"));
const { queryCatalog } = await import(join(root, "dist", "db", "queries.js"));
const { main } = await import(join(root, "dist", "cli.js"));

/** Each statement of the current run: the connection's number, its start and duration (ms), its relation's or SELECT's name. */
let log = [];
const connections = new WeakMap();
let connectionsSeen = 0;
const connectionOf = (db) => {
  if (!connections.has(db.connection)) connections.set(db.connection, ++connectionsSeen);
  return connections.get(db.connection);
};
// the first `-- name:` line of a statement from queries/, else its first words
const nameOf = (sql) => /^-- (\w+):/.exec(sql)?.[1] ?? sql.replace(/\s+/g, " ").slice(0, 40);
for (const method of ["run", "all", "each"]) {
  const original = Database.prototype[method];
  Database.prototype[method] = async function (sql, ...rest) {
    const start = performance.now();
    try {
      return await original.call(this, sql, ...rest);
    } finally {
      const fromQueries = /^-- \w+:/.test(sql);
      const kind = !fromQueries ? "session" : /create or replace/i.test(sql) ? "relation" : "select";
      log.push({ connection: connectionOf(this), start, ms: performance.now() - start, name: nameOf(sql), kind });
    }
  };
}

// what each relation and each named SELECT reads (queries.ts parses their `Reads:` lines)
const catalog = queryCatalog();
const reads = { relation: new Map(catalog.relations.map((r) => [r.name, r.reads])), select: new Map() };
for (const q of catalog.selects.values()) reads.select.set(nameOf(q.sql), [...(reads.select.get(nameOf(q.sql)) ?? []), ...q.reads]);

/** The longest chain of statements by what they read, each taking its measured time (a relation ends when its statement does). */
function longestChain(statements) {
  const done = new Map();
  let longest = 0;
  for (const s of statements) {
    const ends = Math.max(0, ...(reads[s.kind].get(s.name) ?? []).map((r) => done.get(r) ?? 0)) + s.ms;
    if (s.kind === "relation") done.set(s.name, ends);
    longest = Math.max(longest, ends);
  }
  return longest;
}

const io = () => ({
  stdout: { write: () => true, isTTY: false },
  stderr: { write: () => true, isTTY: false },
  stdin: Readable.from([Buffer.from("")]),
  env: { NO_COLOR: "1" },
});
const f = (ms) => `${ms.toFixed(0)} ms`;
for (let round = 1; round <= Number(rounds); round++) {
  log = [];
  const code = await main(["report", file], io());
  if (code !== 0) {
    process.stderr.write(`denom report ${file} exited ${code}\n`);
    process.exit(1);
  }
  const relations = log.filter((s) => s.kind !== "session");
  const first = Math.min(...relations.map((s) => s.start));
  const end = Math.max(...log.map((s) => s.start + s.ms));
  const busy = {};
  for (const s of relations) busy[s.connection] = (busy[s.connection] ?? 0) + s.ms;
  const sum = (xs) => xs.reduce((a, s) => a + s.ms, 0);
  console.log(
    `run ${round}${round === 1 ? " (cold)" : ""}: ${relations.length} relations and SELECTs, ${f(sum(relations))} on all connections ` +
      `(${Object.entries(busy)
        .map(([c, ms]) => `connection ${c} ${f(ms)}`)
        .join(", ")}), ${f(end - first)} from the first to the end, longest chain ${f(longestChain(relations))}; ` +
      `${log.length - relations.length} statements of the session's own (schema, variables, checks: ${f(sum(log.filter((s) => s.kind === "session")))}, ` +
      `which includes waiting for the main thread while it reads the input)`,
  );
}
console.log(`the costliest statements of the last run:`);
for (const s of [...log].sort((a, b) => b.ms - a.ms).slice(0, top)) console.log(`  ${s.ms.toFixed(1).padStart(7)} ms  ${s.name}`);
