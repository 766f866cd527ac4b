/**
 * Inspect AI `.eval` archives: the real logs of ../shared/data/real
 * (hand counts in their PROVENANCE.md; skipped when that folder is absent), and
 * archives built here with yazl (test/eval-archives.ts), every figure worked
 * out by hand from the members written below.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { cell, denom, hasShared, REAL, ROOT, tarOf, tempDir } from "./helpers.js";
import { evalArchive, evalSpec, sample, zstdRawFrame, type Member } from "./eval-archives.js";
import { parsedSample, readEvalArchive } from "../src/formats/inspect-eval.js";
import { ZipArchive } from "../src/ingest/bytes/zip.js";
import { loadJsonStream } from "../src/ingest/records/reader.js";
import type { Unit } from "../src/ingest/types.js";
import { BigLiteral } from "../src/json-text.js";

type Out = any;
const grid = (out: Out, key: string) => [cell(out, key).successes, cell(out, key).count];
/** final/total per group of `--by`, as {value: [successes, count]}. */
const perGroup = (out: Out) => Object.fromEntries(out.groups.map((g: Out) => [g.value, grid(g, "final/total")]));

/** Writes archives into a fresh folder; returns the folder and the paths. */
async function archives(files: Record<string, Member[]>): Promise<{ dir: string; paths: string[] }> {
  const dir = tempDir();
  const paths: string[] = [];
  for (const [name, members] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, await evalArchive(members));
    paths.push(path);
  }
  return { dir, paths };
}

const tool = (ts: string, fn: string, args: object) => ({ event: "tool", timestamp: ts, function: fn, arguments: args, result: "big result never kept" });
const model = (ts: string, extra: object = {}) => ({ event: "model", timestamp: ts, model: "openai/m", input: ["never kept"], output: {}, ...extra });

