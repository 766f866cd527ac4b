/**
 * Secrets: every form of the corpus (test/fixtures/secrets-corpus.ts)
 * is masked in every place a string can sit, and no ordinary identifier is
 * touched. The forms are anchored on gitleaks' default rules where it has one
 * (SecretKind.gitleaks names it).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { Database, sqlString } from "../src/db/database.js";
import { keyedKind, maskOf, maskSecrets, maskUnit, maskValue, maySecret, SECRET_KINDS } from "../src/ingest/records/secrets.js";
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

/** The placements of a form's text inside a string, as a harness writes them: escaped as JSON (slashes too), and as a JSON text inside a JSON string. */
function escapedForms(f: SecretForm): string[] {
  const text = formText(f);
  const keyed = f.key !== undefined ? { [f.key]: f.secret } : {};
  const json = JSON.stringify({ detail: text, ...keyed });
  return [
    JSON.stringify(text),
    JSON.stringify(text).replaceAll("/", "\\/"),
    json,
    JSON.stringify({ log: json }),
    JSON.stringify({ log: json }).replaceAll("/", "\\/"),
  ];
}

describe("the secrets corpus", () => {
  it("holds at least 100 forms, each with a near miss, and 100 ordinary strings; every kind masks one of them", () => {
    expect(SECRET_FORMS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(SECRET_FORMS.map((f) => f.name)).size).toBe(SECRET_FORMS.length);
    expect(SECRET_FORMS.every((f) => f.nearMiss.length > 0)).toBe(true);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(100);
    expect(new Set(ORDINARY).size).toBe(ORDINARY.length);
    for (const k of SECRET_KINDS) {
      const hit = SECRET_FORMS.some((f) => [formText(f), ...escapedForms(f)].some((t) => (k.pattern.lastIndex = 0) === 0 && k.pattern.test(unescapeOnce(t))));
      expect(hit, `${k.kind}: ${k.describes}`).toBe(true);
    }
  });

  it.each(SECRET_FORMS.map((f) => [f.name, f] as const))("masks %s, once, as its kind, and not its near miss", (_name, f: SecretForm) => {
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
    // escaped as JSON (with \/ too), and as a JSON text inside a string: masked all the same
    for (const raw of escapedForms(f)) {
      const shown = maskSecrets(raw).text;
      for (const s of survivors(f)) expect(shown.includes(s), shown).toBe(false);
      expect(maySecret(raw), raw).toBe(true);
    }
    // the cheap test on raw lines finds it in JSON text, after an escaped newline, and
    // after a non-ASCII letter written as Python writes it (\u00e9)
    for (const raw of [JSON.stringify({ e: text }), JSON.stringify({ e: `x\n${text}` }), JSON.stringify({ e: `caf\u00e9${text}` }).replace("é", "\\u00e9")])
      expect(maySecret(raw), raw).toBe(true);
    // the near miss stays as written, as text, escaped, and as a JSON key and value
    expect(maskSecrets(f.nearMiss), f.nearMiss).toEqual({ text: f.nearMiss, masked: 0, counts: {} });
    expect(maskSecrets(JSON.stringify({ detail: f.nearMiss })).masked, f.nearMiss).toBe(0);
    expect(maskValue({ task_id: f.nearMiss, [f.nearMiss]: { note: f.nearMiss } }).masked, f.nearMiss).toBe(0);
  });

  it("masks the secret exactly where it is (the text around it stays)", () => {
    // the mask replaces the secret and nothing else: `[masked KIND #` + 8 hex digits of its sha256 + `]`
    for (const f of SECRET_FORMS.filter((f) => f.text !== undefined && !f.secret.includes("-----BEGIN"))) {
      expect(maskSecrets(formText(f)).text, f.name).toBe(f.text!.replace("${S}", maskOf(f.kind, f.secret)));
    }
  });

  it("masks a secret escaped as JSON where its escaped characters stand, with the fingerprint of the secret as written", () => {
    // `/` written `\/`: the whole escaped span is replaced by the mask of the unescaped secret
    const url = "https://hooks.slack.com/services/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";
    const raw = JSON.stringify({ e: url }).replaceAll("/", "\\/");
    expect(maskSecrets(raw).text).toBe(
      `{"e":"https:\\/\\/hooks.slack.com\\/services\\/${maskOf("slack_webhook", "T0WDP2HAI/BXB8D0F87WK/oGz9I4p8d948Ph8Omq8q3xK8")}"}`,
    );
    // a JSON text in a string: `\"password\": \"...\"` (the key's kind names the mask)
    const inner = `{"log": "{\\"user\\": \\"eval\\", \\"password\\": \\"hunter2 x\\"}"}`;
    expect(maskSecrets(inner).text).toBe(`{"log": "{\\"user\\": \\"eval\\", \\"password\\": \\"${maskOf("password", "hunter2 x")}\\"}"}`);
  });

  it("looks again inside a refused match: a keyed secret in the value of a key that names none", () => {
    // `"monkey": "..."` ends in `key` but names no secret: refused, then its value is read on from its second character
    const text = `{"monkey": "x {'api_token': 'qwErTyUiOpAsDfGhJkLz'}"}`;
    expect(maskSecrets(text).text).toBe(`{"monkey": "x {'api_token': '${maskOf("credential", "qwErTyUiOpAsDfGhJkLz")}'}"}`);
  });

  it("changes none of the ordinary strings, in text, escaped as JSON, or as JSON keys and values", () => {
    for (const text of ORDINARY) {
      expect(maskSecrets(text), text).toEqual({ text, masked: 0, counts: {} });
      for (const raw of [JSON.stringify(text), JSON.stringify({ log: JSON.stringify({ detail: text }) })]) expect(maskSecrets(raw).masked, raw).toBe(0);
      expect(maskValue({ task_id: text, [text]: { note: text } }).masked, text).toBe(0);
    }
    // the cheap test lets an ordinary line through
    expect(maySecret(JSON.stringify({ task_id: "task-001", status: "success", error_message: "risk-free half_done", llm_tokens: 12 }))).toBe(false);
  });
});

