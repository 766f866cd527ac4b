/**
 * The confusion matrix of format detection: every file of samples/,
 * test/fixtures/ and ../shared/data/real, read the way `denom report FOLDER`
 * reads it, must be claimed by the format the table below names for it (or be
 * a side file, or a file the folder walk does not read), and by no other: a
 * file two formats claim, or one close to a format's shape, stops the read
 * (exit 1), so a folder that reads is one whose every record was claimed by
 * exactly one format. The table is kept by hand: a file no row names fails the
 * test, so a new fixture or adapter is not done until it is in the table.
 *
 * Then the wrong shapes: for every shape a format declares, a record built to
 * fit it is claimed by that format alone, and the same record with one of the
 * format's keys removed, or holding a value of the wrong type, is refused
 * naming the format, what is missing or wrong, and `--input-format`.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CANONICAL_NAMES, canonicalFormat } from "../src/formats/canonical-format.js";
import { claimRecord, DOCUMENT_FORMATS, FORMATS, refusalOf } from "../src/formats/index.js";
import { ANY_KEY, fitDocument, type KeyRule, type RecordShape } from "../src/formats/shape.js";
import { denom, FIXTURES, hasShared, REAL, ROOT, tempDir } from "./helpers.js";

/** What a file is: the format that reads it, a side file (skipped with a line on stderr), or a file the folder walk does not take. */
type Label = string;
const SIDE = "side file";
const NOT_READ = "not read";

/** Files the walk never takes: notes, logs, text, checksums, other tools' configs. */
const NOT_RECORDS: readonly [RegExp, Label][] = [
  [/\.(md|txt|log|tsv|ts|zst|dataset_checksum)$|(^|\/)\.dataset_checksum$/, NOT_READ],
  [/(^|\/)multi-swe-bench-java\/.*\.yaml$/, NOT_READ],
];

/** samples/: what the README's commands read. */
const SAMPLES: readonly [RegExp, Label][] = [
  [/^seed-100-tasks\.jsonl$/, "task-summary"],
  [/^(seed-100|timeouts-mix|two-agents)\.jsonl$/, "canonical"],
];

