/**
 * The house rules a reader can check with `ls` and a ruler: src/ shows the flow
 * (formats -> ingest -> db -> commands -> render -> cli, and a few leaf
 * modules), src/cli.ts only declares commands and flags (at most 350 lines),
 * and no function of src/ is longer than 80 lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const SRC = join(ROOT, "src");
const MAX_FUNCTION_LINES = 80;
const MAX_CLI_LINES = 350;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every function, method, arrow and accessor with a body, longer than `max` lines: "file name (lines)". */
function longFunctions(max: number): { key: string; where: string }[] {
  const found: { key: string; where: string }[] = [];
  for (const file of sources(SRC)) {
    const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart()).line;
        const lines = sf.getLineAndCharacterOfPosition(node.end).line - first + 1;
        if (lines > max) {
          const name = node.name && ts.isIdentifier(node.name) ? node.name.text : "(anonymous)";
          const path = relative(SRC, file);
          found.push({ key: `${path} ${name}`, where: `${path}:${first + 1} ${name} (${lines} lines)` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe("the house", () => {
  it("src/ shows the flow: the stage folders and the leaf modules, nothing else", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(["cli", "commands", "db", "formats", "ingest", "render"]);
  });

  it(`src/cli.ts declares commands and flags in at most ${MAX_CLI_LINES} lines`, () => {
    const lines = readFileSync(join(SRC, "cli.ts"), "utf8").split("\n").length;
    expect(lines).toBeLessThanOrEqual(MAX_CLI_LINES);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(MAX_FUNCTION_LINES).map((f) => f.where)).toEqual([]);
  });

  it("measures functions (a test that cannot fail is a defect)", () => {
    // main's own body is short, but at 20 lines the program's declarations are over
    expect(longFunctions(20).some((f) => f.key === "cli.ts addReadingCommands")).toBe(true);
  });
});
