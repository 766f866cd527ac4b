/** Helpers of the HTML report tests: write a report to a file, read its table cells, compare them with the JSON report. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { expect } from "vitest";
import { denom, tempDir } from "./helpers.js";

/** Writes the HTML report of `inputs` to a file and returns the page's document and its bytes. */
export async function htmlReport(inputs: string[], extra: string[] = []): Promise<{ file: string; html: string; document: Document }> {
  const file = join(tempDir(), "report.html");
  const r = await denom(["report", ...inputs, ...extra, "--format", "html", "-o", file]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe(""); // -o FILE: nothing on stdout
  const html = readFileSync(file, "utf8");
  return { file, html, document: parseHTML(html).document as unknown as Document };
}

/** The text of the one table cell matching `selector`. */
export function text(document: Document, selector: string): string {
  const cells = document.querySelectorAll(selector);
  expect(cells.length, selector).toBe(1);
  return (cells[0].textContent ?? "").trim();
}

export const pct = (rate: number | null) => (rate === null ? "n/a" : `${(rate * 100).toFixed(1)}%`);

/**
 * Asserts that the page's grid, waterfall and status tables hold the JSON report's
 * numbers: every cell of `rates`, the kept count and removals of every step
 * (denominator_steps, meta.exclusions), every status on both bases (status_counts).
 */
export function expectPageMatchesJson(document: Document, json: any): void {
  for (const r of json.rates) {
    const key = `${r.basis}/${r.denominator}`;
    expect(text(document, `#table-grid td[data-cell="${key}"][data-figure="ratio"]`), key).toBe(`${r.successes}/${r.count}`);
    expect(text(document, `#table-grid td[data-cell="${key}"][data-figure="rate"]`), key).toBe(pct(r.rate));
    expect(text(document, `#table-waterfall td[data-cell="${key}"][data-figure="kept"]`), key).toBe(String(r.count));
  }
  for (const s of json.denominator_steps) {
    const key = `${s.basis}/${s.denominator}`;
    expect(text(document, `#table-waterfall td[data-cell="${key}"][data-figure="removed"]`), key).toBe(s.removed === null ? "" : String(s.removed));
    const reasons = json.meta.exclusions
      .filter((e: any) => e.basis === s.basis && e.denominator === s.denominator)
      .map((e: any) => `${e.reason} ${e.trials}`)
      .sort();
    const shown = text(document, `#table-waterfall td[data-cell="${key}"][data-figure="reasons"]`);
    if (s.removed) expect(shown.split("; ").sort(), key).toEqual(reasons);
  }
  for (const basis of ["first", "final"]) {
    for (const [status, n] of Object.entries(json.status_counts[basis])) {
      expect(text(document, `#table-status td[data-status="${status}"][data-basis="${basis}"]:not([data-detail])`), `${basis} ${status}`).toBe(String(n));
    }
  }
}
