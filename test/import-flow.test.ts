/**
 * The import graph of src/ follows the flow: formats (the harnesses' facts) ->
 * ingest (bytes -> records -> load) -> db (the DuckDB session, the SQL catalog)
 * -> commands (data) -> render (text, markdown, HTML, JSON) -> cli.ts. A module
 * imports its own folder, the folders before it and the leaves (src/*.ts: errors,
 * paths, scratch files, ...); a leaf imports leaves only. Type-only imports are
 * left out: they vanish from the build and carry no behaviour.
 *
 * An adapter that needs a reader of a later stage gets it handed in (the .eval
 * reader takes stream-json from its ArchiveSink), never imports it. That there
 * is no cycle at all, type imports included, is test/import-cycles.test.ts's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..");
const SRC = join(ROOT, "src");

/** Folder -> the folders (besides itself and the leaves) it may import. */
const MAY_IMPORT: Record<string, string[]> = {
  formats: [],
  db: ["formats"],
  ingest: ["formats", "db"],
  commands: ["formats", "ingest", "db"],
  render: ["formats", "ingest", "db", "commands"],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The value imports of a module: static `import ... from`, `export ... from` and dynamic `import()`, type-only ones left out. */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s+"(\.[^"]+)"/gm)) if (!m[1]) found.push(m[2]);
  for (const m of text.matchAll(/^\s*import\s+"(\.[^"]+)"/gm)) found.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)) found.push(m[1]);
  return found.map((r) => relative(SRC, normalize(join(dirname(file), r.replace(/\.js$/, ".ts")))));
}

/** The folder of a module under src/, "leaf" for src/*.ts, "cli" for the entry points. */
function layerOf(path: string): string {
  const parts = path.split("/");
  if (parts.length > 1) return parts[0];
  return path === "cli.ts" || path === "bin.ts" ? "cli" : "leaf";
}

const GRAPH = new Map(sources(SRC).map((f) => [relative(SRC, f), imports(f)]));

describe("the imports of src/ along the flow", () => {
  it("reads a graph (a test that cannot fail is a defect)", () => {
    expect(GRAPH.get("cli.ts")).toContain("errors.ts");
    expect(GRAPH.size).toBeGreaterThan(50);
  });

  it("imports along the flow only", () => {
    const against: string[] = [];
    for (const [m, deps] of GRAPH) {
      const from = layerOf(m);
      if (from === "cli") continue;
      for (const d of deps) {
        const to = layerOf(d);
        if (to === from || to === "leaf") continue;
        if (from !== "leaf" && MAY_IMPORT[from].includes(to)) continue;
        against.push(`${m} -> ${d}`);
      }
    }
    expect([...new Set(against)].sort()).toEqual([]);
  });
});