describe("Inspect .eval logs of ../shared/data/real", () => {
  it.skipIf(!hasShared)("give each eval's accuracy as final/total, one run per eval (hand counts of PROVENANCE.md)", async () => {
    const dirs = ["inspect-ai-test-fixtures", "inspect-flow-evalset", "inspect-metr-hawk", "inspect-mmlu-gpt4"].map((d) => join(REAL, d));
    const r = await denom(["report", "--json", "--by", "run_id", ...dirs]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(perGroup(out)).toEqual({
      // inspect-mmlu-gpt4: C 223 of 285 (listing.json accuracy 0.7824561)
      "4BDAxLL9NuXrrTvX5UqUHE": [223, 285],
      // inspect-metr-hawk: small.eval 6 epochs all 1; class-eval 5 samples all C
      CLPhCQJvY7wQmn2ueDnBSn: [6, 6],
      HohPwG5cWUrsNzWFJYNsAF: [5, 5],
      // inspect-flow-evalset: gpqa x gpt-5 and x gpt-5-mini C C C C; mmlu x 2 models I
      dzZf2YdNwP6UenC4uEqKcu: [4, 4],
      mSZCspX5VLcohVxH4axkU2: [4, 4],
      JC25V3Z9kZkEW9K3EA8MU9: [0, 1],
      RsAxy9xB4DH98TmVricdtZ: [0, 1],
      // inspect-ai-test-fixtures with eval_id: mmlu I, I; guess_number 0.0; log_read_sample C
      hreidF96JC4WPV5AcxxAP5: [0, 1],
      Dj4Li7NchTfQSiX7eKXLLN: [0, 1],
      gsM63GyMBKgA3p4sHAMAfG: [0, 1],
      C3pqnFnsCUx6ZpmsRU9Ape: [1, 1],
      // older writers (no eval_id): run_id/task_id/model from each header
      "3RWm2YmdLiKCyQMzEcERin/WckPjG7ovQZLAiZF2fZpog/azureai/Meta-Llama-3-1-405B-Instruct-jqf": [3, 4], // log_streaming: C x3, I
      "BpiPFmbVcMCRUAXv8ovCTx/9eTnG3tV8jGRYoTPMH54Ee/ollama/llama3.1": [0, 1], // log_formats: I
      // custom.eval is the same blob as the input-task log: one identical duplicate, collapsed
      "PV42ZvREM6CdVdjeiEGW9e/hxs4q9azL3ySGkjJirypKZ/openai/gpt-4o-mini": [1, 1],
      "2wRuCQ9hGYaGPyAdoobgYV/mj7khqpMM4GBCfVQozKgzB/openai/gpt-4o-mini": [8, 10], // C x8, I x2
      "nnS4q9qsuCrCzsBcQLnBLA/dPiJifoWeEQBrfWsAopzWr/openai/gpt-4o-mini": [0, 10], // no scores: 10 unscored
    });
    expect(out.meta.runs).toBe(16);
    // 17 logs, 336 sample files + the duplicate's 1: 337 records
    expect([out.accounting.records, out.accounting.duplicates_identical, out.accounting.unrecognized]).toEqual([337, 1, 10]);
    // listing.json beside the mmlu log is skipped with a note, not read
    expect(out.meta.skipped_files.map((s: Out) => s.name)).toEqual([join(REAL, "inspect-mmlu-gpt4", "listing.json")]);
  });

  it.skipIf(!hasShared)("reproduce the published MMLU accuracy 0.7824561 as final/total through denom audit", async () => {
    const log = join(REAL, "inspect-mmlu-gpt4", "2025-07-30T18-42-38+00-00_mmlu_ZYEnfbu3nstBuwzjiAGzuG.eval");
    const r = await denom(["audit", "--json", "--claim", "0.7824561", log]);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.reproduced).toBe(true);
    expect(out.strict).toMatchObject({ successes: 223, count: 285 });
    expect(out.matches[0]).toMatchObject({ basis: "final", exclude: [], successes: 223, count: 285 });
  });

  it.skipIf(!hasShared)("keep waiting time (total_time - working_time) per attempt and tool calls from the events", async () => {
    const csv = join(tempDir(), "a.csv");
    const log = join(REAL, "inspect-metr-hawk", "small.eval");
    expect((await denom(["export", "--what", "attempts", "--out", csv, log])).code).toBe(0);
    const rows = parse(readFileSync(csv, "utf8"), { columns: true }) as Record<string, string>[];
    // PROVENANCE.md: total_time - working_time per epoch: 73.8-71.7, 226.4-58.6, 214.1-65.8, 67.8-66.0, 254.7-69.8, 240.5-58.3
    expect(rows.map((r) => Math.round(Number(r.waiting_s) * 10) / 10)).toEqual([2.1, 167.8, 148.3, 1.8, 184.9, 182.2]);
    // the sample's duration is its total_time when it has no started_at/completed_at
    expect(rows.map((r) => Math.round(Number(r.duration_s) * 10) / 10)).toEqual([73.8, 226.4, 214.1, 67.8, 254.7, 240.5]);
    // tool events per epoch (python: events with event == "tool"): 13 12 12 13 14 12
    expect(rows.map((r) => Number(r.tool_call_count))).toEqual([13, 12, 12, 13, 14, 12]);
  });
});

