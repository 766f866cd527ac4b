/**
 * The package as a newcomer gets it: `npm pack` holds what the README's
 * commands need (dist, queries, samples, docs, LICENSE), installs into a fresh
 * prefix from the tarball (offline when npm's cache has the dependencies), and the
 * installed `denom` reports a packaged sample; every bench script prints its help
 * for --help and writes nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const SLOW = 600_000;

function npm(args: string[], cwd = ROOT) {
  return spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" }, maxBuffer: 1 << 26 });
}

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe("npm pack and install", () => {
  it(
    "packs what the README's commands need, installs into a temporary prefix, and the installed denom reports a packaged sample",
    () => {
      const dest = mkdtempSync(join(tmpdir(), "denom-pack-"));
      // dist/ is current (npm test builds first); --ignore-scripts so packing never rebuilds it under running tests
      const pack = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dest]);
      expect(pack.status, pack.stderr).toBe(0);
      const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
      const packed = new Set(info.files.map((f) => f.path));
      for (const f of ["LICENSE", "README.md", "package.json", "dist/bin.js", "samples/seed-100.jsonl", "docs/formats.md"]) expect(packed, f).toContain(f);
      expect([...packed].filter((f) => f.startsWith("queries/") && f.endsWith(".sql")).length).toBeGreaterThan(10);
      // every sample the README names is in the package
      const readme = readFileSync(join(ROOT, "README.md"), "utf8");
      for (const [sample] of readme.matchAll(/samples\/[\w.-]+\.jsonl/g)) expect(packed, sample).toContain(sample);
      expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License/);

      const prefix = join(dest, "prefix");
      const tarball = join(dest, info.filename);
      // offline first: the dependencies are in npm's cache after `npm ci`; a cache without
      // the registry's package documents needs one look-up, so --prefer-offline next
      let install = npm(["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball], dest);
      if (install.status !== 0) install = npm(["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball], dest);
      expect(install.status, install.stderr).toBe(0);

      const sample = join(prefix, "lib", "node_modules", "denom", "samples", "seed-100.jsonl");
      const r = spawnSync(join(prefix, "bin", "denom"), ["report", sample, "--json"], { cwd: dest, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      // seed-100: 100 tasks, one trial each; 82 pass on their final attempt (70 at once, 12 after a retry)
      expect(out.rates.find((c: { basis: string; denominator: string }) => c.basis === "final" && c.denominator === "total")).toMatchObject({
        successes: 82,
        count: 100,
      });
      expect(out.accounting).toMatchObject({ lines: 130, records: 130, rejected: 0 });
    },
    SLOW,
  );
});

describe("bench scripts", () => {
  // one test per script (each a process of its own); bench/ is listed before the first runs
  const scripts = readdirSync(join(ROOT, "bench")).filter((f) => f.endsWith(".mjs"));
  const benchBefore = filesBelow(join(ROOT, "bench"));

  it("are there to run", () => {
    expect(scripts.length).toBeGreaterThan(5);
  });

  it.each(scripts)("print their help for --help and write nothing: %s", (script) => {
    // a fresh cwd and TMPDIR: anything the script wrote would show up in one of them
    const cwd = mkdtempSync(join(tmpdir(), "denom-bench-help-"));
    const tmp = mkdtempSync(join(tmpdir(), "denom-bench-tmp-"));
    const r = spawnSync(process.execPath, [join(ROOT, "bench", script), "--help"], { cwd, encoding: "utf8", env: { ...process.env, TMPDIR: tmp } });
    expect(r.status, `${script}: ${r.stderr}`).toBe(0);
    expect(r.stdout, script).toMatch(/\S/);
    expect(r.stdout, script).not.toMatch(/^\/\//m);
    expect(readdirSync(cwd), script).toEqual([]);
    expect(readdirSync(tmp), script).toEqual([]);
  });

  it("print their help and write nothing below bench/ either", () => {
    expect(filesBelow(join(ROOT, "bench"))).toEqual(benchBefore);
  });
});
