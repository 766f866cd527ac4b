/**
 * Secret masking (issue 7): API keys, bearer tokens, cloud key ids and the like
 * that harnesses leave in error messages are replaced once, at ingest, before
 * anything is stored, so no table, export, report or reject excerpt can show
 * them. The kinds are declared as data (SECRET_KINDS) so the README can list
 * them and the tests can walk them.
 *
 * A masked secret reads `[masked KIND #xxxxxxxx]`: the kind, and the first 8 hex
 * digits of the secret's sha256. The fingerprint keeps two different secrets
 * apart (two task ids holding different keys stay two tasks, and identical
 * lines stay identical) while revealing nothing usable (32 bits of a hash of a
 * random key of 100+ bits). The replacement holds no quote or backslash, so it
 * is safe inside JSON text.
 */
import { createHash } from "node:crypto";
import type { Unit } from "./reader.js";

/** One kind of secret: its name, what it is, and how it is found. */
export interface SecretKind {
  kind: string;
  /** what it is, for the README */
  describes: string;
  /**
   * Global regex; when it has a group named `secret`, only that group is masked
   * (the `Bearer ` before a token stays, so the message still reads).
   */
  pattern: RegExp;
  /** a further check on the matched secret (e.g. mixed case), to keep ordinary ids unmasked */
  accept?: (secret: string) => boolean;
}

/** Random-looking: holds a digit, a lower-case and an upper-case letter (true of generated keys, rarely of a task id). */
const mixed = (s: string) => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);

/** Every kind masked, in the order they are tried (the first that matches a piece of text masks it). */
export const SECRET_KINDS: readonly SecretKind[] = [
  {
    kind: "private_key",
    describes: "a PEM private key block, `-----BEGIN ... PRIVATE KEY-----` to its END line (or the end of the text)",
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  },
  {
    kind: "bearer_token",
    describes: "the token after `Bearer `, `bearer ` or `BEARER `, 16 characters or more",
    pattern: /\b(?:[Bb]earer|BEARER)[ \t]+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g,
  },
  {
    kind: "jwt",
    describes: "a JSON Web Token: `eyJ...` `.eyJ...` `.signature`",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    kind: "api_key",
    describes: "an OpenAI or Anthropic style key: `sk-` (also `sk-proj-`, `sk-ant-...`) and 20 or more letters, digits, `-` or `_` mixing digits, lower and upper case",
    pattern: /\bsk-[A-Za-z0-9_-]{20,}/g,
    accept: mixed,
  },
  {
    kind: "aws_access_key_id",
    describes: "an AWS access key id: `AKIA`, `ASIA`, `ABIA` or `ACCA` and 16 upper-case letters or digits",
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
  },
  {
    kind: "aws_secret_access_key",
    describes: "the 40-character value after `aws_secret_access_key` or `AWS_SECRET_ACCESS_KEY` (`=` or `:`)",
    pattern: /(?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY)["']?\s*[=:]\s*["']?(?<secret>[A-Za-z0-9/+=]{40})/g,
  },
  {
    kind: "github_token",
    describes: "a GitHub token: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` or `github_pat_` and 20 or more characters",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  },
  {
    kind: "slack_token",
    describes: "a Slack token: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-` and 10 or more characters",
    pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  },
  {
    kind: "google_api_key",
    describes: "a Google API key: `AIza` and 35 characters",
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
  },
  {
    kind: "huggingface_token",
    describes: "a Hugging Face token: `hf_` and 30 or more letters or digits",
    pattern: /\bhf_[A-Za-z0-9]{30,}/g,
  },
  {
    kind: "url_password",
    describes: "the password of a URL with credentials, `scheme://user:PASSWORD@host`",
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'\\]+:(?<secret>[^\s/@"'\\]+)(?=@)/gi,
  },
];

/**
 * The cheap test run on every line before any masking (about 2 ms per MB): one
 * regex of plain literals, which V8 scans fast, that every kind above needs.
 * The prefixes that need a word boundary (`sk-`, `hf_`, `ghp_`, `xoxb-`...) are
 * checked for one by hand (boundaryBefore), as `task-` holds `sk-`. A secret
 * written with `\\u` escapes for its ASCII letters is caught by `\\u00[2-7]`.
 * A kind added above must be found by this test too (test/hostile-input.test.ts
 * checks every kind's example against it).
 */
const HINT = /-----BEGIN|earer|EARER|eyJ|AKIA|ASIA|ABIA|ACCA|_secret_|SECRET_|github_pat_|AIza|:\/\/|\\u00[2-7]|sk-|hf_|gh[pousr]_|xox[abprs]-/g;

/** True when `text` may hold a secret (a cheap scan; maskSecrets decides). */
export function maySecret(text: string): boolean {
  HINT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = HINT.exec(text)) !== null) {
    const found = m[0];
    const bounded = found === "sk-" || found === "hf_" || (found.length === 4 && found[0] === "g") || found[0] === "x";
    if (!bounded || boundaryBefore(text, m.index)) return true;
  }
  return false;
}

