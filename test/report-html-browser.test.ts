/**
 * The HTML report in a real browser: the system's Chromium (Debian's `chromium`,
 * /usr/bin/chromium, or CHROMIUM_PATH), driven by puppeteer-core, which downloads no
 * browser. JavaScript is off (the page must read without it); every request the page
 * makes is recorded and any but the page itself is aborted and fails the test. The
 * DOM's grid, waterfall and status numbers must equal the JSON report's; a screenshot
 * is saved (to DENOM_SCREENSHOT_DIR when set: `DENOM_SCREENSHOT_DIR=docs/img npx
 * vitest run test/report-html-browser.test.ts` makes the ones in docs/html-report.md).
 * Each page is laid out at 1280 px (a laptop) and 390 px (a phone) and measured in the
 * DOM: the page never scrolls sideways (wide tables scroll in their own box), no element
 * reaches past the viewport, and no text of a chart lies outside its SVG; also on a
 * generated input of 100,000 trials (report) and 2 x 50,000 (compare).
 * Skips with a message where Chromium is absent.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { denom, hasShared, REAL, ROOT } from "./helpers.js";
import { expectPageMatchesJson, htmlReport, text } from "./html-helpers.js";
import * as charts from "../src/render/charts.js";
import { page as htmlPage, pair, section } from "../src/render/html.js";

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

/** The two widths every page is laid out at: a laptop and a phone (CSS pixels). */
const WIDE = 1280;
const PHONE = 390;

/** What the layout check finds on a page, measured in the browser's DOM. */
interface Layout {
  /** document.documentElement.scrollWidth and the viewport's width: the page scrolls sideways when the first is larger */
  scrollWidth: number;
  viewport: number;
  /** elements reaching past the viewport's left or right edge, outside any box that scrolls or clips them */
  overflowing: string[];
  /** text of an SVG whose box lies outside the SVG's own box */
  clipped: string[];
  /** the tables wider than their box, which scroll inside it */
  scrolled: string[];
}

/** Measures `page` (a function run in the page: it needs no script of the page's own, which is off). */
async function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${e.getAttribute("class") ? `.${e.getAttribute("class")}` : ""}`;
    const scrolls = (e: Element) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(e).overflowX);
    const overflowing: string[] = [];
    for (const e of document.body.querySelectorAll("*")) {
      const box = e.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      let up = e.parentElement;
      while (up && up !== document.body && !scrolls(up)) up = up.parentElement;
      if (up && up !== document.body) continue;
      if (box.left < -0.5 || box.right > viewport + 0.5) overflowing.push(`${name(e)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
    const clipped: string[] = [];
    for (const svg of document.querySelectorAll("svg")) {
      const outer = svg.getBoundingClientRect();
      for (const t of svg.querySelectorAll("text")) {
        const box = t.getBoundingClientRect();
        if (box.width === 0) continue;
        const out = box.left < outer.left - 0.5 || box.right > outer.right + 0.5 || box.top < outer.top - 0.5 || box.bottom > outer.bottom + 0.5;
        if (out)
          clipped.push(
            `${svg.closest("section")?.id ?? "?"}: "${t.textContent}" x ${Math.round(box.left - outer.left)}..${Math.round(box.right - outer.left)} of ${Math.round(outer.width)}`,
          );
      }
    }
    const scrolled = [...document.querySelectorAll(".scroll")].filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.querySelector("table")?.id ?? "?");
    return { scrollWidth: document.documentElement.scrollWidth, viewport, overflowing, clipped, scrolled };
  });
}

/** A page laid out as it should be: no sideways scrolling, nothing past the edge, no chart text out of its SVG. */
function expectFits(layout: Layout, what: string): void {
  expect(layout.overflowing, what).toEqual([]);
  expect(layout.clipped, what).toEqual([]);
  expect(layout.scrollWidth, what).toBeLessThanOrEqual(layout.viewport);
}

/**
 * 100,000 canonical records, one attempt a trial: record i (from 0) is trial 0 of task 2j when
 * i = 3j, trials 0 and 1 of task 2j + 1 when i = 3j + 1, 3j + 2 (tasks of 1 and 2 trials, in turn);
 * success when i % 3 == 0, timeout (at its 600 s limit, no events) when i % 3 == 1, else failure.
 * `candidate` (for compare): success when i % 2 == 0, else failure.
 */
