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
    // the 29 timeout attempts (20 first + 9 retried) have one evidence, "no agent events recorded"
    // (seed-100 records no events): one row with their count
    const rows = document.querySelectorAll("#table-timeout-evidence tbody tr");
    expect(rows.length).toBe(1);
    expect(text(document, '#table-timeout-evidence td[data-figure="attempts"]')).toBe("29");
    expect(text(document, '#table-timeout-evidence td[data-figure="evidence"]')).toBe("no agent events recorded");
    // their ids: 20 trials (one a task) whose first attempt timed out; of them 8 passed and 3 failed on the
    // retry, 9 timed out again (README: "timeout -> success 8", "timeout -> failure 3", final timeouts 9)
    const ids = [...document.querySelectorAll('#table-timeout-evidence td[data-figure="ids"] details li')].map((li) => li.textContent ?? "");
    expect(ids).toHaveLength(20);
    expect(ids.filter((l) => l.endsWith(": trial 0 (attempts 1, 2)"))).toHaveLength(9);
    expect(ids.filter((l) => l.endsWith(": trial 0"))).toHaveLength(11);
    expect(text(document, '#table-timeout-evidence td[data-figure="ids"] summary')).toMatch(/^t\d+: trial 0 and 19 more tasks$/);
  });

  it("marks the figure to quote in the grid: final/total's three cells, as the text report's *", () => {
    const { document } = seed;
    const marked = [...document.querySelectorAll("#table-grid td[data-quote]")].map(
      (td) => `${td.getAttribute("data-cell")} ${td.getAttribute("data-figure")}`,
    );
    expect(marked).toEqual(["final/total ratio", "final/total rate", "final/total ci95"]);
    expect(text(document, '#table-grid td[data-cell="final/total"][data-figure="ci95"]')).toMatch(/ \*$/);
    expect(text(document, '#table-grid td[data-cell="final/total"][data-figure="rate"]')).toBe("82.0%");
    // no other cell of the grid ends in the mark
    expect([...document.querySelectorAll("#table-grid td")].filter((td) => (td.textContent ?? "").endsWith("*"))).toHaveLength(1);
    expect(text(document, "section#grid p.quote-line")).toBe("* the figure to quote: 82/100 = 82.0% (final/total: every trial counted)");
  });

  it("groups timeout attempts identical in every shown column but their ids into one row with the count", async () => {
    // timeouts-mix.jsonl: six timeouts, one per rule, each with its own evidence (README, denom timeouts);
    // to-unknown-3 adds two attempts of one trial with no events, the evidence of to-unknown-1
    const extra = jsonl(
      ...[1, 2].map((attempt) => ({
        task_id: "to-unknown-3",
        attempt,
        status: "timeout",
        started_at: `2025-06-02T1${attempt}:00:00Z`,
        ended_at: `2025-06-02T1${attempt}:05:00Z`,
        timeout_limit_s: 300,
      })),
    );
    const dir = tempDir({ "extra.jsonl": extra });
    const { document } = await htmlReport([join(ROOT, "samples", "timeouts-mix.jsonl"), join(dir, "extra.jsonl")]);
    const rows = [...document.querySelectorAll("#table-timeout-evidence tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => (td.querySelector("summary")?.textContent ?? td.textContent ?? "").trim()),
    );
    expect(rows.map((r) => r.slice(0, 2))).toEqual([
      ["queue", "1"],
      ["external", "1"],
      ["loop", "1"],
      ["sluggish", "1"],
      ["unknown", "3"],
      ["unknown", "1"],
    ]);
    expect(rows[2].slice(2)).toEqual(["read_file {path: notes.txt} called 7 times in a row", "to-loop: trial 0"]);
    expect(rows[4].slice(2)).toEqual(["no agent events recorded", "to-unknown-1: trial 0 and 1 more task"]);
    expect([...document.querySelectorAll("#table-timeout-evidence tr:nth-child(5) li")].map((li) => li.textContent)).toEqual([
      "to-unknown-1: trial 0",
      "to-unknown-3: trial 0 (attempts 1, 2)",
    ]);
    expect(rows[5][3]).toBe("to-unknown-2: trial 0");
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
        { task_id: evil, trial: 1, status: "timeout" },
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
    // and in the ids of the timeout row (b and the evil task time out with no events: one row, two tasks)
    const ids = [...document.querySelectorAll('#table-timeout-evidence td[data-figure="ids"] li')].map((li) => li.textContent);
    expect(ids.sort()).toEqual([`${evil}: trial 1`, "b: trial 0"].sort());
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
    // those cells are the page's marked ones: each group's own, none in the pooled grid
    const marked = [...document.querySelectorAll("td[data-quote]")];
    expect(marked.map((td) => td.closest("tr")?.firstElementChild?.textContent)).toEqual(["final/total *", "final/total *"]);
    expect(marked.map((td) => td.textContent)).toEqual(["7/24 29.2%", "19/24 79.2%"]);
    expect(document.querySelector("section#grid p.quote-line")?.textContent).toMatch(/^\* no figure for all 2 groups: each group's final\/total/);
  });

  it("draws each group at its cost per solved task and its rate, and no such chart without costs", async () => {
    // alpha: 4 tasks, 3 pass, $0.50 an attempt: $2.00 / 3 = $0.6667 per solved task, 3/4 = 75.0%;
    // bravo: 4 tasks, 2 pass, $0.25 an attempt: $1.00 / 2 = $0.5000, 2/4 = 50.0%
    const rows = (agent: string, passes: number, cost_usd: number) =>
      [0, 1, 2, 3].map((t) => ({ task_id: `t${t}`, agent, status: t < passes ? "success" : "failure", cost_usd }));
    const dir = tempDir({ "cost.jsonl": jsonl(...rows("alpha", 3, 0.5), ...rows("bravo", 2, 0.25)) });
    const { document } = await htmlReport([join(dir, "cost.jsonl")], ["--by", "agent"]);
    const titles = [...document.querySelectorAll("section#groups svg title")].map((t) => t.textContent).filter((t) => t?.includes("per solved task"));
    expect(titles).toEqual(["alpha: $0.6667 per solved task, 75.0% final/total", "bravo: $0.5000 per solved task, 50.0% final/total"]);
    // the same runs without a cost: the groups section has its rate chart only
    const bare = tempDir({ "bare.jsonl": jsonl(...[...rows("alpha", 3, 0), ...rows("bravo", 2, 0)].map(({ cost_usd: _, ...r }) => r)) });
    const none = await htmlReport([join(bare, "bare.jsonl")], ["--by", "agent"]);
    expect(none.html).toContain('id="groups"');
    expect(none.html).not.toContain("cost per solved task (USD, final/total)");
  });

  it("marks each group's figure to quote in the one-row-a-group table of many groups", async () => {
    // 7 agents (more than the 6 shown side by side), one model: agent g1..g7 has 2 trials, g1..g3 pass both,
    // g4..g7 pass one: final/total 2/2 100.0% three times, 1/2 50.0% four times
    const records = [1, 2, 3, 4, 5, 6, 7].flatMap((g) =>
      [0, 1].map((trial) => ({ task_id: "t", trial, agent: `g${g}`, model: "m", status: g <= 3 || trial === 0 ? "success" : "failure" })),
    );
    const dir = tempDir({ "groups.jsonl": jsonl(...records) });
    const { document } = await htmlReport([join(dir, "groups.jsonl")], ["--by", "agent"]);
    expect([...document.querySelectorAll("#table-groups thead th")].map((th) => th.textContent)).toEqual([
      "group",
      "trials",
      "first/total",
      "final/total *",
      "final/attributable",
    ]);
    const marked = [...document.querySelectorAll("#table-groups td[data-quote]")].map((td) => td.textContent);
    expect(marked).toEqual(["2/2 100.0%", "2/2 100.0%", "2/2 100.0%", "1/2 50.0%", "1/2 50.0%", "1/2 50.0%", "1/2 50.0%"]);
    expect(document.querySelectorAll("#table-grid td[data-quote]").length).toBe(0);
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
    // the 117 agent timeouts leave no agent event to read (the run keeps none): one row of 117,
    // every one a first attempt (one attempt per trial), the trials listed by task add up to 117
    expect(document.querySelectorAll("#table-timeout-evidence tbody tr").length).toBe(1);
    expect(text(document, '#table-timeout-evidence td[data-figure="attempts"]')).toBe("117");
    expect(text(document, '#table-timeout-evidence td[data-figure="evidence"]')).toBe("no agent events recorded");
    const ids = [...document.querySelectorAll('#table-timeout-evidence td[data-figure="ids"] li')].map((li) => li.textContent ?? "");
    expect(ids.join("\n")).not.toContain("attempt");
    expect(ids.map((l) => l.replace(/^.*: trials? /, "").split(", ").length).reduce((a, b) => a + b, 0)).toBe(117);
  });
});
if (!hasShared) console.log("skipped: HTML report on Terminal-Bench 1 (../shared/data/real not present)");
