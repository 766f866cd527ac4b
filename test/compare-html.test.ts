/**
 * `denom compare --format html`: the page holds the cell numbers of `compare --json`,
 * fetches nothing, escapes every input text. Read with linkedom, no browser.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { denom, hasShared, jsonl, once, SHARED, tempDir } from "./helpers.js";

const FLIP = join(SHARED, "cases-compare", "compare-flip");

/** Writes the compare page of `args` to a file; returns its text and document. */
async function comparePage(args: string[]): Promise<{ html: string; document: Document }> {
  const file = join(tempDir(), "compare.html");
  const r = await denom(["compare", ...args, "--format", "html", "-o", file]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe(""); // -o FILE: nothing on stdout
  const html = readFileSync(file, "utf8");
  return { html, document: parseHTML(html).document as unknown as Document };
}

/** The one cell of `table` carrying data-cell=cell and data-figure=figure. */
function cell(document: Document, table: string, key: string, figure: string): Element {
  const found = document.querySelectorAll(`#table-${table} td[data-cell="${key}"][data-figure="${figure}"]`);
  expect(found.length, `${table} ${key} ${figure}`).toBe(1);
  return found[0];
}
const value = (e: Element) => e.getAttribute("data-value") ?? "";
const shown = (e: Element) => (e.textContent ?? "").trim();
const asValue = (v: number | null) => (v === null ? "" : String(v));

describe.skipIf(!hasShared)("compare --format html on ../shared/cases-compare/compare-flip", () => {
  const a = join(FLIP, "baseline.jsonl");
  const b = join(FLIP, "candidate.jsonl");
  /** the page of `compare A B`, written once for the read-only tests below */
  const flipPage = once(() => comparePage([a, b]));

  it("holds every cell's numbers of compare --json", async () => {
    const { document } = await flipPage();
    const json = (await denom(["compare", "--json", a, b])).json();
    expect(json.cells).toHaveLength(8);
    for (const c of json.cells) {
      const k = `${c.basis}/${c.denominator}`;
      expect(shown(cell(document, "cells", k, "tasks")), k).toBe(String(c.tasks));
      expect(shown(cell(document, "cells", k, "baseline")), k).toBe(
        `${c.baseline.successes}/${c.baseline.count} ${c.baseline.rate === null ? "n/a" : `${(c.baseline.rate * 100).toFixed(1)}%`}`,
      );
      expect(shown(cell(document, "cells", k, "candidate")).split(" ")[0], k).toBe(`${c.candidate.successes}/${c.candidate.count}`);
      expect(Number(value(cell(document, "cells", k, "difference"))), k).toBeCloseTo(c.difference, 6);
      expect(
        value(cell(document, "cells", k, "ci95"))
          .split(" ")
          .map(Number),
        k,
      ).toEqual(c.ci95.map((x: number) => expect.closeTo(x, 6)));
      expect(value(cell(document, "cells", k, "test")), k).toBe(c.test);
      expect(value(cell(document, "cells", k, "p_value")), k).toBe(asValue(c.p_value));
      expect(value(cell(document, "cells", k, "mde80")), k).toBe(asValue(c.mde80));
      expect(value(cell(document, "cells", k, "tasks_needed")), k).toBe(asValue(c.tasks_needed));
      expect(shown(cell(document, "cells", k, "discordant")), k).toBe(`${c.discordant.baseline_only} / ${c.discordant.candidate_only}`);
    }
    // the discordant tasks: as many rows as the JSON lists
    expect(document.querySelectorAll("#table-discordant tbody tr").length).toBe(json.discordant_tasks.length);
  });

  it("shows the differences worked out by hand (expected.json of the case)", async () => {
    const { document, html } = await flipPage();
    // final/total: A 6/12, B 9/12, one trial per task: B - A = 9/12 - 6/12 = +25.0 points
    expect(shown(cell(document, "cells", "final/total", "baseline"))).toBe("6/12 50.0%");
    expect(shown(cell(document, "cells", "final/total", "candidate"))).toBe("9/12 75.0%");
    expect(shown(cell(document, "cells", "final/total", "difference"))).toBe("+25.0");
    // final/attributable: A lost 6 trials to an external API, so 6 tasks enter; A 6/6, B 4/6: 4/6 - 6/6 = -33.3 points
    expect(shown(cell(document, "cells", "final/attributable", "baseline"))).toBe("6/6 100.0%");
    expect(shown(cell(document, "cells", "final/attributable", "candidate"))).toBe("4/6 66.7%");
    expect(shown(cell(document, "cells", "final/attributable", "difference"))).toBe("-33.3");
    expect(html).toContain("B leads on final/total (+25.0 points) but trails on final/attributable (-33.3 points): A lost 6 trials to an external API.");
    // coverage: 12 tasks on both sides
    expect(value(document.querySelector('#table-coverage td[data-figure="common_tasks"]')!)).toBe("12");
    // each side's own grid: A final/total 6/12
    expect(document.querySelector('#table-grids td[data-side="A"][data-cell="final/total"]')!.textContent).toMatch(/^6\/12 50\.0%/);
  });

  it("is self-contained: one SVG chart, no script, no external URL", async () => {
    const { html, document } = await flipPage();
    expect(document.querySelectorAll("script").length).toBe(0);
    expect(document.querySelectorAll("#cells svg").length).toBeGreaterThan(0);
    expect(html).toContain("default-src 'none'");
    // the only URL-looking strings allowed are the SVG namespace identifiers (not fetched)
    const urls = (html.match(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi) ?? []).filter((u) => !u.startsWith("http://www.w3.org/"));
    expect(urls).toEqual([]);
    expect(html).not.toMatch(/\b(?:src|href)="(?!#)/);
  });
});

describe("compare --format html escapes input text", () => {
  // agent and task names carry markup; with --by agent the baseline is the hostile agent.
  // t1: A success, B failure; t2: A failure, B success: both discordant.
  const evil = '<img src=x onerror="alert(1)">&';
  const dir = tempDir({
    "both.jsonl": jsonl(
      { run_id: "r1", agent: evil, task_id: "<script>t1</script>", status: "success" },
      { run_id: "r1", agent: evil, task_id: "t2'\"", status: "failure" },
      { run_id: "r2", agent: "b", task_id: "<script>t1</script>", status: "failure" },
      { run_id: "r2", agent: "b", task_id: "t2'\"", status: "success" },
    ),
  });

  it("never lets a name become markup", async () => {
    const { html, document } = await comparePage([join(dir, "both.jsonl"), "--by", "agent", "--baseline", evil]);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;t1&lt;/script&gt;");
    expect(document.querySelectorAll("script, img").length).toBe(0);
    const tasks = [...document.querySelectorAll("#table-discordant td[data-task]")]
      .filter((e) => !e.hasAttribute("data-figure"))
      .map(shown)
      .sort();
    expect(tasks).toEqual(["<script>t1</script>", "t2'\""]);
  });
});
