/**
 * OpenDevin's earlier evaluation outputs (OpenHands up to v1.x, mid-2024), read
 * by the openhands-output adapter: each benchmark wrote its own id key and
 * verdict, and `history` as `[action, observation]` pairs.
 *
 * The real run (test/fixtures/real/opendevin-v1.5-gorilla-apibench, MIT) is
 * counted by hand in its PROVENANCE.md: hf 22/100, tf 39/89, torch 63/80
 * (`correct` true per line), 269 questions whose ids repeat across hubs. The
 * other shapes are written here in the shape their writers give them
 * (evaluation/logic_reasoning/run_infer.py: `{id, instance, instruction,
 * history, metrics, final_message, messages, error, test_result: {result}}`;
 * evaluation/mint/run_infer.py: `test_result` a bare boolean; MiniWoB: a bare
 * reward), with counts worked out from the records below.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cell, denom, FIXTURES, jsonl, once, tempDir } from "./helpers.js";

type Out = any;
const GORILLA = join(FIXTURES, "real", "opendevin-v1.5-gorilla-apibench");
const report = once(async () => denom(["report", "--json", GORILLA]));

/** One action/observation pair as OpenDevin wrote it (`event_to_dict` of each). */
const pair = (at: string, action: string, source = "agent") => [
  { id: 1, timestamp: at, source, message: "m", action, args: { command: "ls", thought: "t" } },
  { message: "No observation", observation: "null", content: "", extras: {} },
];

describe("OpenDevin Gorilla APIBench outputs (real, MIT)", () => {
  it("reads every line: 3 metadata files and 269 questions, nothing rejected", async () => {
    const r = await report();
    expect(r.code).toBe(0);
    const out: Out = r.json();
    // 100 + 89 + 80 output lines, plus one metadata_<hub>.json per hub
    expect([out.accounting.lines, out.accounting.records, out.accounting.rejected]).toEqual([272, 272, 0]);
    expect(out.meta.trials).toBe(269);
    const adapters = out.meta.sources.map((s: { adapter: string }) => s.adapter).sort();
    expect(adapters).toEqual([
      "openhands-output",
      "openhands-output",
      "openhands-output",
      "openhands-run-metadata",
      "openhands-run-metadata",
      "openhands-run-metadata",
    ]);
  });

  it("keeps each hub a run and a benchmark of its own: hf 22/100, tf 39/89, torch 63/80, none quoted for all", async () => {
    const out: Out = (await report()).json();
    expect(out.meta.grouping).toMatchObject({ figure_to_quote: "each_group", groups: 3 });
    const byGroup = Object.fromEntries(
      out.groups.map((g: Out) => {
        const c = g.rates.find((x: Out) => x.basis === "final" && x.denominator === "total");
        return [g.value, `${c.successes}/${c.count}`];
      }),
    );
    expect(byGroup).toEqual({
      "benchmark openhands-output hf": "22/100",
      "benchmark openhands-output tf": "39/89",
      "benchmark openhands-output torch": "63/80",
    });
  });

  it("never makes question 1 of three hubs one task: --pool gives 124/269 over 269 tasks", async () => {
    const r = await denom(["report", "--json", "--pool", GORILLA]);
    const out: Out = r.json();
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([124, 269]);
    expect(out.meta.tasks).toBe(269);
    const q = await denom(["export", "--what", "trials", "--format", "csv", GORILLA]);
    const tasks = q.stdout.split(/\r?\n/).filter((l) => /(^|,)(hf|tf|torch)\/1,/.test(l));
    expect(tasks.length).toBe(3);
  });
});

describe("OpenDevin outputs in the other shapes its benchmarks wrote", () => {
  it("logic reasoning (`id`, test_result.result): 2 of 3 correct; its metadata.json is the run's summary", async () => {
    const line = (id: string, result: boolean) => ({
      id,
      instance: { id, answer: "A" },
      instruction: "solve",
      history: [pair("2024-06-01T10:00:00", "run"), pair("2024-06-01T10:00:30", "finish")],
      metrics: { accumulated_cost: 0.01 },
      final_message: "A",
      messages: [],
      error: null,
      test_result: { result },
    });
    const dir = tempDir({
      "output.jsonl": jsonl(line("ProntoQA_1", true), line("ProntoQA_2", false), line("ProntoQA_3", true)),
      "metadata.json": JSON.stringify({
        Dataset: "ProntoQA",
        "Data split": "validation",
        "Number of Samples": 3,
        "Agent class": "CodeActAgent",
        "Model name": "gpt-4",
        Start_time: "2024-06-01 10:00:00",
        End_time: "2024-06-01 10:05:00",
        "Final Accuracy": "0.67",
      }),
    });
    const r = await denom(["report", "--json", dir]);
    expect(r.code).toBe(0);
    const out: Out = r.json();
    expect([out.accounting.records, out.accounting.rejected]).toEqual([4, 0]);
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([2, 3]);
    // $0.01 on each of 3 attempts
    expect(out.efficiency.cost_usd_total).toBeCloseTo(0.03, 10);
    // first and last action 30 s apart; the `null` observations are no events
    expect(out.efficiency.duration_s.mean).toBe(30);
  });

  it("MINT (`test_result` a bare boolean) decides; MiniWoB's bare reward decides nothing (not_evaluated)", async () => {
    const mint = (id: string, passed: boolean) => ({
      id,
      instance: {},
      instruction: "i",
      metadata: { agent_class: "CodeActAgent", model_name: "gpt-4" },
      history: [pair("2024-06-01T10:00:00", "run")],
      metrics: {},
      error: null,
      test_result: passed,
    });
    const miniwob = {
      instance_id: "click-button",
      instruction: "i",
      metadata: { agent_class: "BrowsingAgent" },
      history: [],
      metrics: {},
      error: null,
      test_result: 1,
    };
    const dir = tempDir({ "output_mint.jsonl": jsonl(mint("m1", true), mint("m2", false)), "output_miniwob.jsonl": jsonl(miniwob) });
    const out: Out = (await denom(["report", "--json", "--pool", dir])).json();
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([1, 3]);
    const details = Object.fromEntries(out.status_detail_counts.map((d: Out) => [`${d.status}/${d.status_detail ?? "-"}`, d.final]));
    expect(details).toEqual({ "success/-": 1, "failure/-": 1, "unrecognized/-": 1 });
  });

  it("refuses a Gorilla line whose `correct` is a text, naming openhands-output, and reads the others", async () => {
    const good = {
      question_id: 1,
      text: "t",
      correct: true,
      hallucination: false,
      metadata: { hub: "hf" },
      history: [pair("2024-05-26T07:00:00", "message")],
      error: null,
    };
    const bad = { ...good, question_id: 2, correct: "true" };
    const dir = tempDir({ "output_m_hf.jsonl": jsonl(good, bad, { ...good, question_id: 3, correct: false }) });
    const r = await denom(["report", "--json", dir]);
    const out: Out = r.json();
    expect([out.accounting.records, out.accounting.rejected]).toEqual([2, 1]);
    expect(out.rejects[0].reason).toContain("looks like openhands-output");
    expect(out.rejects[0].reason).toContain("correct: expected a boolean or null, got a string");
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([1, 2]);
  });

  it("refuses a legacy `id` record whose history is not [action, observation] pairs, never reading it as another format", async () => {
    const rec = { id: "p1", instruction: "i", history: [{ action: "run" }], error: null, test_result: { result: true } };
    const r = await denom(["report", "-"], jsonl(rec));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("looks like openhands-output");
    expect(r.stderr).toContain("history: expected a list of arrays");
  });
});
