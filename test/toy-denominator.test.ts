/**
 * The denominator chain is defined once: a toy denominator added in a copy of the package
 * (dist/, queries/ and package.json, its npm packages linked) by changing two files of
 * queries/reference/ (the chain's row and its exclusion rule) shows in `report --json`'s
 * rates, the text grid, compare's cells and grid, `gate --min first/<toy>=...` and the HTML
 * charts, with counts worked out by hand. Spawns the copy's dist/bin.js (dist/ is current:
 * npm test builds first).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonl, ROOT } from "./helpers.js";

/** `unrefused` between attributable and completable: it removes the agent's own aborts (a safety refusal). */
const ROW = "(5, 'unrefused', 'attributable minus the agent''s refusals', 'agent aborts (safety, policy)'),";
const RULE = "        when status = 'aborted' and fault = 'agent' then 'unrefused'\n";

// one attempt per trial, so first and final agree: 6 trials (total), 1 success;
// valid drops the invalid task (5), attributable the external API error (4),
// unrefused the safety refusal (3), completable the timeout (2)
const INPUT = jsonl(
  { task_id: "a", attempt: 1, status: "success" },
  { task_id: "b", attempt: 1, status: "failure" },
  { task_id: "c", attempt: 1, status: "aborted", status_detail: "safety_refusal" },
  { task_id: "d", attempt: 1, status: "timeout" },
  { task_id: "e", attempt: 1, status: "aborted", status_detail: "external_api_error" },
  { task_id: "f", attempt: 1, status: "invalid" },
);

let pkg = "";

function changedFiles(a: string, b: string): string[] {
  const files = (dir: string) =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".sql"))
      .sort();
  const names = new Set([...files(a), ...files(b)]);
  return [...names].filter((f) => {
    try {
      return readFileSync(join(a, f), "utf8") !== readFileSync(join(b, f), "utf8");
    } catch {
      return true;
    }
  });
}

function run(args: string[]) {
  const r = spawnSync(process.execPath, [join(pkg, "dist", "bin.js"), ...args], {
    cwd: pkg,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  pkg = mkdtempSync(join(tmpdir(), "denom-toy-"));
  for (const f of ["dist", "queries", "package.json"]) cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
  const chain = join(pkg, "queries", "reference", "denominators.sql");
  const rows = readFileSync(chain, "utf8");
  writeFileSync(chain, rows.replace("        (5, 'completable'", `        ${ROW}\n        (6, 'completable'`));
  const rule = join(pkg, "queries", "reference", "excluded_from.sql");
  const rules = readFileSync(rule, "utf8");
  writeFileSync(rule, rules.replace("        when status = 'timeout'", `${RULE}        when status = 'timeout'`));
  writeFileSync(join(pkg, "runs.jsonl"), INPUT);
});

afterAll(() => {
  if (pkg) rmSync(pkg, { recursive: true, force: true });
});

describe("a toy denominator added in a copy of queries/", () => {
  it("changes two files, nothing else", () => {
    expect(changedFiles(join(ROOT, "queries"), join(pkg, "queries")).sort()).toEqual(["reference/denominators.sql", "reference/excluded_from.sql"]);
  });

  it("is in report --json's rates, the text grid and the removals, in its place in the chain", () => {
    const r = run(["report", "runs.jsonl", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      rates: { basis: string; denominator: string; successes: number; count: number }[];
      meta: { definitions: { denominators: { denominator: string }[] } };
    };
    const first = out.rates.filter((c) => c.basis === "first").map((c) => [c.denominator, c.successes, c.count]);
    expect(first).toEqual([
      ["total", 1, 6],
      ["valid", 1, 5],
      ["attributable", 1, 4],
      ["unrefused", 1, 3],
      ["completable", 1, 2],
    ]);
    expect(out.rates.find((c) => c.basis === "final" && c.denominator === "unrefused")).toMatchObject({ successes: 1, count: 3 });
    expect(out.meta.definitions.denominators.map((d) => d.denominator)).toEqual(["total", "valid", "attributable", "unrefused", "completable"]);
    const text = run(["report", "runs.jsonl"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/unrefused\s+1\/3/);
    expect(text.stdout).toContain("aborted (safety_refusal)");
  });

  it("is a cell of compare, in its cells and each side's grid", () => {
    const r = run(["compare", "runs.jsonl", "runs.jsonl", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { cells: { basis: string; denominator: string; tasks: number; baseline: { successes: number; count: number } }[] };
    expect(out.cells.find((c) => c.basis === "first" && c.denominator === "unrefused")).toMatchObject({ tasks: 3, baseline: { successes: 1, count: 3 } });
    expect(out.cells).toHaveLength(10);
    const text = run(["compare", "runs.jsonl", "runs.jsonl"]);
    expect(text.stdout).toMatch(/first\/unrefused\s+3\s+1\/3/);
    expect(text.stdout).toMatch(/\n\s*unrefused\s+1\/3/);
    const md = run(["compare", "runs.jsonl", "runs.jsonl", "--format", "md"]);
    expect(md.stdout).toContain("| unrefused |");
    const worse = run(["compare", "runs.jsonl", "runs.jsonl", "--fail-if-worse", "final/unrefused", "--min-tasks", "3"]);
    expect(worse.code, worse.stderr).toBe(0);
  });

  it("is a figure gate judges and names in its usage error", () => {
    const pass = run(["gate", "runs.jsonl", "--min", "first/unrefused=0.33", "--json"]);
    expect(pass.code, pass.stderr).toBe(0);
    expect(JSON.parse(pass.stdout).conditions[0]).toMatchObject({ figure: "first/unrefused", numerator: 1, denominator: 3, tasks: 3, passed: true });
    expect(run(["gate", "runs.jsonl", "--min", "first/unrefused=0.34"]).code).toBe(4);
    const bad = run(["gate", "runs.jsonl", "--min", "first/refused=0.5"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("first/attributable, first/unrefused, first/completable, final/total");
  });

  it("is drawn in the HTML report's charts and compare's page", () => {
    const html = run(["report", "runs.jsonl", "--format", "html"]);
    expect(html.code, html.stderr).toBe(0);
    // the rate grid's rows and the waterfall's bars: the toy's tick in both charts, its bar's title
    expect(html.stdout.match(/>unrefused</g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(html.stdout).toContain("first/unrefused: 3 trials kept");
    const compare = run(["compare", "runs.jsonl", "runs.jsonl", "--format", "html"]);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toContain("first/unrefused");
  });
});
