/**
 * Issue 16, secrets: every form of the corpus (test/fixtures/secrets-corpus.ts)
 * is masked in every place a string can sit, and no ordinary identifier is
 * touched. The forms are anchored on gitleaks' default rules where it has one
 * (SecretKind.gitleaks names it).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { Database, sqlString } from "../src/db/database.js";
import { keyedKind, maskOf, maskSecrets, maskValue, maySecret, SECRET_KINDS } from "../src/ingest/records/secrets.js";
import { formText, ORDINARY, SECRET_FORMS, survivors, type SecretForm } from "./fixtures/secrets-corpus.js";
import { denom, tarOf, tempDir } from "./helpers.js";

vi.setConfig({ testTimeout: 240_000 });

/** A JSON dump of DuckDB rows (BIGINT as text). */
const dump = (rows: unknown) => JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? String(v) : v));

function leaks(text: string): string[] {
  return SECRET_FORMS.flatMap((f) =>
    survivors(f)
      .filter((s) => text.includes(s))
      .map(() => f.name),
  );
}

describe("the secrets corpus", () => {
  it("holds at least 45 forms, and every kind has one", () => {
    expect(SECRET_FORMS.length).toBeGreaterThanOrEqual(45);
    const kinds = new Set(SECRET_FORMS.map((f) => f.kind));
    for (const k of SECRET_KINDS) expect(kinds.has(k.kind), k.kind).toBe(true);
  });

  it.each(SECRET_FORMS.map((f) => [f.name, f] as const))("masks %s, once, as its kind", (_name, f: SecretForm) => {
    if (f.key !== undefined) {
      // the value of its own JSON key: masked whole (the scheme word of an Authorization value stays)
      expect(keyedKind(f.key)).toBe(f.kind);
      const v = maskValue({ outer: { [f.key]: f.secret } });
      const shown = JSON.stringify(v.value);
      for (const s of survivors(f)) expect(shown.includes(s), shown).toBe(false);
      expect(v.counts).toEqual({ [f.kind]: 1 });
    }
    const text = formText(f);
    const m = maskSecrets(text);
    for (const s of survivors(f)) expect(m.text.includes(s), m.text).toBe(false);
    expect(m.counts[f.kind] ?? 0, JSON.stringify(m.counts)).toBeGreaterThanOrEqual(1);
    // masking twice finds nothing new
    expect(maskSecrets(m.text).masked).toBe(0);
    // the cheap test on raw lines finds it in JSON text, after an escaped newline, and
    // after a non-ASCII letter written as Python writes it (\u00e9)
    for (const raw of [JSON.stringify({ e: text }), JSON.stringify({ e: `x\n${text}` }), JSON.stringify({ e: `caf\u00e9${text}` }).replace("é", "\\u00e9")])
      expect(maySecret(raw), raw).toBe(true);
  });

  it("masks the secret exactly where it is (the text around it stays)", () => {
    // the mask replaces the secret and nothing else: `[masked KIND #` + 8 hex digits of its sha256 + `]`
    for (const f of SECRET_FORMS.filter((f) => f.text !== undefined && f.kind !== "private_key")) {
      expect(maskSecrets(formText(f)).text, f.name).toBe(f.text!.replace("${S}", maskOf(f.kind, f.secret)));
    }
  });

  it("changes none of the ordinary identifiers, in text or as JSON keys and values", () => {
    expect(ORDINARY.length).toBeGreaterThanOrEqual(45);
    for (const text of ORDINARY) {
      expect(maskSecrets(text), text).toEqual({ text, masked: 0, counts: {} });
      expect(maskValue({ task_id: text, [text]: { note: text } }).masked, text).toBe(0);
    }
    // the cheap test lets an ordinary line through
    expect(maySecret(JSON.stringify({ task_id: "task-001", status: "success", error_message: "risk-free half_done", llm_tokens: 12 }))).toBe(false);
  });
});