/** test/fixtures/, by folder. */
const FIXTURE_TABLE: readonly [RegExp, Label][] = [
  [/^agentcompass-run\/.*\.json$/, "agentcompass"],
  [/^cases\/[^/]+\/expected\.json$/, SIDE],
  [/^cases\/seed-100\/tasks\.jsonl$/, "task-summary"],
  [/^cases\/[^/]+\/[^/]+\.(jsonl|tar\.gz)$/, "canonical"],
  [/^harbor-job\/[^/]+\/notes\.json$/, SIDE],
  [/^harbor-job\/[^/]+\/result\.json$/, "harbor-job"],
  [/^harbor-job\/[^/]+\/[^/]+\/result\.json$/, "harbor"],
  [/^harbor-job\/.*config\.json$/, "harbor-config"],
  [/^hal-upload-scicode\/results\/scicode\/[^/]+\/[^/]+_UPLOAD\.json$/, "hal-upload"],
  [/^skillsbench-leaderboard\/results\/[^/]+\.json$/, "skillsbench"],
  [/^inspect\/tiny-eval\.json$/, "inspect"],
  [/^real\/inspect-json-popularity\/.*\.json$/, "inspect"],
  [/^real\/lm-eval-vicuna33b-mmlu\/pretrained__[^/]+_mmlu_abstract_algebra\.jsonl\.gz$/, "lm-eval"],
  [/^real\/lm-eval-vicuna33b-mmlu\/results\.json$/, "lm-eval-results"],
  [/^real\/opendevin-v1\.5-gorilla-apibench\/.*\/output_[^/]+\.jsonl$/, "openhands-output"],
  [/^real\/opendevin-v1\.5-gorilla-apibench\/.*\/metadata_[^/]+\.json$/, "openhands-run-metadata"],
  [/^real\/agentbench-medagentbench-gemini\/.*\/(runs|error)\.jsonl$/, "agentbench"],
  [/^real\/agentbench-medagentbench-overall\/.*\/overall\.json\.gz$/, "agentbench-overall"],
  [/^real\/openhands-openagentsafety-gpt4o\/.*\/output\.critic_attempt_1\.jsonl\.gz$/, "openhands-output"],
  [/^real\/harbor-openthoughts-datagen\/.*\/agent\/episode-\d+\/debug\.json$/, SIDE],
  [/^real\/harbor-openthoughts-datagen\/.*\/agent\/trajectory\.json$/, "harbor-trajectory"],
  [/^real\/harbor-openthoughts-datagen\/.*\/result\.json$/, "harbor"],
  [/^real\/harbor-openthoughts-datagen\/.*\/config\.json$/, "harbor-config"],
  [/^real\/openhands-v0-multiswebench\/output\.jsonl$/, "openhands-output"],
  [/^real\/openhands-v0-multiswebench\/(config\.json|patch\.jsonl)$/, SIDE],
  [/^real\/openhands-v0-swebench-eval-report\/.*\/metadata\.json$/, "openhands-run-metadata"],
  [/^real\/openhands-v0-swebench-eval-report\/.*\/output\.swebench_eval\.logs\/instance_.*\.log$/, "openhands-eval-log"],
  [/^real\/swebench-docker-golden-lite\/.*\/(report|results)\.json$/, "swe-bench-legacy"],
  [/^real\/swebench-instance-reports-sample\/.*\/logs\/[^/]+\/report\.json$/, "swe-bench-instance"],
  [/^real\/swebench-v-minisweagent-gemini3-sbcli\/.*\.traj\.json$/, "mini-swe-agent-trajectory"],
  [/^real\/swebench-v-minisweagent-gemini3-sbcli\/.*\/exit_statuses_[\d.]+\.yaml$/, "mini-swe-agent-exit-statuses"],
  [/^real\/swebench-v-minisweagent-gemini3-sbcli\/.*\/sb-cli-reports\/.*\.json$/, "swe-bench-results"],
  [/^swe-bench-pro\/[^/]+\/eval_results\.json$/, "swe-bench-pro"],
  [/^tau2-split\/[^/]+\/results(-empty)?\.json$/, "tau2-results"],
  [/^tau2-split\/[^/]+\/simulations\/[^/]+\.json$/, "tau2-bench"],
];

