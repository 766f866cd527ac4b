/**
 * EleutherAI lm-evaluation-harness: the real 0.4.0 output of test/fixtures/real/lm-eval-vicuna33b-mmlu
 * (PROVENANCE.md: 36 of 100 abstract_algebra documents with acc 1) and the newer
 * `samples_<task>_<date_id>.jsonl` layout, built by hand from evaluator.py's sample record.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { samplesFileOf } from "../src/formats/lm-eval.js";
import { cell, denom, FIXTURES, tempDir } from "./helpers.js";

const REAL_LM = join(FIXTURES, "real", "lm-eval-vicuna33b-mmlu");
const SAMPLES = join(REAL_LM, "pretrained__lmsys__vicuna-33b-v1.3_mmlu_abstract_algebra.jsonl.gz");
const DATE = "2024-05-29T14-51-06.123456";

/** One sample line as evaluator.py writes it (`example.update(metrics)`). */
function sample(doc_id: number, filter: string, values: Record<string, unknown>): string {
  const base = { doc_id, doc: { q: `q${doc_id}` }, target: "1", arguments: { gen_args_0: { arg_0: "p" } }, resps: [["a"]], filtered_resps: ["a"], filter };
  return JSON.stringify({ ...base, metrics: Object.keys(values), doc_hash: "d", prompt_hash: "p", target_hash: "t", ...values });
}

/** A temporary folder holding `files` (paths with folders), for the newer layout's `<model>/samples_...`. */
function folderOf(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("lm-eval samples", () => {
  it("the real 0.4.0 file (an indented JSON array in a .jsonl): 100 trials of mmlu_abstract_algebra, 36 with acc 1", async () => {
    const out = (await denom(["report", "--json", SAMPLES])).json();
    expect([out.accounting.records, out.accounting.rejected]).toEqual([100, 0]);
    expect([cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([36, 100]);
    expect([cell(out, "first/total").successes, cell(out, "first/attributable").count]).toEqual([36, 100]);
    expect(out.status_counts.final).toEqual({ success: 36, failure: 64 });
    expect(out.meta.sources[0].adapter).toBe("lm-eval");
  });

  it("its results.json is a claim: acc,none 0.36 is reproduced by final/total (36/100), the other tasks' claims named", async () => {
    const r = await denom(["audit", "--json", SAMPLES, "--claims", join(REAL_LM, "results.json")]);
    expect(r.code).toBe(0);
    // one claim kept (an array of one): the one about the task the samples hold
    const audit = r.json();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ claim: "0.36", reproduced: true, strict: { successes: 36, count: 100 } });
    // results: 62 tasks and groups, each one acc,none: 61 are about other tasks
    expect(r.stderr).toContain("61 claims of the --claims file not audited: the inputs hold mmlu_abstract_algebra only");
  });

  it("reads the folder whole: the results file holds no attempt, the samples 100 trials", async () => {
    const out = (await denom(["report", "--json", REAL_LM])).json();
    expect(Object.fromEntries(out.meta.sources.map((s: { name: string; adapter: string }) => [s.name.split("/").pop(), s.adapter]))).toEqual({
      "pretrained__lmsys__vicuna-33b-v1.3_mmlu_abstract_algebra.jsonl.gz": "lm-eval",
      "results.json": "lm-eval-results",
    });
    expect(cell(out, "final/total").count).toBe(100);
  });

  it("names run, model and task from the file's name, in both layouts", () => {
    expect(samplesFileOf(`out/EleutherAI__pythia-14m/samples_gsm8k_cot_${DATE}.jsonl`)).toEqual({
      run_id: `EleutherAI__pythia-14m/${DATE}`,
      model: "EleutherAI__pythia-14m",
      task: "gsm8k_cot",
    });
    expect(samplesFileOf("o/x/pretrained__lmsys__vicuna-33b-v1.3_mmlu_abstract_algebra.jsonl")).toEqual({
      run_id: "x",
      model: "pretrained__lmsys__vicuna-33b-v1.3",
      task: "mmlu_abstract_algebra",
    });
    expect(samplesFileOf("o/x/pretrained__m,dtype__auto_truthfulqa_gen.jsonl").task).toBe("truthfulqa_gen");
    expect(samplesFileOf("o/x/mine.jsonl")).toEqual({ run_id: "x", model: null, task: "mine" });
  });

  it("a task with two filters: each filter its own figure (strict-match 1/3, flexible-extract 2/3), never pooled", async () => {
    // doc 0: 1 and 1; doc 1: 0 and 1; doc 2: 0 and 0
    const lines = [
      sample(0, "strict-match", { exact_match: 1.0 }),
      sample(0, "flexible-extract", { exact_match: 1.0 }),
      sample(1, "strict-match", { exact_match: 0.0 }),
      sample(1, "flexible-extract", { exact_match: 1.0 }),
      sample(2, "strict-match", { exact_match: 0.0 }),
      sample(2, "flexible-extract", { exact_match: 0.0 }),
    ];
    const dir = folderOf({ [`m/samples_gsm8k_${DATE}.jsonl`]: lines.join("\n") + "\n" });
    const out = (await denom(["report", "--json", join(dir, "m")])).json();
    const groups = Object.fromEntries(
      out.groups.map((g: { value: string; rates: { basis: string; denominator: string; successes: number; count: number }[] }) => {
        const c = g.rates.find((r) => r.basis === "final" && r.denominator === "total")!;
        return [g.value, [c.successes, c.count]];
      }),
    );
    expect(groups).toEqual({ "agent filter strict-match": [1, 3], "agent filter flexible-extract": [2, 3] });
    expect(out.accounting.duplicates).toBe(0);
  });

  it("several metrics are unscored until --score-key names one; a metric off the 0/1 scale is unscored with its name", async () => {
    // hellaswag: acc 1, 0; acc_norm 1, 1. squad: f1 0.5 (not a pass), 1.0 (a full score)
    const dir = folderOf({
      [`m/samples_hellaswag_${DATE}.jsonl`]: [sample(0, "none", { acc: 1.0, acc_norm: 1.0 }), sample(1, "none", { acc: 0.0, acc_norm: 1.0 })].join("\n") + "\n",
      [`m/samples_squad_${DATE}.jsonl`]: [sample(0, "none", { f1: 0.5 }), sample(1, "none", { f1: 1.0 })].join("\n") + "\n",
    });
    const hella = join(dir, "m", `samples_hellaswag_${DATE}.jsonl`);
    const plain = await denom(["report", "--json", hella]);
    expect(plain.json().status_detail_counts).toEqual([{ status: "unrecognized", status_detail: "several_metrics", first: 2, final: 2 }]);
    expect([cell(plain.json(), "final/total").successes, cell(plain.json(), "final/total").count]).toEqual([0, 2]);
    expect(plain.stderr).toContain("(keys acc, acc_norm)");
    expect(plain.stderr).toContain("--score-key KEY");
    for (const [key, want] of [
      ["acc", 1],
      ["acc_norm", 2],
    ] as const) {
      const out = (await denom(["report", "--json", "--score-key", key, hella])).json();
      expect([key, cell(out, "final/total").successes, cell(out, "final/total").count]).toEqual([key, want, 2]);
    }
    const squad = (await denom(["report", "--json", join(dir, "m", `samples_squad_${DATE}.jsonl`)])).json();
    expect(squad.status_detail_counts).toContainEqual({ status: "unrecognized", status_detail: "metric_not_0_1:f1", first: 1, final: 1 });
    expect([cell(squad, "final/total").successes, cell(squad, "final/total").count, cell(squad, "final/valid").count]).toEqual([1, 2, 1]);
  });
});