function largeInput(records: number, candidate = false): string {
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    const j = Math.floor(i / 3);
    const task = i % 3 === 0 ? 2 * j : 2 * j + 1;
    const status = candidate ? (i % 2 === 0 ? "success" : "failure") : ["success", "timeout", "failure"][i % 3];
    const start = 1_735_689_600 + i;
    const end = start + (status === "timeout" ? 600 : 10 + (i % 500));
    lines.push(
      `{"task_id":"task-${String(task).padStart(6, "0")}","trial":${i % 3 === 2 ? 1 : 0},"status":"${status}","started_at":${start},"ended_at":${end},"timeout_limit_s":600}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

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
   * none when `name` is null) and the sections listed in `sections` as `name`-SECTION.png
   * (`name`-phone.png and `name`-SECTION-phone.png at 390 px); prints to A4 when `print`.
   */
  async function open(
    file: string,
    name: string | null,
    sections: string[] = [],
    width = WIDE,
    print = width === WIDE,
  ): Promise<{ document: Document; others: string[]; layout: Layout }> {
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
      // a phone's screen is 390 x 844; the laptop's first screen is shown taller
      await page.setViewport({ width, height: width === PHONE ? 844 : 1400 });
      await page.goto(url, { waitUntil: "load" });
      const dom = await page.content();
      const layout = await measure(page);
      const suffix = width === PHONE ? "-phone" : "";
      if (name) await page.screenshot({ path: join(SHOTS, `${name}${width === PHONE ? "-phone" : "-top"}.png`) });
      for (const id of sections) await (await page.$(`section#${id}`))?.screenshot({ path: join(SHOTS, `${name}-${id}${suffix}.png`) });
      // the A4 print layout renders (the page's @page rule), without error
      if (print) expect((await page.pdf({ preferCSSPageSize: true, printBackground: true })).length).toBeGreaterThan(1000);
      return { document: parseHTML(dom).document as unknown as Document, others, layout };
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

  it("catches a page wider than the phone and a chart label outside its SVG (the layout check can fail)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "denom-control-")), "wide.html");
    writeFileSync(
      file,
      '<!doctype html><body style="margin:0"><div id="wide" style="width:600px">wide</div>' +
        '<div class="scroll" style="overflow-x:auto"><table id="boxed" style="width:900px"><tr><td>scrolls in its box</td></tr></table></div>' +
        '<svg width="100" height="40"><text x="60" y="20">outside the box</text><text x="5" y="20">in</text></svg></body>',
    );
    const { layout } = await open(file, null, [], PHONE);
    expect(layout.viewport).toBe(PHONE);
    expect(layout.scrollWidth).toBe(600);
    expect(layout.overflowing).toEqual(["div#wide 0..600"]);
    expect(layout.clipped).toHaveLength(1);
    expect(layout.clipped[0]).toMatch(/^\?: "outside the box" x 60\.\.\d+ of 100$/);
    expect(layout.scrolled).toEqual(["boxed"]);
  });

  it("lays seed-100's page out at 1280 and 390 px: no sideways scrolling, wide tables scroll in their box, no label out of its chart", async () => {
    const input = relative(process.cwd(), join(ROOT, "samples", "seed-100.jsonl"));
    const { file } = await htmlReport([input]);
    const wide = (await open(file, null)).layout;
    expectFits(wide, "seed-100 at 1280 px");
    expect(wide.scrolled).toEqual([]);
    const phone = (await open(file, "seed-100", [], PHONE)).layout;
    expectFits(phone, "seed-100 at 390 px");
    // the sources table (hash and counts) is wider than a phone: it scrolls in its box, the page does not
    expect(phone.scrolled).toContain("table-sources");
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

  it("lays the compare page out at 1280 and 390 px: no sideways scrolling, the cells table scrolls in its box", async () => {
    const input = relative(process.cwd(), join(ROOT, "samples", "two-agents.jsonl"));
    const file = join(mkdtempSync(join(tmpdir(), "denom-compare-")), "compare.html");
    expect((await denom(["compare", input, "--by", "agent", "--baseline", "planner-v1", "--format", "html", "-o", file])).code).toBe(0);
    const wide = (await open(file, null)).layout;
    expectFits(wide, "compare at 1280 px");
    expect(wide.scrolled).toEqual([]);
    const phone = await open(file, "compare-two-agents", [], PHONE);
    expectFits(phone.layout, "compare at 390 px");
    // 13 columns do not fit 390 px: the table scrolls, its first column (the cell) first
    expect(phone.layout.scrolled).toContain("table-cells");
    expect([...phone.document.querySelectorAll("#table-cells thead th")].slice(0, 4).map((th) => th.textContent)).toEqual([
      "cell",
      "B - A (points)",
      "95% CI",
      "p",
    ]);
  });

  it("lays out the report of 100,000 trials at 1280 and 390 px, its axes in compact units and no label cut", async () => {
    const dir = mkdtempSync(join(tmpdir(), "denom-large-"));
    writeFileSync(join(dir, "large.jsonl"), largeInput(100_000));
    const { file } = await htmlReport([join(dir, "large.jsonl")]);
    // the layout only: printing a page this long adds seconds and checks nothing the small pages do not
    const wide = await open(file, "large-100k", ["grid", "waterfall"], WIDE, false);
    expectFits(wide.layout, "100,000 trials at 1280 px");
    // at 1280 px every table fits: the grid, too wide beside its chart, goes under it
    expect(wide.layout.scrolled).toEqual([]);
    expectFits((await open(file, null, [], PHONE)).layout, "100,000 trials at 390 px");
    const d = wide.document;
    // by hand: 33,333 groups of 3 records make 66,666 tasks, record 99,999 one more: 66,667 tasks;
    // i % 3 == 0 for 33,334 of i = 0..99,999, so 33,334 successes; 33,333 timeouts leave completable
    expect(d.querySelector("h1")?.textContent).toBe("denom 0.1.0: 66,667 tasks, 100,000 trials, 100,000 attempts");
    expect(text(d, '#table-grid td[data-cell="final/total"][data-figure="ratio"]')).toBe("33334/100000");
    expect(text(d, '#table-waterfall td[data-cell="final/completable"][data-figure="kept"]')).toBe("66667");
    // the waterfall's axis reads 100k, not 100000; its kept bars' labels 100,000 and 66,667
    const waterfall = [...d.querySelectorAll("section#waterfall svg text")].map((t) => t.textContent);
    expect(waterfall).toContain("100k");
    expect(waterfall).not.toContain("100000");
    expect(waterfall).toContain("66,667");
    // the 33,333 timeouts (none with events) one row; its first 300 attempts named
    expect(text(d, '#table-timeout-evidence td[data-figure="attempts"]')).toBe("33,333");
    const ids = [...d.querySelectorAll('#table-timeout-evidence td[data-figure="ids"] li')].map((li) => li.textContent);
    expect(ids).toHaveLength(301);
    expect(ids[0]).toBe("task-000001: trial 0");
    expect(ids[300]).toBe("… and 33,033 more attempts: denom timeouts lists them all");
  });

  // 2 x 50,000 = 10^5 trials: compare is the slower command (8 s alone on the shared 2-core machine, twice that under load)
  it("lays out the compare page of 2 x 50,000 trials at 1280 and 390 px", async () => {
    const dir = mkdtempSync(join(tmpdir(), "denom-large-"));
    writeFileSync(join(dir, "a.jsonl"), largeInput(50_000));
    writeFileSync(join(dir, "b.jsonl"), largeInput(50_000, true));
    const file = join(dir, "compare.html");
    const r = await denom(["compare", join(dir, "a.jsonl"), join(dir, "b.jsonl"), "--format", "html", "-o", file]);
    expect(r.code, r.stderr).toBe(0);
    const wide = await open(file, null, [], WIDE, false);
    expectFits(wide.layout, "compare of 2 x 50,000 trials at 1280 px");
    expectFits((await open(file, null, [], PHONE)).layout, "compare of 2 x 50,000 trials at 390 px");
    // by hand: i % 3 == 0 for 16,667 of i = 0..49,999 (A: 0, 3, ..., 49,998); i % 2 == 0 for 25,000 (B)
    const cell = (figure: string) => text(wide.document, `#table-cells td[data-cell="final/total"][data-figure="${figure}"]`);
    expect([cell("baseline"), cell("candidate")]).toEqual(["16,667/50,000 33.3%", "25,000/50,000 50.0%"]);
  });

  it("draws every chart at 1,000,000 trials with long names and no label outside its SVG, at 1280 and 390 px", async () => {
    // figures of a run of 1,000,000 trials, written out (no report computes them): the chain keeps
    // 1,000,000, 1,000,000, 950,000 and 700,000 trials, 333,334 successes on both bases
    const chain = [
      ["total", 1_000_000, 0],
      ["valid", 1_000_000, 1_000_000],
      ["attributable", 950_000, 1_000_000],
      ["completable", 700_000, 950_000],
    ] as const;
    const rates = (["first", "final"] as const).flatMap((basis) =>
      chain.map(([denominator, count]) => ({
        basis,
        denominator,
        successes: 333_334,
        count,
        rate: 333_334 / count,
        ci95: [0.33, 0.34] as [number, number],
        ci_method: "wilson" as const,
      })),
    );
    const waterfall = (["first", "final"] as const).flatMap((basis) =>
      chain.flatMap(([denominator, kept, before], step) => [
        { basis, step, denominator, part: "kept" as const, fault: null, reason: null, trials: kept, y_lo: 0, y_hi: kept },
        ...(before > kept
          ? [{ basis, step, denominator, part: "removed" as const, fault: "agent", reason: "timeout", trials: before - kept, y_lo: kept, y_hi: before }]
          : []),
      ]),
    );
    const statuses = [
      { status: "success", status_detail: null, first: 333_334, final: 333_334 },
      { status: "timeout", status_detail: null, first: 300_000, final: 250_000 },
      { status: "aborted", status_detail: "external_api_error", first: 50_000, final: 50_000 },
      { status: "unrecognized", status_detail: "a status no map names", first: 316_666, final: 366_666 },
    ];
    const bins = ["success", "timeout", "unrecognized"].flatMap((status) =>
      [0, 1, 2, 3].map((bin) => ({ status, bin, bin_lo_s: bin * 3000, bin_hi_s: (bin + 1) * 3000, attempts: 250_000 })),
    );
    const blocks = Array.from({ length: 100 }, (_, block) =>
      ["success", "timeout"].map((status) => ({ block, first_task: `t${block}`, last_task: `t${block}z`, tasks: 10_000, status, trials: 5_000 })),
    ).flat();
    const long = "anthropic/claude-sonnet-4-20250514-thinking-with-a-long-suffix";
    const groups = [long, "qwen"].map((value) => ({ value, rates, pass_at_k: [], efficiency: {} as never, per_call: [] }));
    const waffle = Array.from({ length: 50 }, (_, i) => ({
      run_id: `${long}-run`,
      task_id: `t${i}`,
      trial: 1,
      task_index: i + 1,
      slot_index: 1,
      task_band: 0,
      task_column: i,
      status: "success",
      status_detail: null,
      attempts: 1,
      trial_wall_s: 10,
    }));
    const svgs = [
      charts.rateGridChart(rates),
      charts.waterfallChart(waterfall),
      charts.statusDetailChart(statuses),
      charts.transitionsChart([
        { first: "timeout", final: "success", count: 1_000_000 },
        { first: "unrecognized", final: "unrecognized", count: 366_666 },
      ]),
      charts.timeoutCauseChart({ queue: 0, external: 0, loop: 0, sluggish: 0, unknown: 1_000_000 }),
      charts.durationHistogramChart(bins, [12_000]),
      charts.taskBlockChart(blocks),
      charts.groupRatesChart(groups),
      charts.differenceChart(rates.map((r) => ({ basis: r.basis, denominator: r.denominator, difference: 0.5, ci95: [0.4, 0.6] }))),
      charts.waffleChart(waffle, (c) => `${c.run_id} · trial ${c.trial}`),
    ];
    expect(svgs.every((svg) => svg.includes("<svg"))).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), "denom-charts-")), "charts.html");
    writeFileSync(
      file,
      htmlPage(
        "charts at 10^6",
        "",
        svgs.map((svg, i) => section(`chart-${i}`, `chart ${i}`, pair(svg, ""))),
        {},
        "test",
      ),
    );
    const wide = await open(file, null);
    expectFits(wide.layout, "charts at 1280 px");
    expectFits((await open(file, null, [], PHONE)).layout, "charts at 390 px");
    const texts = (i: number) => [...wide.document.querySelectorAll(`section#chart-${i} svg text`)].map((t) => t.textContent);
    // the counts right of the grid in full, the waterfall's axis in compact units: 0, 200k, ..., 1M
    expect(texts(0)).toContain("final 333,334/1,000,000");
    expect(texts(1)).toEqual(expect.arrayContaining(["200k", "1M", "1,000,000", "700,000"]));
    expect(texts(4)).toContain("1,000,000");
    // a name longer than its margin is shortened, in full in the dots' titles
    expect(texts(7).some((t) => t?.startsWith("anthropic/") && t.endsWith("…"))).toBe(true);
  });

  it.skipIf(!hasShared)("shows the Terminal-Bench orchestrator run's numbers and makes no request but the page", async () => {
    const input = relative(process.cwd(), join(REAL, "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet"));
    const { file } = await htmlReport([input]);
    const { document, others, layout } = await open(file, "terminal-bench", ["status", "waffle", "pass-at-k", "timeouts"]);
    expect(others).toEqual([]);
    expectFits(layout, "Terminal-Bench at 1280 px");
    expectFits((await open(file, null, [], PHONE)).layout, "Terminal-Bench at 390 px");
    expectPageMatchesJson(document, (await denom(["report", input, "--json"])).json());
    expect(statSync(join(SHOTS, "terminal-bench-top.png")).size).toBeGreaterThan(10_000);
  });
});