/** ../shared/data/real, by folder (each folder's MAPPING.md says what its files are). */
const REAL_TABLE: readonly [RegExp, Label][] = [
  [/^agentbench-medagentbench-gemini\/.*\/(runs|error)\.jsonl$/, "agentbench"],
  [/^harbor-[^/]+\/.*\/agent\/episode-\d+\/debug\.json$/, SIDE],
  [/^harbor-[^/]+\/.*\/agent\/trajectory\.json$/, "harbor-trajectory"],
  [/^harbor-[^/]+\/.*config\.json$/, "harbor-config"],
  [/^harbor-science-kimi-mini-swe\/.*\/harbor-(nop|oracle)-job-result\.json$/, "harbor-job"],
  [/^harbor-science-kimi-mini-swe\/.*(trial-result|harbor-(nop|oracle)-trial-result)\.json$/, "harbor"],
  [/^harbor-gemma-tb2-full-plus-rerun\/jobs\/[^/]+\/result\.json$/, "harbor-job"],
  [/^harbor-[^/]+\/.*\/result\.json$/, "harbor"],
  [/^inspect-mmlu-gpt4\/listing\.json$/, SIDE],
  [/^inspect-[^/]+\/.*\.eval$/, "inspect"],
  [/^multi-swe-bench-java\/.*\/all_preds\.jsonl$/, "swe-bench-preds"],
  [/^multi-swe-bench-java\/.*\/results\/results\.json$/, "swe-bench-results"],
  [/^multi-swe-bench-java\/.*\.traj$/, "swe-agent"],
  [/^openhands-index\/[^/]+\/instance_results\/[^/]+\.json$/, "openhands-index"],
  [/^openhands-index\/[^/]+\/scores\.json$/, "openhands-scores"],
  [/^openhands-index\/[^/]+\/metadata\.json$/, "openhands-metadata"],
  [/^openhands-v0-multiswebench\/output\.jsonl$/, "openhands-output"],
  [/^openhands-v0-multiswebench\/(config\.json|patch\.jsonl)$/, SIDE],
  [/^openhands-v0-swebench-eval-report\/.*\/metadata\.json$/, "openhands-run-metadata"],
  [/^openhands-v0-swebench-eval-report\/.*\/output\.swebench_eval\.logs\/instance_.*\.log$/, "openhands-eval-log"],
  [/^swe-bench-pro\/[^/]+\/eval_results\.json$/, "swe-bench-pro"],
  [/^swebench-docker-golden-lite\/.*\/all_preds\.jsonl$/, "swe-bench-preds"],
  [/^swebench-docker-golden-lite\/.*\/(report|results)\.json$/, "swe-bench-legacy"],
  [/^swebench-instance-reports-sample\/logs\/[^/]+\/report\.json$/, "swe-bench-instance"],
  [/^swebench-v-minisweagent-gemini3-sbcli\/results_summary\.json$/, SIDE],
  [/^swebench-v-minisweagent-gemini3-sbcli\/.*\.traj\.json$/, "mini-swe-agent-trajectory"],
  [/^swebench-v-minisweagent-gemini3-sbcli\/.*\/exit_statuses_[\d.]+\.yaml$/, "mini-swe-agent-exit-statuses"],
  [/^swebench-v-minisweagent-gemini3-sbcli\/.*\/preds\.json$/, "mini-swe-agent-preds"],
  [/^swebench-v-minisweagent-gemini3-sbcli\/.*\.json$/, "swe-bench-results"],
  [/^tau-bench\/[^/]+\.json$/, "tau-bench"],
  [/^tau2-bench\/[^/]+\.json$/, "tau2-bench"],
  [/^terminal-bench-1\/.*\/run_metadata\.json$/, "terminal-bench"],
  [/^terminal-bench-1\/.*\/results\.json$/, "terminal-bench"],
];

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** The label the table gives a file, or null when no row names it. */
function expected(rel: string, table: readonly [RegExp, Label][]): Label | null {
  for (const [pattern, label] of [...table, ...NOT_RECORDS]) if (pattern.test(rel)) return label;
  return null;
}

/**
 * What `denom report DIR --json` made of each file of `dir`: the formats that
 * read it (an archive's members counted as the archive), a side file, or not
 * read; and the exit code.
 */
async function detected(dir: string): Promise<{ code: number; stderr: string; labels: Map<string, Set<Label>> }> {
  const r = await denom(["report", "--json", dir]);
  const labels = new Map<string, Set<Label>>();
  const add = (name: string, label: Label) => {
    const rel = relative(dir, name.split("!")[0]);
    if (!labels.has(rel)) labels.set(rel, new Set());
    labels.get(rel)!.add(label);
  };
  if (r.code === 0) {
    const meta = r.json().meta;
    for (const s of meta.sources) add(s.name, s.adapter ?? "(no format)");
    for (const s of meta.skipped_files) add(s.name, SIDE);
  }
  return { code: r.code, stderr: r.stderr, labels };
}

/** Checks every file of `dir` against the table: the rows it breaks, as `file: expected X, detected Y`. */
async function confusion(
  dir: string,
  table: readonly [RegExp, Label][],
): Promise<{ code: number; stderr: string; wrong: string[]; counts: Map<Label, number> }> {
  const { code, stderr, labels } = await detected(dir);
  const wrong: string[] = [];
  const counts = new Map<Label, number>();
  for (const rel of filesUnder(dir)) {
    const want = expected(rel, table);
    const got = [...(labels.get(rel) ?? new Set([NOT_READ]))].sort().join(", ");
    if (want === null) wrong.push(`${rel}: in no row of the table (detected ${got})`);
    else if (got !== want) wrong.push(`${rel}: expected ${want}, detected ${got}`);
    counts.set(got, (counts.get(got) ?? 0) + 1);
  }
  return { code, stderr, wrong, counts };
}

