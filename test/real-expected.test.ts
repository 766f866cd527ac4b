/**
 * Every row of ../shared/data/real/EXPECTED.tsv (folder, rate cell, the hand
 * count of the folder's PROVENANCE.md) reproduces: `denom report --json FOLDER`
 * gives that cell's successes/count exactly. Skipped without ../shared.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cell, denom, hasShared, REAL } from "./helpers.js";

/** The rows of EXPECTED.tsv: `[folder, cell, "successes/count"]`, comments and blank lines left out. */
function expectedRows(): [string, string, string][] {
  return readFileSync(join(REAL, "EXPECTED.tsv"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => l.split("\t").map((c) => c.trim()) as [string, string, string]);
}

describe.skipIf(!hasShared)("../shared/data/real/EXPECTED.tsv", () => {
  const rows = hasShared ? expectedRows() : [];
  const folders = [...new Set(rows.map(([folder]) => folder))];

  it("lists at least one cell per folder it names", () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const [, key, fraction] of rows)
      expect([key, fraction]).toEqual([expect.stringMatching(/^(first|final)\/(total|valid|attributable|completable)$/), expect.stringMatching(/^\d+\/\d+$/)]);
  });

  it.each(folders)("%s gives every hand-counted cell, and no run of it is scored off its scale", async (folder) => {
    const r = await denom(["report", "--json", join(REAL, folder)]);
    const out = r.json();
    for (const [, key, fraction] of rows.filter(([f]) => f === folder)) {
      const c = cell(out, key);
      expect(`${c.successes}/${c.count}`, `${folder} ${key}`).toBe(fraction);
    }
    expect(out.meta.off_scale_runs).toEqual([]);
  });
});
