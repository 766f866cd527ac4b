/**
 * The HTML report in a real browser: the system's Chromium (Debian's `chromium`,
 * /usr/bin/chromium, or CHROMIUM_PATH), driven by puppeteer-core, which downloads no
 * browser. JavaScript is off (the page must read without it); every request the page
 * makes is recorded and any but the page itself is aborted and fails the test. The
 * DOM's grid, waterfall and status numbers must equal the JSON report's; a screenshot
 * is saved (to DENOM_SCREENSHOT_DIR when set: `DENOM_SCREENSHOT_DIR=docs/img npx
 * vitest run test/report-html-browser.test.ts` makes the ones in docs/html-report.md).
 * Skips with a message where Chromium is absent.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { denom, hasShared, REAL, ROOT } from "./helpers.js";
import { expectPageMatchesJson, htmlReport, text } from "./html-helpers.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const SHOTS = process.env.DENOM_SCREENSHOT_DIR ? resolve(process.env.DENOM_SCREENSHOT_DIR) : mkdtempSync(join(tmpdir(), "denom-shots-"));

/** The flags that keep Chromium from reaching the network on its own (updates, sync, QUIC probes). */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

if (!hasChromium) console.log(`skipped: HTML report in a browser (no Chromium at ${CHROMIUM}; apt-get install chromium, or set CHROMIUM_PATH)`);

describe.skipIf(!hasChromium)("the HTML report in headless Chromium", () => {
  let browser: Browser;
  let profile: string;
  beforeAll(async () => {
    const puppeteer = (await import("puppeteer-core")).default;
    profile = mkdtempSync(join(tmpdir(), "denom-chromium-"));
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, userDataDir: profile, args: FLAGS });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /**
   * Opens `file` with JavaScript off, records every request, and returns the DOM as
   * the browser built it (serialised, parsed again with linkedom for the checks) and
   * the requests other than the page itself. Saves `name`-top.png (the first screen;
   * none when `name` is null) and the sections listed in `sections` as `name`-SECTION.png.
   */
  async function open(file: string, name: string | null, sections: string[] = []): Promise<{ document: Document; others: string[] }> {
    const page = await browser.newPage();
    try {
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
      const url = pathToFileURL(file).href;
      const others: string[] = [];
      page.on("request", (request) => {
        if (request.url() === url) return void request.continue();
        others.push(request.url());
        void request.abort();
      });
      await page.setViewport({ width: 1200, height: 1400 });
      await page.goto(url, { waitUntil: "load" });
      const dom = await page.content();
      if (name) await page.screenshot({ path: join(SHOTS, `${name}-top.png`) });
      for (const id of sections) await (await page.$(`section#${id}`))?.screenshot({ path: join(SHOTS, `${name}-${id}.png`) });
      // the A4 print layout renders (the page's @page rule), without error
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      expect(pdf.length).toBeGreaterThan(1000);
      return { document: parseHTML(dom).document as unknown as Document, others };
    } finally {
      await page.close();
    }
  }

  it("catches a page that fetches something (the check can fail)", async () => {
    // a control without the report's Content-Security-Policy: its image request must be seen
    const file = join(mkdtempSync(join(tmpdir(), "denom-control-")), "control.html");
    writeFileSync(file, '<!doctype html><p>control</p><img src="http://127.0.0.1:9/pixel.png">');
    const { others } = await open(file, null);
    expect(others).toEqual(["http://127.0.0.1:9/pixel.png"]);
  });

  it("shows seed-100's numbers with JavaScript off and makes no request but the page", async () => {
    // relative to the working folder, so the screenshots name the source as a user types it
    const input = relative(process.cwd(), join(ROOT, "samples", "seed-100.jsonl"));
    const { file } = await htmlReport([input]);
    const { document, others } = await open(file, "seed-100", ["waterfall", "durations"]);
    expect(others).toEqual([]);
    expectPageMatchesJson(document, (await denom(["report", input, "--json"])).json());
    // the charts are there as the browser parsed them: one SVG cell per trial
    expect(document.querySelectorAll("section#waffle svg rect title").length).toBe(100);
    expect(statSync(join(SHOTS, "seed-100-top.png")).size).toBeGreaterThan(10_000);
  });

  it("shows compare's numbers for the two agents of samples/two-agents.jsonl and makes no request but the page", async () => {
    const input = relative(process.cwd(), join(ROOT, "samples", "two-agents.jsonl"));
    const file = join(mkdtempSync(join(tmpdir(), "denom-compare-")), "compare.html");
    const args = ["compare", input, "--by", "agent", "--baseline", "planner-v1"];
    const r = await denom([...args, "--format", "html", "-o", file]);
    expect(r.code, r.stderr).toBe(0);
    const { document, others } = await open(file, "compare-two-agents");
    expect(others).toEqual([]);
    const cell = (key: string, figure: string) => text(document, `#table-cells td[data-cell="${key}"][data-figure="${figure}"]`);
    // by hand (jq over the sample, each trial's last attempt): planner-v1 7 of its 24 trials
    // succeed, react-v2 19 of 24, over the 8 tasks both ran
    expect(cell("final/total", "tasks")).toBe("8");
    expect(cell("final/total", "baseline").split(" ")[0]).toBe("7/24");
    expect(cell("final/total", "candidate").split(" ")[0]).toBe("19/24");
    // and every cell as compare --json has it, as the browser built the page
    const json = (await denom([...args, "--json"])).json();
    const cells = (json.comparisons?.[0] ?? json).cells as {
      basis: string;
      denominator: string;
      tasks: number;
      baseline: { successes: number; count: number };
    }[];
    expect(cells).toHaveLength(8);
    for (const c of cells) {
      const key = `${c.basis}/${c.denominator}`;
      expect(cell(key, "tasks"), key).toBe(String(c.tasks));
      expect(cell(key, "baseline").split(" ")[0], key).toBe(`${c.baseline.successes}/${c.baseline.count}`);
    }
    expect(statSync(join(SHOTS, "compare-two-agents-top.png")).size).toBeGreaterThan(10_000);
  });

  it.skipIf(!hasShared)("shows the Terminal-Bench orchestrator run's numbers and makes no request but the page", async () => {
    const input = relative(process.cwd(), join(REAL, "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet"));
    const { file } = await htmlReport([input]);
    const { document, others } = await open(file, "terminal-bench", ["status", "waffle", "pass-at-k"]);
    expect(others).toEqual([]);
    expectPageMatchesJson(document, (await denom(["report", input, "--json"])).json());
    expect(statSync(join(SHOTS, "terminal-bench-top.png")).size).toBeGreaterThan(10_000);
  });
});
