/**
 * The README's field table is generated from the declarations (STYLE convention 6):
 * this test fails when a field, an alias or a doc string changes without the README.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTEMPT_FIELDS } from "../src/ingest/canonical.js";
import { FAILURE_MODE_STATUS } from "../src/ingest/formats/terminal-bench.js";
import { SECRET_KINDS } from "../src/ingest/secrets.js";
import { ROOT } from "./helpers.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** The markdown table of the canonical attempt record, as README.md shows it. */
function fieldTable(): string {
  const rows = ATTEMPT_FIELDS.map((f) => {
    const aliases = (f.aliases ?? []).map((a) => `\`${a}\``).join(", ");
    return `| \`${f.field}\` | ${aliases} | ${f.kind}${f.required ? ", required" : ""} | ${f.doc.replaceAll("|", "\\|")} |`;
  });
  return ["| field | aliases | type | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

describe("README.md", () => {
  it("shows the canonical record's fields as declared in src/ingest/canonical.ts", () => {
    expect(readme).toContain(fieldTable());
  });

  it("shows the Terminal-Bench failure modes that decide a status, as declared in the adapter", () => {
    for (const [mode, status] of Object.entries(FAILURE_MODE_STATUS)) expect(readme).toContain(`| \`${mode}\` | ${status} |`);
  });

  it("links the mapping tables of every format (docs/formats.md, generated from the adapters: test/formats-doc.test.ts)", () => {
    expect(readme).toContain("[docs/formats.md](docs/formats.md)");
  });

  it("lists the secrets masked as declared in src/ingest/secrets.ts", () => {
    // the table lives in docs/security.md; the README links to it
    const security = readFileSync(join(ROOT, "docs", "security.md"), "utf8");
    const rows = SECRET_KINDS.map((k) => `| \`${k.kind}\` | ${k.describes.replaceAll("|", "\\|")} | ${k.gitleaks ?? ""} |`);
    expect(security).toContain(["| kind | masks | gitleaks rule |", "|---|---|---|", ...rows].join("\n"));
    expect(readme).toContain("(docs/security.md#secrets)");
  });

  it("starts with the two set-up commands, then the main job on a shipped sample", () => {
    const lines = readme.split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    expect(at(/^npm ci\b/)).toBeGreaterThan(0);
    expect(at(/^npm test\b/)).toBe(at(/^npm ci\b/) + 1);
    expect(at(/^npx denom report samples\/seed-100\.jsonl$/)).toBeGreaterThan(at(/^npm test\b/));
  });
});