describe("the cheap test on raw lines (maySecret), at the edges of its hints", () => {
  // each expected value worked out by hand from the hints in src/ingest/records/secrets.ts
  it.each([
    // `sk-` inside a word (task-) is no hint; the rest names nothing either
    ['{"task_id":"task-001","status":"success"}', false],
    // a keyed name in any case of its letters
    ['{"note":"PASSWORD reset"}', true],
    ['{"note":"PassWd"}', true],
    ['{"Client_SECRET":1}', true],
    ['{"x":"AuthoriZation"}', true],
    // a name of `token` or `key` counts only before a quote, `=` or `:`, blanks (\s: tabs, no-break and line separators too) between
    ['{"TOKEN" : 1}', true],
    ['{"x":"tokens are counted"}', false],
    ['{"x":"the token\u00a0= 1"}', true],
    ['{"x":"token\t\t: 1"}', true],
    ['{"x":"token\u2028= 1"}', true],
    // a zero-width space is no blank (\s): no hint
    ['{"x":"token\u200b= 1"}', false],
    // `key` before a quote (the JSON key's own closing quote counts), or `key_id` / `keyid`
    ['{"monkey":1}', true],
    ['{"x":"KeY_Id"}', true],
    ['{"x":"apikeyid"}', true],
    ['{"x":"key__id"}', false],
    ['{"x":"ke y: 1"}', false],
    // only ASCII letters match another case: the Kelvin sign is no K, the long s no s
    ['{"x":"\u212aey: 1"}', false],
    ['{"x":"\u017fecret"}', false],
    // the literal prefixes are case-sensitive
    ['{"x":"WHSEC_abc"}', false],
    ['{"x":"whsec_abc"}', true],
    ['{"x":"rk_TEST_1"}', false],
    ['{"x":"rk_test_1"}', true],
    // a prefix that needs a word boundary: after a space, after an escape (\n, \u00e9), not after a letter
    ['{"msg":"xsk-abc"}', false],
    ['{"msg":"x sk-abc"}', true],
    ['{"msg":"x\\nsk-abc"}', true],
    ['{"msg":"caf\\u00e9sk-abc"}', true],
    ['{"msg":"cafxhf_abc"}', false],
    ['{"msg":"(ghp_abc"}', true],
    ['{"msg":"aghp_abc"}', false],
    ['{"msg":"axoxb-1"}', false],
    ['{"msg":"-xoxb-1"}', true],
    // a hint that starts inside a bounded one whose boundary failed: `sk-` of `task-`, then `-----BEGIN` from its dash
    ['{"msg":"task-----BEGIN RSA PRIVATE KEY-----\\nMIIB"}', true],
    ['{"msg":"axoxb-----BEGIN EC PRIVATE KEY-----"}', true],
  ] as const)("%s -> %s", (line, expected) => {
    expect(maySecret(line)).toBe(expected);
  });

  it("masks a private key written right after a word that ends in a bounded hint (task-----BEGIN)", async () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----";
    const dir = tempDir({ "run.jsonl": JSON.stringify({ task_id: "t1", status: "failure", error_message: `task${pem}` }) + "\n" });
    const out = join(dir, "attempts.json");
    const r = await denom(["export", join(dir, "run.jsonl"), "--out", out, "--what", "attempts"]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(readFileSync(out, "utf8")) as { error_message: string }[];
    // the whole block, from its BEGIN line to its END line, is one private_key mask after the word `task`
    expect(rows.map((x) => x.error_message)).toEqual([`task${maskOf("private_key", pem)}`]);
  });
});