/**
 * Whether a word boundary can stand before `text[i]` once the text is parsed: a
 * non-word character or the start; or, in JSON text, an escape just before it
 * (`\\n` then `sk-`, or `\\u00e9` then `sk-`) whose last character is a letter or digit.
 */
function boundaryBefore(text: string, i: number): boolean {
  if (i === 0 || !isWordChar(text.charCodeAt(i - 1))) return true;
  if (i >= 2 && text.charCodeAt(i - 2) === 92 /* \ */) return true;
  return i >= 6 && text.charCodeAt(i - 6) === 92 && text.charCodeAt(i - 5) === 117 /* u */;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** How many secrets of each kind were masked. */
export type SecretCounts = Record<string, number>;

/** Text with every secret masked, and how many of each kind were. */
export interface Masked {
  text: string;
  /** total secrets masked */
  masked: number;
  counts: SecretCounts;
}

/** What a masked secret reads, e.g. `[masked api_key #1a2b3c4d]`. */
export function maskOf(kind: string, secret: string): string {
  return `[masked ${kind} #${createHash("sha256").update(secret).digest("hex").slice(0, 8)}]`;
}

/**
 * Masks every secret of SECRET_KINDS in `text`. Pure. Text already masked is
 * left as it is (a mask matches no kind), so masking twice counts nothing new.
 */
export function maskSecrets(text: string): Masked {
  if (!maySecret(text)) return { text, masked: 0, counts: {} };
  let out = text;
  let masked = 0;
  const counts: SecretCounts = {};
  for (const k of SECRET_KINDS) {
    k.pattern.lastIndex = 0;
    if (!k.pattern.test(out)) continue;
    k.pattern.lastIndex = 0;
    out = out.replace(k.pattern, (whole: string, ...rest: unknown[]) => {
      const groups = rest[rest.length - 1] as Record<string, string> | undefined;
      const secret = typeof groups === "object" && groups?.secret !== undefined ? groups.secret : whole;
      if (k.accept && !k.accept(secret)) return whole;
      masked++;
      counts[k.kind] = (counts[k.kind] ?? 0) + 1;
      // a named group ends the match in every kind above: keep what precedes it (`Bearer `)
      return whole.slice(0, whole.length - secret.length) + maskOf(k.kind, secret);
    });
  }
  return { text: out, masked, counts };
}

/**
 * A unit with every secret of its value masked (maskValue) and its text masked
 * too (the text is hashed to tell identical duplicates), and the counts per
 * kind; `masked` is null when there was none. A line without a hint of a secret
 * (nearly all) costs one scan of its text.
 */
export function maskUnit(u: Unit): { unit: Unit; masked: SecretCounts | null } {
  // a document's header (its keys before the record array) is shared by its units: masked
  // in place once, with the first unit, and counted there
  let header: SecretCounts | null = null;
  if (u.header && !maskedHeaders.has(u.header)) {
    maskedHeaders.add(u.header);
    const h = maskValue(u.header);
    if (h.masked) header = h.counts;
  }
  if (!maySecret(u.text)) return { unit: u, masked: header };
  const v = maskValue(u.value);
  if (v.masked === 0) return { unit: u, masked: header };
  if (header) addCounts(v.counts, header);
  return { unit: { ...u, value: v.value as Record<string, unknown>, text: maskSecrets(u.text).text }, masked: v.counts };
}

/** Document headers already masked (see maskUnit). */
const maskedHeaders = new WeakSet<object>();

/**
 * Masks every string (keys too) of a parsed JSON value in place, and returns
 * the value (a new one only when `value` is itself a string) and the counts.
 * `value` must be owned by the caller (fresh from JSON.parse). Strings are
 * checked after JSON unescaping, so a key written with `\\u` escapes is found
 * too. Iterative, so a deeply nested value cannot overflow the stack.
 */
export function maskValue(value: unknown): { value: unknown; masked: number; counts: SecretCounts } {
  let masked = 0;
  const counts: SecretCounts = {};
  const maskString = (s: string): string => {
    const m = maskSecrets(s);
    if (m.masked === 0) return s;
    masked += m.masked;
    addCounts(counts, m.counts);
    return m.text;
  };
  if (typeof value === "string") return { value: maskString(value), masked, counts };
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i];
        if (typeof v === "string") node[i] = maskString(v);
        else stack.push(v);
      }
      continue;
    }
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      const newKey = maskString(key);
      if (newKey !== key) delete obj[key];
      if (typeof v === "string") obj[newKey] = maskString(v);
      else {
        obj[newKey] = v;
        stack.push(v);
      }
    }
  }
  return { value, masked, counts };
}

/** Adds `from` into `into`. */
export function addCounts(into: SecretCounts, from: SecretCounts): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}
