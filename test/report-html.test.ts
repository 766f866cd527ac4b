/**
 * `denom report --format html`: one self-contained page whose grid, waterfall and
 * status numbers are the JSON report's (read here from the page's table cells, by
 * their data-* attributes, with linkedom), with nothing it would fetch, text from
 * the inputs escaped, and under 1 MB for 10,000 trials. The page in a real browser:
 * report-html-browser.test.ts.
 */
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { beforeAll, describe, expect, it } from "vitest";
import { denom, hasShared, jsonl, REAL, ROOT, tempDir } from "./helpers.js";
import { expectPageMatchesJson, htmlReport, pct, text } from "./html-helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");
const TB = join(REAL, "terminal-bench-1", "20250902_orchestrator_claude-4-sonnet");

describe("report --format html", () => {
  let seed: Awaited<ReturnType<typeof htmlReport>>;
  beforeAll(async () => {
    seed = await htmlReport([SEED]);
  });

  it("holds seed-100's grid, waterfall and status numbers, equal to the JSON report's", async () => {
    const { html, document } = seed;
    const json = (await denom(["report", SEED, "--json"])).json();
    expectPageMatchesJson(document, json);
    // by hand (DESIGN section 4): first 70/100 70/100 70/90 70/70; final 82/100 82/100 82/94 82/85
    const ratio = (key: string) => text(document, `#table-grid td[data-cell="${key}"][data-figure="ratio"]`);
    expect(["first/total", "first/valid", "first/attributable", "first/completable"].map(ratio)).toEqual(["70/100", "70/100", "70/90", "70/70"]);
    expect(["final/total", "final/valid", "final/attributable", "final/completable"].map(ratio)).toEqual(["82/100", "82/100", "82/94", "82/85"]);
    // the chain: 10 first attempts (6 final) hit the external API error; 12 + 8 = 20 first attempts
    // timed out, 9 trials still time out at the end
    const step = (key: string, figure: string) => text(document, `#table-waterfall td[data-cell="${key}"][data-figure="${figure}"]`);
    expect([step("first/attributable", "removed"), step("first/attributable", "reasons")]).toEqual(["10", "aborted (external_api_error) 10"]);
    expect([step("final/attributable", "removed"), step("final/completable", "removed")]).toEqual(["6", "9"]);
    expect(step("first/completable", "reasons")).toBe("timeout, cause unknown 20");
    // final statuses: 70 + 8 + 4 = 82 success, 9 timeout, 6 aborted, 3 failure
    const final = (s: string) => text(document, `#table-status td[data-status="${s}"][data-basis="final"]:not([data-detail])`);
    expect(["success", "timeout", "aborted", "failure"].map(final)).toEqual(["82", "9", "6", "3"]);
    // first -> final: 8 timeouts and 4 API errors rescued, 3 timeouts ended as failures
    expect(text(document, '#table-transitions td[data-first="timeout"][data-final="success"]')).toBe("8");
    expect(text(document, '#table-transitions td[data-first="aborted"][data-final="success"]')).toBe("4");
    // one chart per section as inline SVG; 100 tasks x 1 trial = 100 waffle cells, each with a title
    expect(document.querySelectorAll("section#waffle svg rect title").length).toBe(100);
    expect(document.querySelector("section#durations svg")).not.toBeNull();
    expect(html).toContain("limit 300 s");
    // each of the 29 timeout attempts (20 first + 9 retried) listed with its evidence
    expect(document.querySelectorAll("#table-timeout-evidence tbody tr").length).toBe(29);
  });

  it("is self-contained: no script, no external resource, a policy that forbids fetching", () => {
    const { html, document } = seed;
    expect(document.querySelectorAll("script, link, img, iframe, object, embed").length).toBe(0);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:|\/\/)/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content")).toContain("default-src 'none'");
    // links are in-page anchors only
    for (const a of document.querySelectorAll("a")) expect(a.getAttribute("href")).toMatch(/^#/);
    expect(html).toContain("@page { size: A4");
  });

  it("escapes text from the inputs in tables and charts", async () => {
    const evil = '<img src=x onerror="alert(1)">';
    const dir = tempDir({
      "runs.jsonl": jsonl(
        { task_id: evil, status: "failure", status_detail: "</title><script>alert(2)</script>" },
        { task_id: "b", status: "timeout" },
        { task_id: "c", status: "success" },
      ),
    });
    // -o - writes the page to stdout
    const r = await denom(["report", join(dir, "runs.jsonl"), "--format", "html", "-o", "-"]);
    expect(r.code, r.stderr).toBe(0);
    const html = r.stdout;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    const document = parseHTML(html).document as unknown as Document;
    expect(document.querySelectorAll("script, img").length).toBe(0);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    // the task id reads as written in its waffle cell's title, the detail in the status table
    const titles = [...document.querySelectorAll("section#waffle svg title")].map((t) => t.textContent ?? "");
    expect(titles.some((t) => t.includes(`task ${evil}`))).toBe(true);
    expect(text(document, '#table-status td[data-status="failure"][data-detail="</title><script>alert(2)</script>"]:not([data-basis])')).toBe(
      "↳ </title><script>alert(2)</script>",
    );
  });

  it("stays under 1 MB for 10,000 trials: the waffle draws blocks of tasks", async () => {
    // 2,000 tasks x 5 trials; trial t of task i: success when (i + t) % 3 == 0, timeout when
    // (i + t) % 7 == 1, else failure; 60 s limit, durations 10..59 s
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++)
      for (let t = 0; t < 5; t++) {
        const status = (i + t) % 3 === 0 ? "success" : (i + t) % 7 === 1 ? "timeout" : "failure";
        const start = Date.UTC(2025, 0, 1, 0, 0, 0) / 1000 + i * 5 + t;
        const duration = status === "timeout" ? 60 : 10 + ((i * 7 + t) % 50);
        lines.push(
          JSON.stringify({
            task_id: `task-${String(i).padStart(4, "0")}`,
            trial: t,
            status,
            started_at: start,
            ended_at: start + duration,
            timeout_limit_s: 60,
          }),
        );
      }
    const dir = tempDir({ "big.jsonl": `${lines.join("\n")}\n` });
    const { html, document } = await htmlReport([join(dir, "big.jsonl")]);
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(document.querySelector("section#waffle h2")?.textContent).toContain("blocks of tasks");
    // 2,000 tasks in blocks of 20: 100 blocks, each a stack of at most 3 statuses
    const segments = document.querySelectorAll("section#waffle svg rect title");
    expect(segments.length).toBeGreaterThanOrEqual(100);
    expect(segments.length).toBeLessThanOrEqual(300);
    expect(segments[0].textContent).toMatch(/^tasks task-0000 \.\. task-0019 \(20\): /);
  });

  it("shows the groups of --by side by side, each group's cells equal to the JSON report's", async () => {
    const input = join(ROOT, "samples", "two-agents.jsonl");
    const { document } = await htmlReport([input], ["--by", "agent"]);
    const json = (await denom(["report", input, "--by", "agent", "--json"])).json();
    const head = [...document.querySelectorAll("#table-groups thead th")].map((th) => th.textContent);
    expect(head).toEqual(["", ...json.groups.map((g: any) => g.value ?? "(none)")]);
    // one agent and one model a group: each group's final/total is its figure to quote, marked *
    const row = [...document.querySelectorAll("#table-groups tbody tr")].find((tr) => tr.firstElementChild?.textContent === "final/total *");
    const cells = [...(row?.querySelectorAll("td") ?? [])].slice(1).map((td) => td.textContent);
    expect(cells).toEqual(
      json.groups.map((g: any) => {
        const r = g.rates.find((x: any) => x.basis === "final" && x.denominator === "total");
        return `${r.successes}/${r.count} ${pct(r.rate)}`;
      }),
    );
    expect(document.querySelector("section#groups svg")).not.toBeNull();
  });

  it("refuses --json beside --format html", async () => {
    const both = await denom(["report", SEED, "--format", "html", "--json"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--json and --format html ask for two outputs");
  });
});

describe.skipIf(!hasShared)("report --format html on Terminal-Bench 1 (../shared, read in place)", () => {
  it("holds the orchestrator run's grid, waterfall and status numbers, equal to the JSON report's", async () => {
    const { document } = await htmlReport([TB]);
    const json = (await denom(["report", TB, "--json"])).json();
    expectPageMatchesJson(document, json);
    // PROVENANCE.md hand counts: 400 trials; failure_mode agent_timeout 117, unknown_agent_error 10;
    // resolved 144, of them 27 agent timeouts (late passes): 117 successes
    const ratio = (key: string) => text(document, `#table-grid td[data-cell="${key}"][data-figure="ratio"]`);
    expect(["final/total", "final/attributable", "final/completable"].map(ratio)).toEqual(["117/400", "117/390", "117/273"]);
    expect(text(document, '#table-waterfall td[data-cell="final/completable"][data-figure="reasons"]')).toBe("timeout, cause unknown 117");
    // 80 tasks x 5 trials: one cell each
    expect(document.querySelectorAll("section#waffle svg rect title").length).toBe(400);
  });
});
if (!hasShared) console.log("skipped: HTML report on Terminal-Bench 1 (../shared/data/real not present)");
