/**
 * Whole-command behaviour from case folders (test/fixtures/cases, copied from
 * ../shared/cases): each expected.json lists runs (arguments, exit code, expected
 * figures worked out by hand from the inputs). Same matching rules as
 * ../shared/check-cases.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CASES, denom } from "./helpers.js";

function close(a: unknown, b: number): boolean {
  return typeof a === "number" && Math.abs(a - b) <= Math.max(1e-4, 5e-4 * Math.abs(b));
}

function subset(actual: any, expected: any, path: string, diffs: string[]): void {
  if (expected === null || typeof expected !== "object") {
    const ok = typeof expected === "number" ? close(actual, expected) : actual === expected;
    if (!ok) diffs.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return;
  }
  if (actual === null || typeof actual !== "object") {
    diffs.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return;
  }
  for (const [k, v] of Object.entries(expected)) subset(actual[k], v, `${path}.${k}`, diffs);
}

function check(out: any, expect: Record<string, any>): string[] {
  const diffs: string[] = [];
  const rate = (key: string) => {
    const [basis, denominator] = key.split("/");
    return (out.rates ?? []).find((r: any) => r.basis === basis && r.denominator === denominator);
  };
  for (const [key, want] of Object.entries(expect)) {
    if (key === "rates") {
      for (const [c, [s, n]] of Object.entries(want as Record<string, [number, number]>)) {
        const r = rate(c);
        if (!r || r.successes !== s || r.count !== n) diffs.push(`rates ${c}: expected ${s}/${n}, got ${r ? `${r.successes}/${r.count}` : "missing"}`);
      }
    } else if (key === "rates_na") {
      for (const c of want as string[]) if (rate(c)?.rate !== null) diffs.push(`rates ${c}: expected n/a`);
    } else if (key === "pass_at_k") {
      for (const [k, fields] of Object.entries(want as Record<string, object>)) {
        const row = (out.pass_at_k ?? []).find((p: any) => Number(p.k) === Number(k));
        if (!row) diffs.push(`pass_at_k k=${k}: missing`);
        else subset(row, fields, `pass_at_k[k=${k}]`, diffs);
      }
    } else if (key === "matches") {
      for (const m of want as Record<string, unknown>[]) {
        const hit = (out.matches ?? []).some((x: any) => Object.entries(m).every(([f, v]) => (typeof v === "number" ? close(Number(x[f]), v) : x[f] === v)));
        if (!hit) diffs.push(`matches: no entry like ${JSON.stringify(m)}`);
      }
    } else subset(out[key], want, key, diffs);
  }
  return diffs;
}

const names = readdirSync(CASES)
  .filter((n) => existsSync(join(CASES, n, "expected.json")))
  .sort();

describe("case folders", () => {
  for (const name of names) {
    const dir = join(CASES, name);
    const spec = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as {
      runs: { args: string[]; exit?: number; expect?: Record<string, unknown> }[];
    };
    spec.runs.forEach((run, i) => {
      it(`${name}#${i + 1}: denom ${run.args.join(" ")}`, async () => {
        const args = run.args.map((a) => (existsSync(join(dir, a)) ? join(dir, a) : a));
        const r = await denom(args);
        expect(r.code, r.stderr).toBe(run.exit ?? 0);
        if (run.expect) expect(check(r.json(), run.expect)).toEqual([]);
      });
    });
  }
});
