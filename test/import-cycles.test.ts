/**
 * The modules of src/ import one another without a cycle (type imports and
 * dynamic imports included), so each folder's modules can be read from the
 * leaves up: formats/, then ingest/bytes, records, load, then the orchestrator.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** Relative specifiers of `text`: `from "./x.js"`, `import "./x.js"`, `import("./x.js")`, `typeof import("./x.js")`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** Every .ts file under `dir`, as paths relative to SRC. */
function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith(".ts") ? [relative(SRC, join(dir, e.name))] : [],
  );
}

/** module -> the modules of src/ it imports (specifiers ending `.js` name the `.ts` beside them). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const m of modules(SRC)) {
    const text = readFileSync(join(SRC, m), "utf8");
    const targets = [...text.matchAll(SPECIFIER)].map((x) => relative(SRC, resolve(SRC, dirname(m), x[1].replace(/\.js$/, ".ts"))));
    graph.set(m, [...new Set(targets)]);
  }
  return graph;
}

/** The first cycle found (a path that starts and ends at the same module), or null. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (m: string): string[] | null => {
    if (state.get(m) === "done") return null;
    if (state.get(m) === "open") return [...path.slice(path.indexOf(m)), m];
    state.set(m, "open");
    path.push(m);
    for (const t of graph.get(m) ?? []) {
      const found = visit(t);
      if (found) return found;
    }
    path.pop();
    state.set(m, "done");
    return null;
  };
  for (const m of [...graph.keys()].sort()) {
    const found = visit(m);
    if (found) return found;
  }
  return null;
}

describe("the import graph of src/", () => {
  it("finds a cycle where there is one, and none in a chain", () => {
    const cyclic = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["b.ts"]],
    ]);
    expect(findCycle(cyclic)).toEqual(["b.ts", "c.ts", "b.ts"]);
    expect(
      findCycle(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", []],
        ]),
      ),
    ).toBeNull();
  });

  it("reads the imports of a module the way they are written", () => {
    const graph = importGraph();
    // ingest.ts imports the reader of records/ and the leaf types module
    expect(graph.get(join("ingest", "ingest.ts"))).toEqual(expect.arrayContaining([join("ingest", "records", "reader.ts"), join("ingest", "types.ts")]));
  });

  it("has no cycle", () => {
    expect(findCycle(importGraph())).toBeNull();
  });

  it("imports no later ingest stage from an earlier one (bytes -> records -> load; the orchestrator chooses the line workers)", () => {
    const graph = importGraph();
    const stage = (m: string) => ["bytes", "records", "load"].findIndex((s) => m.startsWith(join("ingest", s)));
    const against = [...graph].flatMap(([m, targets]) => (stage(m) < 0 ? [] : targets.filter((t) => stage(t) > stage(m)).map((t) => `${m} -> ${t}`)));
    expect(against).toEqual([]);
  });
});