describe("the confusion matrix of format detection is the identity", () => {
  it("samples/: each file claimed by its own format", async () => {
    const m = await confusion(join(ROOT, "samples"), SAMPLES);
    expect(m.code).toBe(0);
    expect(m.wrong).toEqual([]);
    // 4 files: seed-100-tasks.jsonl is trial summaries, the other 3 canonical attempts
    expect(Object.fromEntries(m.counts)).toEqual({ canonical: 3, "task-summary": 1 });
  });

  it("test/fixtures/: each file claimed by its own format, side files and other files named", async () => {
    const m = await confusion(FIXTURES, FIXTURE_TABLE);
    expect(m.code).toBe(0);
    expect(m.wrong).toEqual([]);
    // counted with find over test/fixtures: 50 eval logs, 4 instance reports, 4 exit-status passes
    expect([m.counts.get("openhands-eval-log"), m.counts.get("swe-bench-instance"), m.counts.get("mini-swe-agent-exit-statuses")]).toEqual([50, 4, 4]);
    // the two Inspect header-only logs are the Inspect format's, not canonical rejects
    expect(m.counts.get("inspect")).toBe(4);
  });

  it.skipIf(!hasShared)("../shared/data/real: each file claimed by its own format, side files and other files named", async () => {
    const m = await confusion(REAL, REAL_TABLE);
    expect(m.code).toBe(0);
    expect(m.wrong).toEqual([]);
    // find ../shared/data/real: 25 logs/<id>/report.json, 9 eval_results.json, 17 .eval, 4 exit_statuses_*.yaml
    expect([m.counts.get("swe-bench-instance"), m.counts.get("swe-bench-pro"), m.counts.get("inspect"), m.counts.get("mini-swe-agent-exit-statuses")]).toEqual([
      25, 9, 17, 4,
    ]);
    // find -name config.json under the three harbor folders: 131 + 65 + 108, the two newer JobConfigs among them
    expect(m.counts.get("harbor-config")).toBe(304);
  });

  it.runIf(!hasShared)("../shared/data/real: absent here, so its rows are not checked", () => {
    console.log("skipped: ../shared/data/real is absent");
  });
});

/** A value that holds what `rule` says. */
function valueFor(rule: KeyRule): unknown {
  if (rule === "any" || rule === "string") return "x";
  if (rule === "number") return 1;
  if (rule === "boolean") return true;
  if (rule === "object") return { k: 1 };
  if (rule === "array") return [];
  if (rule === "null") return null;
  if (Array.isArray(rule)) return valueFor(rule[0] as KeyRule);
  const r = rule as Exclude<KeyRule, string | readonly string[]>;
  if ("text" in r) return r.text[0];
  if ("prefix" in r) return `${r.prefix}-1`;
  if ("items" in r) return [valueFor(r.items)];
  if ("empty" in r) return [];
  return recordFor(r.shape);
}

/** A value of another type than `rule` allows, or undefined when the rule allows any. */
function wrongFor(rule: KeyRule): unknown {
  if (rule === "any") return undefined;
  const ok = (v: unknown) => {
    const t = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
    if (typeof rule === "string") return t === rule;
    if (Array.isArray(rule)) return rule.includes(t);
    return false;
  };
  if (typeof rule === "string" || Array.isArray(rule)) return [12345, "wrong", { k: 1 }, [9], true].find((v) => !ok(v));
  const r = rule as Exclude<KeyRule, string | readonly string[]>;
  if ("text" in r) return "no-such-value";
  if ("prefix" in r) return "not-the-prefix";
  if ("items" in r) return [{ k: 1 }, 5];
  if ("empty" in r) return [1];
  return 12345;
}

/** Sets `path` (dotted: nested objects) of `record` to `v`. */
function setPath(record: Record<string, unknown>, path: string, v: unknown): void {
  const steps = path.split(".");
  let o = record;
  for (const s of steps.slice(0, -1)) o = (o[s] ??= {}) as Record<string, unknown>;
  o[steps[steps.length - 1]] = v;
}

/** The smallest record that fits `shape`: its required keys, each with a value its rule allows. */
function recordFor(shape: RecordShape): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (const [k, rule] of Object.entries(shape.required)) setPath(r, k === ANY_KEY ? "instance-1" : k, valueFor(rule));
  return r;
}

