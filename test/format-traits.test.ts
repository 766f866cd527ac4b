/**
 * Issue 19: what the SQL must know of a harness is declared by its adapter
 * (FormatAdapter.traits) and reaches queries/ as the generated reference
 * tables format_traits and phase_markers; no SQL outside a harness's own
 * folder tests a format's name, and the harness's words (its verdict, its
 * claims file) come through the adapter's hooks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_FORMATS } from "../src/formats/index.js";
import { formatTraitsSql, phaseMarkersSql } from "../src/formats/traits.js";
import type { Adapter } from "../src/formats/types.js";
import { parseClaimsText } from "../src/formats/claims.js";
import { ROOT } from "./helpers.js";

const QUERIES = join(ROOT, "queries");
const read = (path: string) => readFileSync(join(QUERIES, path), "utf8");

function sqlFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sqlFiles(dir, join(prefix, e.name)) : e.name.endsWith(".sql") ? [join(prefix, e.name)] : [],
  );
}

describe("format traits", () => {
  it("queries/reference/format_traits.sql and phase_markers.sql are what the adapters declare (regenerate: see src/formats/traits.ts)", () => {
    expect(read("reference/format_traits.sql")).toBe(formatTraitsSql());
    expect(read("reference/phase_markers.sql")).toBe(phaseMarkersSql());
  });

  it("hold one row per format, with Harbor numbered by start and its re-runs recognised, task-summary a summary record and Terminal-Bench's agent phase", () => {
    const sql = formatTraitsSql();
    expect(sql.match(/^ {8}\('/gm)).toHaveLength(ALL_FORMATS.length);
    expect(sql).toContain("('harbor', 'start_order', 'trial_name', 'as_recorded', false, null, 'errored_trials', '0-1', null)");
    expect(sql).toContain("('task-summary', 'as_recorded', null, 'as_recorded', true, null, 'named_only', null, null)");
    expect(sql).toContain("('agentcompass', 'as_recorded', null, 'as_recorded', false, 'agentcompass', 'named_only', '0-1', null)");
    // only Harbor's later jobs are recognised as re-runs on their own
    expect(sql.match(/'errored_trials', /g)).toHaveLength(1);
    // mini-swe-agent's passes: attempts of trials the evaluation report grades, numbered by start
    expect(sql).toContain("('mini-swe-agent-exit-statuses', 'as_recorded', null, 'start_order', false, null, 'named_only', null, null)");
    // the formats whose success rule reads a number on a 0-1 scale declare it; the others are decided by booleans or id lists
    expect([...sql.matchAll(/^ {8}\('([^']+)'.*, '0-1', /gm)].map((m) => m[1]).sort()).toEqual([
      "agentcompass",
      "harbor",
      "inspect",
      "tau-bench",
      "tau2-bench",
    ]);
    // the formats whose runs hold sub-benchmarks name the raw field: Inspect's task
    expect([...sql.matchAll(/^ {8}\('([^']+)'.*, '([a-z_]+)'\),?$/gm)].map((m) => [m[1], m[2]])).toEqual([["inspect", "inspect_task"]]);
    expect(phaseMarkersSql()).toContain("('agent_started', 'agent_start'),\n        ('agent_ended', 'agent_end')\n");
  });

  it("refuse one phase event name with two meanings, and quote a declared quote", () => {
    const a = {
      name: "a",
      describes: "",
      detect: () => false,
      adapt: () => ({ attempts: [] }),
      traits: { agentPhase: { start: "go", end: "stop" } },
    } as Adapter;
    const b = { ...a, name: "b", traits: { agentPhase: { start: "stop", end: "end" } } } as Adapter;
    expect(() => phaseMarkersSql([a, b])).toThrow("phase event stop: agent_end in one format, agent_start in b");
    expect(formatTraitsSql([{ ...a, name: "o'brien" } as Adapter])).toContain(
      "('o''brien', 'as_recorded', null, 'as_recorded', false, null, 'named_only', null, null)",
    );
  });

  it("leave no format name tested in the SQL of queries/", () => {
    const offenders = sqlFiles(QUERIES)
      .filter((f) => !/reference[/\\](format_traits|phase_markers)\.sql$/.test(f))
      .flatMap((f) => {
        const code = read(f).replace(/--.*$/gm, "");
        return [...code.matchAll(/\bformat\s*(?:=|<>|!=|is\s+(?:not\s+)?distinct\s+from|(?:not\s+)?in\s*\()\s*'[^']*'/gi)].map((m) => `${f}: ${m[0]}`);
      });
    expect(offenders).toEqual([]);
    // nor the phase names the Terminal-Bench adapter declares
    for (const f of sqlFiles(QUERIES).filter((f) => !f.endsWith("phase_markers.sql")))
      expect(read(f).replace(/--.*$/gm, ""), f).not.toMatch(/'agent_(started|ended)'/);
  });
});

describe("a harness's claims file is read by its adapter (FormatAdapter.claims)", () => {
  it("OpenHands Index scores.json: one claim per benchmark, scoped to it", () => {
    // 68.1% printed with one decimal: [68.05%, 68.15%]
    const [c] = parseClaimsText(JSON.stringify([{ benchmark: "swt-bench", score: 68.1, metric: "accuracy" }]), "m/scores.json");
    expect([c.text, c.label, c.benchmark, c.decimals]).toEqual(["68.1%", "swt-bench (accuracy), scores.json", "swt-bench", 1]);
    expect(() => parseClaimsText(JSON.stringify([{ benchmark: "x", score: 101 }]), "s.json")).toThrow("--claims s.json[0]: 101%: more than 100%");
  });

  it("AgentBench overall.json: each rate under custom, labelled with its path", () => {
    const claims = parseClaimsText(JSON.stringify({ total: 4, validation: {}, custom: { overall: { acc: 0.5 } } }), "t/overall.json");
    expect(claims.map((c) => [c.text, c.label])).toEqual([["0.5", "custom.overall.acc over 4 samples, overall.json"]]);
    expect(() => parseClaimsText(JSON.stringify({ total: 4, validation: {}, custom: {} }), "o.json")).toThrow(
      "an AgentBench overall.json without a rate under custom",
    );
  });

  it("the adapters that declare one are the OpenHands Index scores, AgentBench overall, lm-eval results and HAL upload formats", () => {
    expect(ALL_FORMATS.filter((f) => "claims" in f && f.claims).map((f) => f.name)).toEqual([
      "agentbench-overall",
      "openhands-scores",
      "lm-eval-results",
      "hal-upload",
    ]);
    expect(ALL_FORMATS.filter((f) => "verdict" in f && f.verdict).map((f) => f.name)).toEqual(["agentcompass"]);
  });
});