describe("no secret survives in any place a string sits, nor in the --db file", () => {
  // names on disk hold no `/` and no newline; the longest stay under the 255-byte limit
  const nameable = SECRET_FORMS.map((f, i) => [i, f] as const).filter(([, f]) => !/[/\n]/.test(formText(f)) && formText(f).length < 200);

  async function inputs(): Promise<string> {
    const lines: string[] = [];
    SECRET_FORMS.forEach((f, i) => {
      const text = formText(f);
      const keyed = f.key !== undefined ? { [f.key]: f.secret } : {};
      // task id, message, event arguments (a value, a key, a keyed value), nested keys, an unknown field
      lines.push(
        JSON.stringify({
          task_id: `t${i} ${text}`,
          status: "timeout",
          error_message: text,
          events: [{ type: "tool_call", name: "http", args: { cmd: text, [text]: 1, headers: keyed } }],
          harness: { nested: { [text]: { deep: [text] } }, config: keyed },
        }),
      );
      // a reject whose reason quotes the value, and one whose excerpt shows the line
      lines.push(JSON.stringify({ task_id: `r${i}`, status: "failure", trial: text }));
      lines.push(`{"task_id": "x${i}", "error": ${JSON.stringify(text)} oops}`);
    });
    const files: Record<string, string | Buffer> = { "run.jsonl": lines.join("\n") + "\n" };
    const one = JSON.stringify({ task_id: "named", status: "success" }) + "\n";
    for (const [i, f] of nameable) files[`${i}-${formText(f)}.jsonl`] = one;
    // archive members: read ones and skipped ones (listed with their names)
    const members: Record<string, string> = {};
    SECRET_FORMS.forEach((f, i) => {
      if (formText(f).includes("\n")) return;
      members[`m${i}/${formText(f)}.jsonl`] = one;
      members[`s${i}/${formText(f)}.txt`] = "notes\n";
    });
    files["members.tar"] = await tarOf(members);
    const dir = tempDir(files);
    return dir;
  }

  it("task ids, messages, event args, nested keys, file and member names, reject reasons; report, timeouts, export, query and the file's bytes", async () => {
    const dir = await inputs();
    const db = join(dir, "store.duckdb");
    const outputs: Record<string, string> = {};
    const ingest = await denom(["ingest", dir, "--db", db, "--json"]);
    expect(ingest.code).toBe(0);
    outputs["ingest stdout"] = ingest.stdout;
    outputs["ingest stderr"] = ingest.stderr;
    // every line of run.jsonl is accounted: a record, or one of the two rejects per form
    const added = ingest.json().added as { name: string; records: number; rejected: number }[];
    const run = added.find((a) => a.name.endsWith("run.jsonl"))!;
    expect([run.records, run.rejected]).toEqual([SECRET_FORMS.length, 2 * SECRET_FORMS.length]);
    for (const args of [["report", "--json"], ["report"], ["report", "--format", "md"], ["timeouts", "--json"], ["timeouts"]]) {
      const r = await denom([...args, "--db", db]);
      expect(r.code, args.join(" ")).toBe(0);
      outputs[`${args.join(" ")} stdout`] = r.stdout;
      outputs[`${args.join(" ")} stderr`] = r.stderr;
    }
    const report = JSON.parse(outputs["report --json stdout"]);
    expect(report.accounting.secrets_masked).toBeGreaterThanOrEqual(6 * SECRET_FORMS.length);
    for (const what of ["attempts", "rejects", "timeouts"]) {
      const out = join(dir, `${what}.json`);
      expect((await denom(["export", "--db", db, "--out", out, "--what", what])).code).toBe(0);
      outputs[out] = readFileSync(out, "utf8");
      outputs[`${out}.meta.json`] = readFileSync(`${out}.meta.json`, "utf8");
    }
    const q = await denom(["query", "--db", db, "--json", "SELECT * FROM sources, skipped_members"]);
    outputs["query"] = q.stdout + q.stderr;
    for (const [what, text] of Object.entries(outputs)) expect(leaks(text), what).toEqual([]);
    // the reject reasons still say what was wrong, with the mask in place of the secret
    const rejects = JSON.parse(outputs[join(dir, "rejects.json")]) as { reason: string }[];
    const f0 = SECRET_FORMS[0];
    expect(rejects.map((r) => r.reason)).toContain(`trial: expected a number, got ${JSON.stringify(maskSecrets(formText(f0)).text)}`);
    // the file: no table holds one, nor do its bytes
    const check = await Database.open();
    try {
      await check.run(`ATTACH ${sqlString(db)} AS s (READ_ONLY)`);
      const tables = await check.all("SELECT table_name FROM duckdb_tables() WHERE database_name = 's' ORDER BY 1");
      expect(tables.length).toBeGreaterThan(4);
      for (const t of tables) expect(leaks(dump(await check.all(`SELECT * FROM s.main."${t.table_name}"`))), String(t.table_name)).toEqual([]);
    } finally {
      check.close();
    }
    for (const file of readdirSync(dir).filter((n) => n.startsWith("store.duckdb")))
      expect(leaks(readFileSync(join(dir, file)).toString("latin1")), file).toEqual([]);
  });

  it("leaves ordinary identifiers exactly as written, as task ids in the export", async () => {
    const dir = tempDir({ "ids.jsonl": ORDINARY.map((id) => JSON.stringify({ task_id: id, status: "success", error_message: id })).join("\n") + "\n" });
    const out = join(dir, "attempts.json");
    const r = await denom(["export", join(dir, "ids.jsonl"), "--out", out, "--what", "attempts"]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(readFileSync(out, "utf8")) as { task_id: string; error_message: string }[];
    expect(rows.map((x) => x.task_id).sort()).toEqual([...ORDINARY].sort());
    expect(rows.every((x) => x.error_message === x.task_id)).toBe(true);
    expect(JSON.parse(readFileSync(`${out}.meta.json`, "utf8")).accounting.secrets_masked).toBe(0);
    writeFileSync(join(dir, "done"), "");
  });
});
