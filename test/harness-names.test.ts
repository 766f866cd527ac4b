/**
 * Every harness fact lives in src/formats/: no harness (nor its file names and
 * endings) is named in src/ outside it, nor in queries/ outside the SQL the
 * adapters declare (queries/reference/format_traits.sql, generated from their
 * traits; a format's own views in queries/formats/<name>/ and their SELECTs in
 * queries/select/report/formats/). A new harness is then one adapter and its
 * fixture, and the generic code reads what the adapters declare.
 *
 * The one exception is a definition's source, cited as the house rules ask
 * ("pass^k as in tau-bench"): CITATIONS lists each, and the list only shrinks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..");

/** The harnesses denom reads, their file names and endings: case-insensitive, whole words. */
const HARNESS =
  /\b(inspect(?:_ai)?|harbor|tau-?bench|tau2(?:-bench)?|openhands|opendevin|swe-?bench(?:-pro)?|swe-?agent|mini-swe-agent|agentcompass|terminal-?bench|agentbench|medagentbench|lm-eval(?:uation-harness)?|hal|skillsbench|autocoderover|metr|hawk)\b|\.(eval|traj)\b|\b(eval_results|instance_results)\b/gi;

/** A harness named as the source of a definition: "file: the text around it". */
const CITATIONS: ReadonlySet<string> = new Set([
  "src/render/metrics-text.ts: C(c,k)/C(n,k) (tau-bench)",
  "src/commands/audit.ts: (what Terminal-Bench's leaderboard publishes",
  "src/commands/audit.ts: what Inspect's stderr() gives",
]);

/** Where a harness may be named: the adapters, and the SQL they declare. */
function declared(path: string): boolean {
  return (
    path.startsWith("src/formats/") ||
    path === "queries/reference/format_traits.sql" ||
    path.startsWith("queries/formats/") ||
    path.startsWith("queries/select/report/formats/")
  );
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|sql)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Each naming of a harness outside the declared places, as `file: line text`, citations left out. */
function namings(): string[] {
  const found: string[] = [];
  for (const file of [...files(join(ROOT, "src")), ...files(join(ROOT, "queries"))]) {
    const path = relative(ROOT, file);
    if (declared(path)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.match(HARNESS)) continue;
      const cited = [...CITATIONS].some((c) => c.startsWith(`${path}: `) && line.includes(c.slice(path.length + 2)));
      if (!cited) found.push(`${path}: ${line.trim()}`);
    }
  }
  return found;
}

describe("harness facts in src/formats/ only", () => {
  it("matches a harness name where one is written (a test that cannot fail is a defect)", () => {
    const inFormats = files(join(ROOT, "src/formats")).filter((f) => readFileSync(f, "utf8").match(HARNESS));
    expect(inFormats.length).toBeGreaterThan(10);
    expect("an Inspect .eval log".match(HARNESS)).toEqual(["Inspect", ".eval"]);
    expect("a Harbor job".match(HARNESS)).toEqual(["Harbor"]);
    expect("the trajectory file, a .json log".match(HARNESS)).toBeNull();
  });

  it("names no harness outside src/formats/ and the declared SQL, but for the cited definitions", () => {
    expect(namings()).toEqual([]);
  });

  it("lists only citations that are still written (the list only shrinks)", () => {
    for (const c of CITATIONS) {
      const [path, text] = [c.slice(0, c.indexOf(": ")), c.slice(c.indexOf(": ") + 2)];
      expect(readFileSync(join(ROOT, path), "utf8"), c).toContain(text);
    }
  });
});
