/**
 * What the kinds of secret (secret-kinds.ts, secret-services.ts) are made of:
 * their shape, and the checks and pattern pieces they share.
 */

/** What a kind's `accept` is told besides the secret. */
export interface MatchContext {
  /** the whole match (the key's name and the `=` before a keyed secret included) */
  whole: string;
  /** the text matched in, and where the match starts in it */
  input: string;
  index: number;
  /** the named groups of the match */
  groups: Record<string, string | undefined>;
  /** the text (or the record it is a string of) holds a PEM `BEGIN`/`END ... PRIVATE KEY` line */
  keyBlock: boolean;
}

/** One kind of secret: its name, what it is, and how it is found. */
export interface SecretKind {
  kind: string;
  /** what it is, for docs/security.md */
  describes: string;
  /** the gitleaks default rules (config/gitleaks.toml) the form is taken from, when there are any */
  gitleaks?: string;
  /**
   * Global regex; when it has groups named `secret...`, only the first one that
   * matched is masked (the `Bearer ` before a token stays, so the message still reads).
   */
  pattern: RegExp;
  /** a further check on the matched secret (e.g. mixed case), to keep ordinary ids unmasked */
  accept?: (secret: string, m: MatchContext) => boolean;
  /** the kind a match is counted and masked as, when it depends on the match (a keyed value: its key's kind); null = no secret */
  kindOf?: (m: MatchContext) => string | null;
  /**
   * Pieces of text (case as written) of which every match holds one: a text
   * holding none is not matched at all (a fast `includes` instead of a regex
   * scan). Those of a `token` pattern are its prefixes' literal starts (NEEDS).
   */
  needs?: readonly string[];
}

/** The literal starts of the prefixes of each pattern `token` made (SecretKind.needs). */
export const NEEDS = new WeakMap<RegExp, readonly string[]>();

/** The literal start of each top-level alternative of a regex source (`hv[sbr]\\.|dapi` -> hv, dapi); null when one has none of 2 characters. */
function literalStarts(source: string): string[] | null {
  const alternatives: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "|" && depth === 0) {
      alternatives.push(source.slice(from, i));
      from = i + 1;
    }
  }
  alternatives.push(source.slice(from));
  const starts = alternatives.map((a) => /^[A-Za-z0-9_~-]*/.exec(a)![0]);
  return starts.every((x) => x.length >= 2) ? starts : null;
}

/** Holds a digit and a letter. */
export const digitAndLetter = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s);

/** Not a mask an earlier kind left (a key's value masked as a token first, then seen by its key). */
export const notMasked = (s: string) => !s.includes("[masked");

/**
 * Shannon entropy in bits per character; gitleaks' `entropy` threshold on a
 * match, which tells a generated key (about 4 bits) from a word in capitals.
 */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/**
 * A value that stands for a secret without being one: `None`, `null`, `***`,
 * `<password>`, `[REDACTED]`, `$PGPASSWORD`, `${DB_PASS}`, `%s`, `{password}`,
 * `true`/`false`. Left as written.
 */
export function placeholder(s: string): boolean {
  return /^(?:none|null|nil|undefined|true|false|\*+|x{3,}|<[^<>]*>|\[[A-Za-z_ -]*\]|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%s|\{\{?[^{}]*\}?\}|\$\(\S+\))$/i.test(
    s.trim(),
  );
}

/** Base64 `s` decodes to bytes no text is made of: key material, not an encoded message (a message is valid UTF-8 without controls). */
export function binaryBase64(s: string): boolean {
  const bytes = Buffer.from(s, "base64");
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // valid UTF-8: text, unless it holds control characters (tab, newline and carriage return aside)
    return bytes.some((b) => b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f);
  } catch {
    return true;
  }
}

/** Base64 `s` decodes to `user:password` in printable text: the credentials of HTTP Basic. */
export function basicCredentials(s: string): boolean {
  const text = Buffer.from(s, "base64").toString("latin1");
  return /^[\x20-\x7e]+$/.test(text) && /^[^:]+:[^:]/.test(text);
}

/** An AWS key id's 16 characters after its prefix look generated: entropy over 3 bits, and not letters only that read as words (a third or more vowels). */
export function generatedKeyId(id: string): boolean {
  const tail = id.slice(4);
  if (entropy(id) <= 3) return false;
  return /[2-7]/.test(tail) || (tail.match(/[AEIOU]/g)?.length ?? 0) * 3 < tail.length;
}

/** What may stand between a key's name and its value: a closing quote, `=` or `:`, an opening quote. */
export const ASSIGN = String.raw`["']?\s*[:=]\s*["']?`;

/**
 * The value after ASSIGN when any text is a secret: inside quotes, up to the
 * closing quote (JSON escapes included; at most 1024 characters, so a
 * huge value cannot exhaust the regex's backtracking stack); bare, up to a blank, quote, backslash
 * or separator (`&` of a query string, `;` of a connection string).
 */
export const ANY_VALUE = String.raw`(?<secret>(?<=")(?:[^"\\\n]|\\.){1,1024}(?=")|(?<=')[^'\n]{1,1024}(?=')|[^\s"'\\&,;)}\]]+)`;

/** Builds a keyed pattern: the name (case-insensitive where the flags say so), ASSIGN, the value. */
export function keyed(name: string, value: string, flags = "g"): RegExp {
  return new RegExp(String.raw`(?<![A-Za-z0-9])${name}${ASSIGN}${value}`, flags);
}

/** A token that starts with `prefix` (a regex source): no letter, digit or `_` just before or after it. */
export function token(prefix: string, body: string, flags = "g"): RegExp {
  const re = new RegExp(String.raw`(?<![A-Za-z0-9_])(?:${prefix})${body}(?![A-Za-z0-9_])`, flags);
  const needs = flags.includes("i") ? null : literalStarts(prefix);
  if (needs) NEEDS.set(re, needs);
  return re;
}