describe(".eval archives built with yazl", () => {
  const header = (spec: object, extra: object = {}) => ({
    version: 2,
    status: "success",
    eval: spec,
    results: { total_samples: 3, completed_samples: 3 },
    ...extra,
  });
  const spec = evalSpec({ eval_id: "E1", run_id: "R1", task: "popularity", model: "openai/m", ids: [1, 2, 3] });
  const monolith = (method: Member["method"]): Member[] => [
    { name: "header.json", content: header(spec), method },
    { name: "samples/1_epoch_1.json", content: sample(1, 1, "C"), method },
    { name: "samples/2_epoch_1.json", content: sample(2, 1, "I"), method },
    { name: "samples/3_epoch_1.json", content: sample(3, 1, 1.0), method },
    { name: "summaries.json", content: [], method },
    { name: "reductions.json", content: [], method },
  ];

  it("read monolith samples (deflate): C, I and 1.0 are 2 of 3, task ids carry the Inspect task", async () => {
    const { paths } = await archives({ "a.eval": monolith("deflate") });
    const out = (await denom(["report", "--json", ...paths])).json();
    expect(grid(out, "final/total")).toEqual([2, 3]);
    expect([out.meta.tasks, out.meta.trials, out.meta.runs]).toEqual([3, 3, 1]);
    const csv = join(tempDir(), "t.csv");
    await denom(["export", "--what", "trials", "--out", csv, ...paths]);
    expect(readFileSync(csv, "utf8")).toContain("popularity/2");
  });

  it("read zstd members as their deflate twin reads", async () => {
    const { paths } = await archives({ "z.eval": monolith("zstd"), "d.eval": monolith("deflate") });
    const z = (await denom(["report", "--json", paths[0]])).json();
    const d = (await denom(["report", "--json", paths[1]])).json();
    expect(grid(z, "final/total")).toEqual([2, 3]);
    expect(z.rates).toEqual(d.rates);
    expect(z.accounting.records).toBe(3);
  });

  it("read zstd members as a real encoder writes them, and a member of several frames (Inspect caps each frame)", async () => {
    // test/fixtures/inspect/sample-z1.json.zst: `zstd -19` of exactly this object's JSON.stringify
    const z1 = {
      id: "z1",
      epoch: 1,
      input: "compress me ".repeat(200),
      target: "T",
      scores: { match: { value: "C" } },
      events: Array.from({ length: 50 }, (_, i) => ({
        event: "tool",
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        function: "bash",
        arguments: { cmd: "ls " + (i % 3) },
        result: "x".repeat(100),
      })),
    };
    const s2 = JSON.stringify(sample(2, 1, "I"));
    const { paths } = await archives({
      "z.eval": [
        { name: "header.json", content: header(evalSpec({ eval_id: "Z", run_id: "R", task: "t", model: "m", ids: ["z1", 2] })), method: "zstd" },
        { name: "samples/z1_epoch_1.json", content: z1, method: "zstd", zstd: readFileSync(join(ROOT, "test", "fixtures", "inspect", "sample-z1.json.zst")) },
        // two frames: the first 40 bytes, then the rest
        {
          name: "samples/2_epoch_1.json",
          content: s2,
          method: "zstd",
          zstd: Buffer.concat([zstdRawFrame(Buffer.from(s2.slice(0, 40))), zstdRawFrame(Buffer.from(s2.slice(40)))]),
        },
      ],
    });
    const out = (await denom(["report", "--json", ...paths])).json();
    expect(grid(out, "final/total")).toEqual([1, 2]);
    // 50 tool events on z1, none on sample 2
    expect(out.efficiency.tool_calls_mean).toBe(50);
  });

  it("read a chunked sample's events from its events/{start}.json parts in order: five identical calls time out as a loop", async () => {
    const calls = [0, 1, 2, 3, 4].map((i) => tool(`2025-01-01T00:00:0${i}Z`, "bash", { cmd: "ls" }));
    const shell = {
      id: 7,
      epoch: 1,
      input: "x",
      target: "y",
      scores: { match: { value: "I" } },
      limit: { type: "time", limit: 60 },
      total_time: 60,
      working_time: 58,
    };
    const { paths } = await archives({
      "c.eval": [
        { name: "header.json", content: header(evalSpec({ eval_id: "E7", run_id: "R", task: "t", model: "m", ids: [7] })) },
        { name: "samples/7_epoch_1/sample.json", content: shell },
        { name: "samples/7_epoch_1/skeleton.json", content: {} },
        // written out of order: the reader sorts by start (0 before 2)
        { name: "samples/7_epoch_1/events/2.json", content: calls.slice(2) },
        { name: "samples/7_epoch_1/events/0.json", content: [model("2025-01-01T00:00:00Z"), ...calls.slice(0, 2)] },
        { name: "samples/7_epoch_1/events/stats.json", content: {} },
      ],
    });
    const out = (await denom(["report", "--json", ...paths])).json();
    expect(out.status_counts.final).toEqual({ timeout: 1 });
    // 5 consecutive bash {"cmd":"ls"} calls >= --loop-min 5; the wait share 2/60 is no queue
    expect(out.timeout_causes).toMatchObject({ loop: 1, queue: 0 });
    expect(out.efficiency.tool_calls_mean).toBe(5);
  });

  it("make a time-limit timeout whose waiting share reaches --queue-share a queue timeout, with the wait in words; never a working-limit one", async () => {
    const events = [0, 1, 2].map((i) => tool(`2025-01-01T00:00:0${i}Z`, "bash", { cmd: `step ${i}` }));
    const timedOut = (id: number, type: string, waiting: number) =>
      sample(id, 1, "I", { limit: { type, limit: 100 }, total_time: 100, working_time: 100 - waiting, events });
    const { paths } = await archives({
      "w.eval": [
        { name: "header.json", content: header(evalSpec({ eval_id: "W", run_id: "R", task: "t", model: "m", ids: [1, 2, 3] })) },
        // waiting 30 of the 100 s time limit: 30% >= 25%
        { name: "samples/1_epoch_1.json", content: timedOut(1, "time", 30) },
        // waiting 20 s: 20% < 25%
        { name: "samples/2_epoch_1.json", content: timedOut(2, "time", 20) },
        // a working limit excludes waiting: 60 s waited does not make it queue
        { name: "samples/3_epoch_1.json", content: timedOut(3, "working", 60) },
      ],
    });
    const r = await denom(["timeouts", "--json", ...paths]);
    const rows = r.json().map((t: Out) => [t.task_id, t.cause, t.queue_reason]);
    expect(rows).toEqual([
      ["t/1", "queue", "waiting"],
      ["t/2", "unknown", null],
      ["t/3", "unknown", null],
    ]);
    expect(r.json()[0].evidence).toBe("spent 30 s of the 100 s budget waiting, not working (total_time - working_time: rate limits, shared resources; 30%)");
    // a queue timeout is the environment's: out of attributable
    const out = (await denom(["report", "--json", ...paths])).json();
    expect(grid(out, "final/attributable")).toEqual([0, 2]);
    expect((await denom(["timeouts", "--json", "--queue-share", "0.2", ...paths])).json().map((t: Out) => t.cause)).toEqual(["queue", "queue", "unknown"]);
  });

  it("count model events with an error or retries, and tool events, as call-level figures", async () => {
    const events = [
      model("2025-01-01T00:00:00Z"),
      model("2025-01-01T00:00:05Z", { retries: 2 }),
      model("2025-01-01T00:00:09Z", { error: "rate limited" }),
      tool("2025-01-01T00:00:10Z", "bash", { cmd: "ls" }),
      { event: "tool", timestamp: "2025-01-01T00:00:11Z", function: "bash", arguments: {}, error: { type: "timeout", message: "t" } },
      { event: "span_begin", timestamp: "2025-01-01T00:00:12Z", name: "not kept" },
    ];
    const { paths } = await archives({
      "m.eval": [
        { name: "header.json", content: header(evalSpec({ eval_id: "M", run_id: "R", task: "t", model: "m", ids: [1] })) },
        { name: "samples/1_epoch_1.json", content: sample(1, 1, "C", { events }) },
      ],
    });
    const out = (await denom(["report", "--json", ...paths])).json();
    const calls = Object.fromEntries(out.per_call.map((c: Out) => [`${c.type}/${c.status}`, c.calls]));
    expect(calls).toEqual({ "llm_call/error": 1, "llm_call/ok": 1, "llm_call/retried": 1, "tool_call/error": 1, "tool_call/ok": 1 });
  });

  it("keep two tasks x two models sharing one run_id as four runs, nothing dropped", async () => {
    const files: Record<string, Member[]> = {};
    for (const task of ["popularity", "security"])
      for (const m of ["openai/a", "openai/b"]) {
        const id = `${task}-${m.slice(-1)}`;
        // every log numbers its samples 1 and 2; popularity x a passes both, every other log passes sample 1 only
        const pass2 = task === "popularity" && m === "openai/a";
        files[`${id}.eval`] = [
          { name: "header.json", content: header(evalSpec({ eval_id: id, run_id: "SHARED", task, model: m, ids: [1, 2] })) },
          { name: "samples/1_epoch_1.json", content: sample(1, 1, "C") },
          { name: "samples/2_epoch_1.json", content: sample(2, 1, pass2 ? "C" : "I") },
        ];
      }
    const { dir } = await archives(files);
    const out = (await denom(["report", "--json", "--by", "run_id", dir])).json();
    expect(perGroup(out)).toEqual({ "popularity-a": [2, 2], "popularity-b": [1, 2], "security-a": [1, 2], "security-b": [1, 2] });
    expect([out.meta.runs, out.meta.trials, out.accounting.duplicates]).toEqual([4, 8, 0]);
    expect(grid(out, "final/total")).toEqual([5, 8]);
    const byModel = (await denom(["report", "--json", "--by", "model", dir])).json();
    expect(perGroup(byModel)).toEqual({ "openai/a": [3, 4], "openai/b": [2, 4] });
  });

  it("leave a dict-valued score unscored naming its keys, and read it at --score-key", async () => {
    const dictScore = (p: number, s: number) => ({ problem: p, subproblem: s });
    const { paths } = await archives({
      "d.eval": [
        { name: "header.json", content: header(evalSpec({ eval_id: "D", run_id: "R", task: "t", model: "m", ids: [1, 2, 3] })) },
        { name: "samples/1_epoch_1.json", content: sample(1, 1, dictScore(1, 0.4)) },
        { name: "samples/2_epoch_1.json", content: sample(2, 1, dictScore(0, 1)) },
        { name: "samples/3_epoch_1.json", content: sample(3, 1, dictScore(1, 1)) },
      ],
    });
    const without = await denom(["report", "--json", ...paths]);
    expect(grid(without.json(), "final/total")).toEqual([0, 3]);
    expect(without.json().accounting.unrecognized).toBe(3);
    expect(without.stderr).toContain(
      "3 trials have a dict-valued score (keys problem, subproblem) and are unscored: name the key that decides success with --score-key KEY",
    );
    const problem = (await denom(["report", "--json", "--score-key", "problem", ...paths])).json();
    expect(grid(problem, "final/total")).toEqual([2, 3]); // samples 1 and 3
    const sub = (await denom(["report", "--json", "--score-key", "subproblem", ...paths])).json();
    expect(grid(sub, "final/total")).toEqual([2, 3]); // samples 2 and 3 (0.4 is below 1)
  });

  it("read a log with only _journal/ (still running or crashed) as status started, its samples counted, flagged incomplete", async () => {
    const s1 = sample(1, 1, "C");
    const { paths } = await archives({
      "j.eval": [
        {
          name: "_journal/start.json",
          content: { version: 2, eval: evalSpec({ eval_id: "J", run_id: "R", task: "t", model: "m", ids: [1, 2, 3] }), plan: {} },
        },
        { name: "samples/1_epoch_1.json", content: s1 },
        // sample 2 finished but its member was never flushed: its journal summary stands in
        { name: "_journal/summaries/1.json", content: [{ ...s1, messages: undefined }] },
        { name: "_journal/summaries/2.json", content: [{ id: 2, epoch: 1, input: "x", target: "T", scores: { match: { value: "I" } } }] },
      ],
    });
    const out = (await denom(["report", "--json", ...paths])).json();
    // trials: 1 C (member), 2 I (summary), 3 owed and never written: missing
    expect(grid(out, "final/total")).toEqual([1, 3]);
    expect(grid(out, "final/attributable")).toEqual([1, 2]);
    expect(out.diagnostics.missing).toBe(1);
    expect(out.meta.run_logs).toEqual([
      expect.objectContaining({ run_id: "J", invocation: "R", status: "started", incomplete: true, owed_trials: 3, trials: 2, missing_trials: 1 }),
    ]);
  });

  it("keep a cancelled log's owed samples in total as missing, and a header without samples as a run of missing trials", async () => {
    const { paths } = await archives({
      "c.eval": [
        {
          name: "header.json",
          content: header(evalSpec({ eval_id: "C", run_id: "R", task: "t", model: "m", ids: [1, 2, 3, 4] }), {
            status: "cancelled",
            results: { total_samples: 4, completed_samples: 2 },
          }),
        },
        { name: "samples/1_epoch_1.json", content: sample(1, 1, "C") },
        { name: "samples/2_epoch_1.json", content: sample(2, 1, "C") },
      ],
      "e.eval": [
        // 2 samples x 2 epochs owed, none written
        {
          name: "header.json",
          content: header(evalSpec({ eval_id: "E", run_id: "R", task: "u", model: "m", ids: [1, 2], epochs: 2 }), {
            status: "error",
            error: { message: "sandbox failed" },
            results: null,
          }),
        },
      ],
    });
    const r = await denom(["report", "--json", "--by", "run_id", ...paths]);
    expect(r.code).toBe(0);
    const out = r.json();
    // C: 2 successes of 4 owed; E: 0 of 4 owed
    expect(perGroup(out)).toEqual({ C: [2, 4], E: [0, 4] });
    expect(grid(out, "final/total")).toEqual([2, 8]);
    expect(grid(out, "final/attributable")).toEqual([2, 2]);
    expect(out.status_counts.final).toEqual({ success: 2, missing: 6 });
    expect(out.meta.run_logs).toEqual([
      expect.objectContaining({
        run_id: "C",
        status: "cancelled",
        error_message: null,
        total_samples: 4,
        completed_samples: 2,
        incomplete: false,
        owed_trials: 4,
        trials: 2,
        missing_trials: 2,
      }),
      expect.objectContaining({
        run_id: "E",
        status: "error",
        error_message: "sandbox failed",
        total_samples: null,
        owed_trials: 4,
        trials: 0,
        missing_trials: 4,
      }),
    ]);
  });

  it("group the runs of one eval set by invocation", async () => {
    const files: Record<string, Member[]> = {};
    for (const [id, run] of [
      ["a", "R1"],
      ["b", "R2"],
      ["c", "R3"],
    ])
      files[`${id}.eval`] = [
        {
          name: "header.json",
          content: header(evalSpec({ eval_id: id, run_id: run, eval_set_id: id === "c" ? "OTHER" : "SET", task: "t", model: id, ids: [1] })),
        },
        { name: "samples/1_epoch_1.json", content: sample(1, 1, id === "b" ? "I" : "C") },
      ];
    const { dir } = await archives(files);
    const out = (await denom(["report", "--json", "--by", "invocation", dir])).json();
    expect(perGroup(out)).toEqual({ SET: [1, 2], OTHER: [1, 1] });
  });

  it("read .eval files inside a tar.gz and from stdin", async () => {
    const bytes = await evalArchive(monolith("deflate"));
    const tgz = join(tempDir(), "logs.tar.gz");
    writeFileSync(tgz, gzipSync(await tarOf({ "logs/a.eval": bytes })));
    expect(grid((await denom(["report", "--json", tgz])).json(), "final/total")).toEqual([2, 3]);
    expect(grid((await denom(["report", "--json", "-"], bytes)).json(), "final/total")).toEqual([2, 3]);
  });

  it("name a zip that is no Inspect log", async () => {
    const { paths } = await archives({ "plain.zip": [{ name: "notes.txt", content: "hello" }] });
    const r = await denom(["report", ...paths]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("a zip archive without header.json or _journal/start.json, so no Inspect .eval log (it holds notes.txt)");
  });

  it("report a cut archive as a broken source, the other logs read (--strict fails)", async () => {
    const whole = await evalArchive(monolith("deflate"));
    const { paths } = await archives({ "ok.eval": monolith("deflate") });
    const cut = join(tempDir(), "cut.eval");
    writeFileSync(cut, whole.subarray(0, whole.length - 30)); // the end of the central directory is gone
    const r = await denom(["report", "--json", paths[0], cut]);
    expect(r.code).toBe(0);
    expect(r.json().accounting.broken_sources).toBe(1);
    expect(grid(r.json(), "final/total")).toEqual([2, 3]);
    expect(r.stderr).toContain(`${cut}: zip archive cannot be read (`);
    expect((await denom(["report", "--strict", paths[0], cut])).code).toBe(1);
  });

  it("reject a sample member that does not parse, naming it, and read the others", async () => {
    const { paths } = await archives({
      "b.eval": [
        { name: "header.json", content: header(spec) },
        { name: "samples/1_epoch_1.json", content: sample(1, 1, "C") },
        { name: "samples/2_epoch_1.json", content: '{"id": 2, "epoch": 1, "input": "x",' },
      ],
    });
    const r = await denom(["report", "--json", ...paths]);
    const out = r.json();
    expect([out.accounting.records, out.accounting.rejected]).toEqual([1, 1]);
    expect(r.stderr).toContain("(samples/2_epoch_1.json)");
  });
});

describe("sample members parsed whole, against streamed", () => {
  const tools = [tool("2026-01-01T00:00:01Z", "bash", { cmd: "ls" }), model("2026-01-01T00:00:02Z")];
  const head = { version: 2, status: "success", eval: evalSpec({ eval_id: "E", run_id: "R", task: "t", model: "openai/m", ids: [1] }) };
  /** Member texts written by hand: each a case where JSON.parse and the token stream could part. */
  const texts: Record<string, string> = {
    plain: JSON.stringify({ ...sample(1, 1, "C"), events: tools, metadata: null, store: { a: [1, { b: 2 }] }, total_time: 0 }).replace(
      '"total_time":0',
      '"total_time":12345678901234567890',
    ),
    "id 1.0": '{"id": 1.0, "epoch": 1, "scores": {"match": {"value": "C"}}}',
    "id -0": '{"id": -0, "epoch": 1, "scores": {"match": {"value": "C"}}}',
    "id 7, a message id 2.50": '{"id": 7, "epoch": 1, "messages": [{"id": 2.50}], "scores": {"match": {"value": "C"}}}',
    "events null, first": '{"events": null, "id": "n", "epoch": 1}',
    "events twice": `{"id": "d", "events": ${JSON.stringify([tools[0]])}, "epoch": 1, "events": ${JSON.stringify([tools[1]])}}`,
    "events nested too": `{"id": "e", "epoch": 1, "input": {"events": 3}, "events": ${JSON.stringify(tools)}}`,
    "__proto__ key": '{"id": "p", "__proto__": {"x": 1}, "epoch": 1}',
    "NaN score": '{"id": "nan", "epoch": 1, "scores": {"match": {"value": NaN}}}',
    BOM: `\uFEFF${JSON.stringify(sample("bom", 1, "I"))}`,
    "lone surrogate": '{"id": "s\\ud800", "epoch": 1, "input": "\\udc00x"}',
    "key written twice": '{"id": "k", "epoch": 1, "target": "A", "target": "B"}',
    "trailing text": '{"id": "t", "epoch": 1} x',
    "an array": "[1, 2]",
    empty: "",
  };
  const members: Member[] = [{ name: "header.json", content: head }];
  for (const [i, text] of Object.values(texts).entries())
    members.push({ name: `samples/${i}_epoch_1.json`, content: text, method: i % 3 === 1 ? "store" : "deflate" });
  members.push(
    { name: "samples/c1_epoch_1/sample.json", content: sample("c1", 1, "C") },
    { name: "samples/c1_epoch_1/events/0.json", content: [tools[0]] },
    { name: "samples/c1_epoch_1/events/5.json", content: [tools[1]], method: "zstd" },
    { name: "samples/c2_epoch_1/sample.json", content: sample("c2", 1, "C") },
    { name: "samples/c2_epoch_1/events/0.json", content: { not: "an array" } },
  );

  /** What readEvalArchive hands its sink, with an id kept as its text shown as `big:TEXT`. */
  async function read(path: string, parsedWholeMax?: number): Promise<string[]> {
    const out: string[] = [];
    const zip = await ZipArchive.open(path);
    const show = (_: string, v: unknown) => (v instanceof BigLiteral ? `big:${v.text}` : v);
    const sink = {
      header: () => {},
      jsonStream: loadJsonStream,
      maxValueBytes: 1024 * 1024,
      unit: (u: Unit) => out.push(JSON.stringify({ ...u, header: null }, show)),
      blank: () => {},
      reject: (...r: unknown[]) => out.push(JSON.stringify(r)),
    };
    try {
      await readEvalArchive(zip, sink, parsedWholeMax);
    } finally {
      zip.close();
    }
    return out;
  }

  it("give every unit and reject streaming gives, on members where the two could part", async () => {
    const { paths } = await archives({ "edge.eval": members });
    const whole = await read(paths[0]);
    expect(whole).toEqual(await read(paths[0], 0));
    expect(whole).toHaveLength(members.length - 1 - 3); // the header and three event parts are no samples
    const byId = (id: string) => JSON.parse(whole.find((u) => u.includes(`"id":${id}`))!);
    expect(byId('"big:1.0"').value.id).toBe("big:1.0");
    expect(byId('"big:-0"').value.id).toBe("big:-0");
    expect(Object.keys(byId('"n"').value)).toEqual(["events", "id", "epoch"]);
    expect(byId('"d"').value.events.map((e: Out) => e.type)).toEqual(["tool_call", "llm_call"]);
    expect(Object.keys(byId('"d"').value)).toEqual(["id", "epoch", "events"]);
    expect(byId('"nan"').nonFinite).toBe(1);
    expect(byId('"k"').value.target).toBe("B");
    expect(byId('"c1"').value.events.map((e: Out) => e.type)).toEqual(["tool_call", "llm_call"]);
    expect(whole.filter((u) => u.startsWith("[")).map((r) => JSON.parse(r).slice(1, 2))).toEqual([
      ["samples/12_epoch_1.json"],
      ["samples/13_epoch_1.json"],
      ["samples/14_epoch_1.json"],
      ["samples/c2_epoch_1/sample.json"],
    ]);
  });

  it("parse a plain member whole, and leave to streaming each member where they could part", () => {
    const parsed = (text: string) => parsedSample(Buffer.from(text), () => {});
    expect(Object.keys(parsed(texts.plain)!)).toEqual(["id", "epoch", "input", "target", "scores", "total_time"]);
    expect(parsed(texts["id 7, a message id 2.50"])).toBeNull();
    const streamed = ["id 1.0", "id -0", "events twice", "events nested too", "__proto__ key", "NaN score", "trailing text", "an array", "empty"];
    for (const name of streamed) expect([name, parsed(texts[name])]).toEqual([name, null]);
    for (const name of ["events null, first", "BOM", "lone surrogate", "key written twice"]) expect(parsed(texts[name])).not.toBeNull();
  });
});

describe("Inspect .json logs", () => {
  it("keep three models of one eval set sharing run_id and sample ids as three runs (the 66/100)", async () => {
    // three logs of one `inspect eval` call: same run_id, samples 1..3 each; model a passes 3, b 2, c 1
    const files: Record<string, string> = {};
    ["a", "b", "c"].forEach((m, i) => {
      const samples = [1, 2, 3].map((id) => sample(id, 1, id <= 3 - i ? "C" : "I"));
      files[`${m}.json`] = JSON.stringify({
        version: 2,
        status: "success",
        eval: evalSpec({ eval_id: `E-${m}`, run_id: "ONE", task: "t", model: m, ids: [1, 2, 3] }),
        samples,
      });
    });
    const dir = tempDir(files);
    const out = (await denom(["report", "--json", "--by", "model", dir])).json();
    expect(perGroup(out)).toEqual({ a: [3, 3], b: [2, 3], c: [1, 3] });
    expect([out.meta.runs, out.meta.trials, out.accounting.duplicates]).toEqual([3, 9, 0]);
  });
});

describe("docs/formats/inspect.md", () => {
  it("holds the mapping table as denom formats --format md inspect generates it from the adapter's declarations", async () => {
    const doc = readFileSync(join(ROOT, "docs", "formats", "inspect.md"), "utf8");
    const mark = "<!-- generated: denom formats --format md inspect -->\n";
    expect(doc).toContain(mark);
    const block = doc.slice(doc.indexOf(mark) + mark.length, doc.indexOf("<!-- end generated -->"));
    const r = await denom(["formats", "--format", "md", "inspect"]);
    expect(block).toBe(r.stdout);
    expect(r.stdout).toContain("| `.eval samples/{id}_epoch_{n}.json` | one trial |");
    // the same section as docs/formats.md's, from the one renderer; --md is a hidden alias
    expect(readFileSync(join(ROOT, "docs", "formats.md"), "utf8")).toContain(r.stdout);
    expect((await denom(["formats", "--md", "inspect"])).stdout).toBe(r.stdout);
    expect((await denom(["formats"])).stdout).toContain("inspect (record)\n  Inspect AI eval log (.eval archive or .json)");
  });
});

describe("a --db file written before .eval archives were read", () => {
  it("is read (waiting_s, invocation NULL; no run logs) and gains the columns and tables when an .eval is ingested into it", async () => {
    const { Database } = await import("../src/db/database.js");
    const dir = tempDir({ "a.jsonl": JSON.stringify({ task_id: "t", status: "success" }) + "\n" });
    const file = join(dir, "old.duckdb");
    expect((await denom(["ingest", join(dir, "a.jsonl"), "--db", file])).code).toBe(0);
    const db = await Database.open({ path: file });
    for (const sql of [
      "ALTER TABLE attempts DROP COLUMN invocation",
      "ALTER TABLE attempts DROP COLUMN waiting_s",
      "DROP TABLE run_logs",
      "DROP TABLE owed_trials",
    ])
      await db.run(sql);
    db.close();
    const read = await denom(["report", "--json", "--db", file]);
    expect(read.code, read.stderr).toBe(0);
    expect(grid(read.json(), "final/total")).toEqual([1, 1]);
    const log = join(dir, "x.eval");
    writeFileSync(
      log,
      await evalArchive([
        { name: "header.json", content: { status: "success", eval: evalSpec({ eval_id: "X", run_id: "R", task: "t", model: "m", ids: [1, 2] }) } },
        { name: "samples/1_epoch_1.json", content: sample(1, 1, "C", { total_time: 10, working_time: 4 }) },
      ]),
    );
    const added = await denom(["ingest", log, "--db", file]);
    expect(added.code, added.stderr).toBe(0);
    const after = (await denom(["report", "--json", "--by", "invocation", "--db", file])).json();
    // the jsonl's t (no invocation) and X's t/1 (success) and t/2 (owed, missing)
    expect(perGroup(after)).toEqual({ R: [1, 2], null: [1, 1] });
  });
});
