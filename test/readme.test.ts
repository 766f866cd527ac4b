/**
 * The README as a newcomer reads it: the two set-up commands first,
 * then every command block run as shown, in a fresh folder holding a copy of
 * samples/, its output compared with what the README prints. And the tables of
 * docs/formats.md generated from the declarations (STYLE convention 6): this
 * fails when a field, an alias or a doc string changes without the docs.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTEMPT_FIELDS } from "../src/formats/canonical-record.js";
import { FAILURE_MODE_STATUS } from "../src/formats/terminal-bench.js";
import { SECRET_KINDS } from "../src/ingest/records/secrets.js";
import { ROOT, denom, denomIn } from "./helpers.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const formatsDoc = readFileSync(join(ROOT, "docs", "inputs.md"), "utf8");

/** Files and phrases of this project's workspace that a user of the package does not have. */
const NOT_A_USERS = /DESIGN|MAPPING\.md|PROVENANCE|seed article|seed-article|\.\.\/shared|data\/real/;

/** A fenced block of the README: its info string and its lines. */
interface Block {
  lang: string;
  lines: string[];
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null;
  for (const line of text.split("\n")) {
    if (open === null && line.startsWith("```")) open = { lang: line.slice(3).trim(), lines: [] };
    else if (open !== null && line.startsWith("```")) {
      blocks.push(open);
      open = null;
    } else open?.lines.push(line);
  }
  return blocks;
}

/** The commands of a console block, each with the output printed under it. */
function commands(block: Block): { command: string; output: string }[] {
  const out: { command: string; output: string[] }[] = [];
  for (const line of block.lines) {
    if (line.startsWith("$ ")) out.push({ command: line.slice(2), output: [] });
    else out[out.length - 1]?.output.push(line);
  }
  return out.map((c) => ({ command: c.command, output: c.output.join("\n") }));
}

/**
 * Runs one README command as a shell would, in `cwd`, with `npx denom` the built
 * CLI of this checkout. stdout, then stderr when there is any: what the reader sees.
 */
function runShown(command: string, cwd: string): { code: number | null; seen: string } {
  const bin = `"${process.execPath}" "${join(ROOT, "dist", "bin.js")}"`;
  const r = spawnSync("sh", ["-c", command.replaceAll("npx denom", bin)], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", TZ: "UTC" },
    maxBuffer: 1 << 26,
  });
  return { code: r.status, seen: seenOf(r.stdout, r.stderr) };
}

/** CSV ends its records with CRLF (RFC 4180): a terminal shows it as a plain line end. */
function seenOf(stdout: string, stderr: string): string {
  return `${stdout}${stderr}`.replaceAll("\r\n", "\n").replace(/\n$/, "");
}

/**
 * The words of `npx denom WORDS` when the shell would only split them (plain words
 * and quoted ones, no pipe, redirection, variable, glob or escape): then denom runs
 * in this process on exactly those arguments, with `cwd` as the working folder; null
 * when the command needs a shell (it is spawned as the reader would type it).
 */
function denomWords(command: string): string[] | null {
  if (!command.startsWith("npx denom ")) return null;
  const words: string[] = [];
  // each word: plain characters, or one quoted string, then a space or the end
  const word = /"([^"$`\\!]*)"(?= |$)|'([^']*)'(?= |$)|([^\s"'|&;<>()$`\\*?[\]{}!#~]+)(?= |$)/y;
  let rest = command.slice("npx denom ".length).trimEnd();
  while (rest.length > 0) {
    word.lastIndex = 0;
    const m = word.exec(rest);
    if (!m) return null;
    words.push(m[1] ?? m[2] ?? m[3]);
    rest = rest.slice(m[0].length).trimStart();
  }
  return words.length > 0 ? words : null;
}