/** JSON escapes undone once, for matching a kind's pattern as maskSecrets does. */
function unescapeOnce(t: string): string {
  return t.replace(/\\u([0-9a-fA-F]{4})|\\(.)/g, (_m, hex: string | undefined, c: string) =>
    hex ? String.fromCharCode(Number.parseInt(hex, 16)) : c === "n" ? "\n" : c,
  );
}

describe("a value of megabytes", () => {
  it("is masked without running out of the regex's backtracking stack: matched in pieces, the first holding the key", () => {
    // 8 million characters after `api_key=`: one regex over all of it throws RangeError in V8
    const m = maskSecrets(`api_key=${"a1".repeat(4_000_000)}`);
    expect(m.text.startsWith(`api_key=${maskOf("credential", "a1".repeat(32_764))}`)).toBe(true);
    expect(m.counts.credential).toBe(1);
  });
});

describe("a private key cut into lines", () => {
  const rsa = SECRET_FORMS.find((f) => f.name === "RSA private key")!.secret;
  const lines = rsa.split("\n");
  const body = lines.slice(1, -1);

  it("masks every body line of a record whose strings hold the key line by line, the short last one too", () => {
    // 1190 bytes of key: 1588 base64 characters, 24 full lines of 64 and a last one of 52
    expect(body.map((l) => l.length)).toEqual([...Array(24).fill(64), 52]);
    const unit = { line: 1, location: null, value: { task_id: "t", events: lines.map((l) => ({ out: l })) }, text: "", nonFinite: 0 };
    unit.text = JSON.stringify(unit.value);
    const { unit: out, masked } = maskUnit(unit);
    const shown = JSON.stringify(out.value) + out.text;
    for (const l of body) expect(shown.includes(l), l).toBe(false);
    // the BEGIN line masks itself (to the end of its string); each body line is one mask
    expect(masked).toEqual({ private_key: 1 + body.length });
  });

  it("masks each full body line alone in its own record, and leaves base64 of ordinary text alone", () => {
    for (const l of body.slice(0, -1)) {
      const text = JSON.stringify({ task_id: "t", status: "failure", error_message: l });
      const { unit } = maskUnit({ line: 1, location: null, value: JSON.parse(text), text, nonFinite: 0 });
      expect(unit.value.error_message).toBe(maskOf("private_key", l));
      expect(unit.text.includes(l)).toBe(false);
    }
    const prose = Buffer.from("The quick brown fox jumps over the lazy dog; the log goes on here").toString("base64");
    expect(prose.length).toBe(88);
    const line64 = prose.slice(0, 64);
    expect(maskSecrets(line64).masked).toBe(0);
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

/** A form told only when alone in its line or string: a private key's body line without its BEGIN line. */
const alone = (f: SecretForm) => f.kind === "private_key" && !f.secret.includes("-----BEGIN");

describe("no secret survives in any place a string sits, nor in the --db file", () => {
  // names on disk hold no `/` and no newline; the longest stay under the 255-byte limit; a key's body
  // line is no secret one can tell inside a name (docs/security.md)
  const nameable = SECRET_FORMS.map((f, i) => [i, f] as const).filter(([, f]) => !/[/\n]/.test(formText(f)) && formText(f).length < 200 && !alone(f));

  /** The lines of run.jsonl: every form in every placement; how many are records and how many rejects (each counted as pushed). */
  function runLines(): { lines: string[]; records: number; rejected: number } {
    const lines: string[] = [];
    let records = 0;
    let rejected = 0;
    const record = (line: string) => {
      lines.push(line);
      records++;
    };
    const reject = (line: string) => {
      lines.push(line);
      rejected++;
    };
    SECRET_FORMS.forEach((f, i) => {
      const text = formText(f);
      const keyed = f.key !== undefined ? { [f.key]: f.secret } : {};
      const escaped = JSON.stringify({ detail: text, ...keyed });
      // a key's body line is told only alone in its line: the task id puts it on a line of its own
      const id = alone(f) ? `t${i}\n${text}` : `t${i} ${text}`;
      // task id, message, event arguments (a value, a key, a keyed value), nested keys, an unknown field
      record(
        JSON.stringify({
          task_id: id,
          status: "timeout",
          error_message: text,
          events: [{ type: "tool_call", name: "http", args: { cmd: text, [text]: 1, headers: keyed } }],
          harness: { nested: { [text]: { deep: [text] } }, config: keyed },
        }),
      );
      // escaped as JSON inside a string (a JSON text in a message), and the line written with `\/`
      record(JSON.stringify({ task_id: `j${i}`, status: "failure", error_message: escaped }).replaceAll("/", "\\/"));
      // the text cut into lines, one string each, in one record
      record(JSON.stringify({ task_id: `m${i}`, status: "failure", events: [{ type: "output", lines: text.split("\n") }] }));
      // a private key printed line by line: one record per line
      if (f.secret.includes("-----BEGIN"))
        for (const [j, l] of text.split("\n").entries()) record(JSON.stringify({ task_id: `p${i}-${j}`, status: "failure", error_message: l }));
      // rejects: a reason that quotes the value; excerpts of lines that are no JSON (as written,
      // written with `\/`, a JSON text inside a string, a key's value, plain text)
      reject(JSON.stringify({ task_id: `r${i}`, status: "failure", trial: text }));
      reject(`{"task_id": "x${i}", "error": ${JSON.stringify(text)} oops}`);
      reject(`{"task_id": "y${i}", "error": ${JSON.stringify(text).replaceAll("/", "\\/")} oops}`);
      reject(`{"task_id": "z${i}", "log": ${JSON.stringify(escaped)} oops}`);
      if (f.key !== undefined) reject(`{"task_id": "k${i}", ${JSON.stringify(f.key)}: ${JSON.stringify(f.secret)} oops}`);
      reject(alone(f) ? text : `not json: ${text.replaceAll("\n", " ")}`);
    });
    return { lines, records, rejected };
  }

  async function inputs(): Promise<string> {
    const { lines } = runLines();
    const files: Record<string, string | Buffer> = { "run.jsonl": lines.join("\n") + "\n" };
    const one = JSON.stringify({ task_id: "named", status: "success" }) + "\n";
    for (const [i, f] of nameable) files[`${i}-${formText(f)}.jsonl`] = one;
    // archive members: read ones and skipped ones (listed with their names)
    const members: Record<string, string> = {};
    SECRET_FORMS.forEach((f, i) => {
      if (formText(f).includes("\n") || alone(f)) return;
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
    // every line of run.jsonl is accounted: a record, or a reject, as runLines counted them
    const added = ingest.json().added as { name: string; records: number; rejected: number }[];
    const run = added.find((a) => a.name.endsWith("run.jsonl"))!;
    const { records, rejected } = runLines();
    expect([run.records, run.rejected]).toEqual([records, rejected]);
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

  it("leaves the ordinary strings and the near misses exactly as written: task ids, messages, JSON texts in messages, reject excerpts", async () => {
    const plain = [...new Set([...ORDINARY, ...SECRET_FORMS.map((f) => f.nearMiss)])];
    const lines = plain.flatMap((text, i) => [
      JSON.stringify({ task_id: text, status: "success", error_message: text }),
      JSON.stringify({ task_id: `e${i}`, status: "failure", error_message: JSON.stringify({ detail: text }) }).replaceAll("/", "\\/"),
      `{"task_id": "x${i}", "error": ${JSON.stringify(text)} oops}`,
    ]);
    const dir = tempDir({ "ids.jsonl": lines.join("\n") + "\n" });
    const db = join(dir, "store.duckdb");
    expect((await denom(["ingest", join(dir, "ids.jsonl"), "--db", db])).code).toBe(0);
    const out = join(dir, "attempts.json");
    expect((await denom(["export", "--db", db, "--out", out, "--what", "attempts"])).code).toBe(0);
    const rows = JSON.parse(readFileSync(out, "utf8")) as { task_id: string; error_message: string }[];
    const byId = new Map(rows.map((x) => [x.task_id, x.error_message]));
    plain.forEach((text, i) => {
      expect(byId.get(text), text).toBe(text);
      expect(byId.get(`e${i}`), text).toBe(JSON.stringify({ detail: text }));
    });
    expect(JSON.parse(readFileSync(`${out}.meta.json`, "utf8")).accounting.secrets_masked).toBe(0);
    // the rejects' excerpts hold the lines as written (short ones whole)
    const rj = join(dir, "rejects.json");
    expect((await denom(["export", "--db", db, "--out", rj, "--what", "rejects"])).code).toBe(0);
    const excerpts = (JSON.parse(readFileSync(rj, "utf8")) as { excerpt: string }[]).map((r) => r.excerpt);
    expect(excerpts.length).toBe(plain.length);
    expect(excerpts.filter((e) => e.includes("[masked"))).toEqual([]);
  });
});