/** A source name on the shape's path (`logs/<id>/report.json`), or a plain one. */
function sourceFor(shape: RecordShape): string {
  if (!shape.path) return "run/records.json";
  const m = shape.path.shown.match(/[^ ]+$/)!;
  return `run/${m[0].replace(/<[^>]+>/g, "x1")}`;
}

const HARNESS = FORMATS.filter((f) => f !== canonicalFormat);
const SHAPES = HARNESS.flatMap((f) => f.shapes.map((shape, i) => ({ f, shape, i })));

describe("wrong shapes are refused, naming the format", () => {
  it.each(SHAPES.map((s) => [`${s.f.name} #${s.i + 1}`, s] as const))("%s: its smallest record is its own alone", (_, { f, shape }) => {
    const claim = claimRecord(recordFor(shape), sourceFor(shape));
    expect(claim.kind === "one" ? claim.format.name : claim).toBe(f.name);
  });

  it.each(SHAPES.map((s) => [`${s.f.name} #${s.i + 1}`, s] as const))(
    "%s: a value of the wrong type is refused naming the format; a key removed is never another format's",
    (_, { f, shape }) => {
      const source = sourceFor(shape);
      const own = Object.keys(shape.required).filter((k) => k !== ANY_KEY && !CANONICAL_NAMES.has(k.split(".")[0])).length;
      for (const [key, rule] of Object.entries(shape.required)) {
        if (key === ANY_KEY) continue;
        const wrong = wrongFor(rule);
        if (wrong !== undefined) {
          const bad = recordFor(shape);
          setPath(bad, key, wrong);
          const claim = claimRecord(bad, source);
          expect(claim).toMatchObject({ kind: "near", format: { name: f.name } });
          expect(refusalOf(claim)).toContain(`${key}: expected`);
          expect(refusalOf(claim)).toContain("--input-format NAME");
        }
        // a dotted key goes with its top-level object (`info` of `info.model_stats`)
        const missing = recordFor(shape);
        delete missing[key.split(".")[0]];
        const claim = claimRecord(missing, source);
        // a near miss when the record keeps at least two of the format's own keys and half of them (or lies on its path);
        // else no harness's: with a task id or a status it is a canonical record, whose checks judge it
        const near = shape.path !== undefined || (CANONICAL_NAMES.has(key.split(".")[0]) ? own >= 1 : own >= 3);
        if (near) {
          expect(claim).toMatchObject({ kind: "near", format: { name: f.name } });
          // the key removed, or, when another of the format's shapes is as close, what that one misses
          expect(refusalOf(claim)).toContain(claim.kind === "near" && claim.shape !== shape ? ": missing" : `${key}: missing`);
        } else if (claim.kind === "near")
          expect(claim.format.name).toBe(f.name); // close to another of its shapes
        else expect(claim.kind === "one" ? claim.format.name : claim.kind).toMatch(/^(none|canonical)$/);
      }
    },
  );

  it("a Harbor trial result without verifier_result, or with a number for task_name, is refused naming harbor", () => {
    // task_name, trial_name, agent_info, exception_info of 5 own keys: 4 held
    const trial = { task_name: "t", trial_name: "t__a", agent_info: { name: "x" }, verifier_result: null, exception_info: null };
    expect(claimRecord(trial, "job/t__a/result.json")).toMatchObject({ kind: "one", format: { name: "harbor" } });
    const { verifier_result: _, ...noVerifier } = trial;
    const near = claimRecord(noVerifier, "job/t__a/result.json");
    expect(near).toMatchObject({ kind: "near", format: { name: "harbor" }, problems: ["verifier_result: missing"] });
    expect(refusalOf(near)).toBe(
      "looks like harbor (a TrialResult) but verifier_result: missing: not read as another format; if it is harbor's, it is malformed; else name its format with --input-format NAME (denom formats lists them)",
    );
    expect(claimRecord({ ...trial, task_name: 7 }, "x.json")).toMatchObject({ kind: "near", problems: ["task_name: expected a string, got a number"] });
  });

  it("a record two formats claim is refused naming both and the --input-format of each", () => {
    // a tau-bench task run (task_id, reward, traj, info) that is also a tau2-bench simulation (termination_reason, reward_info)
    const both = { task_id: 1, reward: 1, traj: [], info: {}, termination_reason: "user_stop", reward_info: { reward: 1 } };
    const claim = claimRecord(both, "x.json");
    expect(claim.kind === "ambiguous" && claim.formats.map((f) => f.name)).toEqual(["tau-bench", "tau2-bench"]);
    expect(refusalOf(claim)).toBe("2 formats claim it (tau-bench, tau2-bench): name its format with --input-format tau-bench or --input-format tau2-bench");
  });

  it("a JSONL file whose first record is a near miss exits 1, naming the format and --input-format; a later one is a reject", async () => {
    const line = (r: object) => `${JSON.stringify(r)}\n`;
    // tau2-bench's own keys: termination_reason and reward_info; the second line lacks reward_info
    const good = { task_id: "a", termination_reason: "user_stop", reward_info: { reward: 1 } };
    const { reward_info: _, ...bad } = good;
    const dir = tempDir({
      "first.jsonl": line({ ...bad, termination_reason: 5, reward_info: {} }),
      "later.jsonl": line(good) + line({ ...bad, task_id: "b", status: "x" }),
    });
    const first = await denom(["report", join(dir, "first.jsonl")]);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("first.jsonl: looks like tau2-bench (a simulation) but termination_reason: expected a string, got a number");
    expect(first.stderr).toContain("--input-format NAME");
    // the later line is no format's: tau2-bench's keys held 1 of 2, so canonical reads it (status x, an unrecognized status)
    const later = (await denom(["report", "--json", join(dir, "later.jsonl")])).json();
    expect([later.accounting.records, later.accounting.rejected]).toEqual([2, 0]);
  });

  it("a file two formats claim, given in a folder, stops the read (exit 1)", async () => {
    const both = { task_id: 1, reward: 1, traj: [], info: {}, termination_reason: "user_stop", reward_info: { reward: 1 } };
    const dir = tempDir({ "a.jsonl": `${JSON.stringify(both)}\n`, "b.jsonl": `${JSON.stringify({ task_id: "t", status: "success" })}\n` });
    const r = await denom(["report", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "a.jsonl: 2 formats claim it (tau-bench, tau2-bench): name its format with --input-format tau-bench or --input-format tau2-bench",
    );
    // --input-format settles it: 1 trial, reward 1 (tau-bench's full reward)
    const settled = (await denom(["report", "--json", "--input-format", "tau-bench", join(dir, "a.jsonl")])).json();
    expect(settled.rates.find((c: { basis: string; denominator: string }) => c.basis === "final" && c.denominator === "total")).toMatchObject({
      successes: 1,
      count: 1,
    });
  });

  it("every document shape claims its own first entries, and no other document shape does", () => {
    const entries: Record<string, { key: string; value: unknown }[]> = {
      "swe-bench-results": [{ key: "resolved_ids", value: ["a"] }],
      "mini-swe-agent-preds": [{ key: "i1", value: { instance_id: "i1", model_name_or_path: "m", model_patch: "" } }],
      "openhands-index": [{ key: "i1", value: { resolved: true, cost: 1 } }],
      "swe-bench-pro": [{ key: "i1", value: true }],
    };
    expect(Object.keys(entries).sort()).toEqual(DOCUMENT_FORMATS.map((f) => f.name).sort());
    for (const [name, first] of Object.entries(entries)) {
      const claims = DOCUMENT_FORMATS.filter((f) => fitDocument(f.shape, first, "run/preds.json")).map((f) => f.name);
      expect(claims).toEqual([name]);
    }
    // a per-instance report under its id is no OpenHands Index {id: {resolved, cost}} map
    const nested = [{ key: "i1", value: { patch_is_None: false, patch_exists: true, patch_successfully_applied: true, resolved: true } }];
    expect(DOCUMENT_FORMATS.filter((f) => fitDocument(f.shape, nested, "logs/i1/report.json"))).toEqual([]);
    // a per-instance report's flags at the top level are no {id: bool} map
    expect(fitDocument(DOCUMENT_FORMATS.find((f) => f.name === "swe-bench-pro")!.shape, [{ key: "patch_is_None", value: false }], "x.json")).toBe(false);
  });
});