describe("README.md, walked as a newcomer would", () => {
  const blocks = fencedBlocks(readme);

  it("runs in this process only the commands a shell would just split into words", () => {
    expect(denomWords(`npx denom query --db runs.duckdb "SELECT a, b FROM t" --min final/total=0.8 --claim 87.5%`)).toEqual([
      "query",
      "--db",
      "runs.duckdb",
      "SELECT a, b FROM t",
      "--min",
      "final/total=0.8",
      "--claim",
      "87.5%",
    ]);
    expect(denomWords("npx denom report 'my runs.jsonl'")).toEqual(["report", "my runs.jsonl"]);
    for (const shell of [
      "npx denom report - | head -3",
      "npx denom report x > out.txt",
      "npx denom report $HOME",
      'npx denom report "$X"',
      "npx denom report *.jsonl",
      "npx denom report a\\ b",
      'npx denom report a"b"',
      "cat x | npx denom report -",
      "tar czf x.tgz a",
    ])
      expect(denomWords(shell), shell).toBeNull();
  });

  it("starts with the two set-up commands, then the main job on a shipped sample with its output", () => {
    expect(blocks[0]).toEqual({ lang: "sh", lines: ["npm ci", "npm test"] });
    expect(blocks[1].lang).toBe("console");
    expect(blocks[1].lines[0]).toBe("$ npx denom report samples/seed-100.jsonl");
    // the main job's output is printed whole, not an excerpt
    expect(blocks[1].lines.length).toBeGreaterThan(40);
  });

  it("prints what it shows for every command it shows (npm ci and npm test aside)", async () => {
    // a folder of the reader's own, with the samples the README names
    const cwd = mkdtempSync(join(tmpdir(), "denom-readme-"));
    cpSync(join(ROOT, "samples"), join(cwd, "samples"), { recursive: true });
    const shown = blocks.filter((b) => b.lang === "console").flatMap(commands);
    expect(shown.length).toBeGreaterThan(8);
    // a command the shell would only split into words runs in this process (the same main()
    // as dist/bin.js, which the piped commands still spawn); the others through sh
    expect(shown.filter((c) => denomWords(c.command) === null).length).toBeGreaterThan(0);
    for (const { command, output } of shown) {
      const words = denomWords(command);
      const r = words ? await denomIn(cwd, words).then((d) => ({ code: d.code, seen: seenOf(d.stdout, d.stderr) })) : runShown(command, cwd);
      expect(r.code, command).toBe(0);
      // nothing varies in these outputs (no timings, no absolute paths): compared as they are
      expect(r.seen, command).toBe(output);
    }
  }, 600_000);

  it("is short, links only docs that exist, and names no file a user does not have", async () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(15_000);
    for (const [, link] of readme.matchAll(/\]\(((?:docs\/)?[\w.-]+\.md|LICENSE)(?:#[\w-]+)?\)/g)) expect(existsSync(join(ROOT, link)), link).toBe(true);
    expect(readme).not.toMatch(NOT_A_USERS);
    for (const doc of [
      "commands",
      "metrics",
      "inputs",
      "sql-views",
      "exit-codes",
      "benchmarks",
      "development",
      "html-report",
      "architecture",
      "identity-and-inputs",
      "compare",
    ])
      expect(readFileSync(join(ROOT, "docs", `${doc}.md`), "utf8"), doc).not.toMatch(NOT_A_USERS);
    const formats = await denom(["formats"]);
    expect(formats.stdout).not.toMatch(NOT_A_USERS);
  });
});

/** The markdown table of the canonical attempt record, as docs/formats.md shows it. */
function fieldTable(): string {
  const rows = ATTEMPT_FIELDS.map((f) => {
    const aliases = (f.aliases ?? []).map((a) => `\`${a}\``).join(", ");
    return `| \`${f.field}\` | ${aliases} | ${f.kind}${f.required ? ", required" : ""} | ${f.doc.replaceAll("|", "\\|")} |`;
  });
  return ["| field | aliases | type | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

describe("docs/inputs.md", () => {
  it("shows the canonical record's fields as declared in src/formats/canonical-record.ts", () => {
    expect(formatsDoc).toContain(fieldTable());
  });

  it("shows the Terminal-Bench failure modes that decide a status, as declared in the adapter", () => {
    for (const [mode, status] of Object.entries(FAILURE_MODE_STATUS)) expect(formatsDoc).toContain(`| \`${mode}\` | ${status} |`);
  });

  it("links the mapping tables of every format (docs/formats.md, generated from the adapters: test/formats-doc.test.ts)", () => {
    expect(readme).toContain("[docs/formats.md](docs/formats.md)");
  });

  it("lists the secrets masked as declared in src/ingest/records/secrets.ts", () => {
    // the table lives in docs/security.md; the README links to it
    const security = readFileSync(join(ROOT, "docs", "security.md"), "utf8");
    const rows = SECRET_KINDS.map((k) => `| \`${k.kind}\` | ${k.describes.replaceAll("|", "\\|")} | ${k.gitleaks ?? ""} |`);
    expect(security).toContain(["| kind | masks | gitleaks rule |", "|---|---|---|", ...rows].join("\n"));
    expect(readme).toContain("(docs/security.md#secrets)");
  });
});
