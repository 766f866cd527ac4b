/**
 * docs/formats.md is generated from the adapters' declarations: one
 * mapping table per format. Regenerate with `node dist/bin.js formats --format md > docs/formats.md`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFormats } from "../src/commands/formats.js";
import { ALL_FORMATS } from "../src/formats/index.js";
import { renderFormatsMarkdown } from "../src/render/formats-markdown.js";
import { denom, ROOT } from "./helpers.js";

const doc = readFileSync(join(ROOT, "docs", "formats.md"), "utf8");

describe("docs/formats.md", () => {
  it("is what the adapters declare (regenerate: denom formats --format md > docs/formats.md)", () => {
    expect(doc).toBe(renderFormatsMarkdown(runFormats()));
  });

  it("has a section for every format, in detection order", () => {
    const sections = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(ALL_FORMATS.map((f) => f.name));
  });

  it("is what denom formats --format md prints (--markdown and --md: hidden aliases)", async () => {
    const r = await denom(["formats", "--format", "md"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(doc);
    expect((await denom(["formats", "--markdown"])).stdout).toBe(doc);
    expect((await denom(["formats", "--help"])).stdout).not.toMatch(/--md\b|--markdown/);
    const both = await denom(["formats", "--markdown", "--format", "json"]);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining("--markdown and --format json ask for two outputs")]);
  });

  it("names what decides a success for every format whose records are attempts, in a table and in each section", () => {
    // the formats whose records hold no attempt (run descriptions, claims, patches, announced trials)
    const noAttempt = [
      "mini-swe-agent-preds",
      "harbor-job",
      "harbor-config",
      "harbor-trajectory",
      "openhands-run-metadata",
      "tau2-results",
      "mini-swe-agent-trajectory",
      "openhands-scores",
      "openhands-metadata",
      "swe-bench-preds",
      "lm-eval-results",
    ];
    const undeclared = ALL_FORMATS.filter((f) => !("success" in f && f.success)).map((f) => f.name);
    expect(undeclared).toEqual(noAttempt);
    expect(doc).toContain(
      "| [harbor](#harbor) | `verifier_result.rewards.reward` = 1 on a 0-1 scale (partial credit is a failure with its score); a job with a reward outside [0, 1] is unscored, decided only by `--success-threshold X` (reward >= X) |",
    );
    // the formats whose success a number on a 0-1 scale decides say so in their section
    const scaled = [...doc.matchAll(/^## (.+)\n(?:(?!^## )[\s\S])*?^Score scale: `0-1`/gm)].map((m) => m[1]);
    expect(scaled).toEqual(["harbor", "agentcompass", "tau-bench", "tau2-bench", "inspect"]);
    expect(doc).toContain("| [agentbench-overall](#agentbench-overall) | `custom.raw_results[].status` `completedCorrect` |");
    expect(doc).toContain("| [harbor-job](#harbor-job) | - (holds no attempt) |");
    expect(doc).toContain("Success when: `resolved` true.");
  });

  it("holds the Harbor exception table and the retries note", () => {
    expect(doc).toContain("| `exception AgentTimeoutError` | timeout, detail AgentTimeoutError |");
    expect(doc).toContain("| `exception NonZeroAgentExitCodeError` | reward decides; detail NonZeroAgentExitCodeError |");
    expect(doc).toContain("Note: Harbor deletes the folder of a trial it retries");
  });
});
