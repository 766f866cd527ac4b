/**
 * Secret masking: API keys, bearer tokens, cloud key ids and the like
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
import type { Unit } from "../types.js";

/** One kind of secret: its name, what it is, and how it is found. */
export interface SecretKind {
  kind: string;
  /** what it is, for the README */
  describes: string;
  /** the gitleaks default rule (config/gitleaks.toml) the form is taken from, when there is one */
  gitleaks?: string;
  /**
   * Global regex; when it has a group named `secret`, only that group is masked
   * (the `Bearer ` before a token stays, so the message still reads).
   */
  pattern: RegExp;
  /** a further check on the matched secret (e.g. mixed case), to keep ordinary ids unmasked */
  accept?: (secret: string) => boolean;
}

/** Holds a digit and a letter. */
const digitAndLetter = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s);

/** Not a mask an earlier kind left (a key's value masked as a token first, then seen by its key). */
const notMasked = (s: string) => !s.startsWith("[masked");

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

/** What may stand between a key's name and its value: a closing quote, `=` or `:`, an opening quote. */
const ASSIGN = String.raw`["']?\s*[:=]\s*["']?`;

/**
 * The value after ASSIGN when any text is a secret: inside quotes, up to the
 * closing quote (JSON escapes included); bare, up to a blank, quote, backslash
 * or separator (`&` of a query string, `;` of a connection string).
 */
const ANY_VALUE = String.raw`(?<secret>(?<=")(?:[^"\\\n]|\\.)+(?=")|(?<=')[^'\n]+(?=')|[^\s"'\\&,;)}\]]+)`;

/** Builds a keyed pattern: the name (case-insensitive where the pattern says so), ASSIGN, the value. */
function keyed(name: string, value: string, flags = "g"): RegExp {
  return new RegExp(String.raw`(?<![A-Za-z0-9])${name}${ASSIGN}${value}`, flags);
}

/** Every kind masked, in the order they are tried (the first that matches a piece of text masks it). */
export const SECRET_KINDS: readonly SecretKind[] = [
  {
    kind: "private_key",
    describes: "a PEM or PGP private key block, `-----BEGIN ... PRIVATE KEY-----` (or `PRIVATE KEY BLOCK`) to its END line (or the end of the text)",
    gitleaks: "private-key",
    pattern: /-----BEGIN [A-Z0-9 _-]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 _-]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    kind: "slack_webhook",
    describes: "the path of a Slack webhook URL, `hooks.slack.com/services/...` (also `workflows/`, `triggers/`)",
    gitleaks: "slack-webhook-url",
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9+/]{20,})/g,
  },
  {
    kind: "azure_sas_signature",
    describes: "the signature of an Azure shared access signature URL, `sig=...` in a query string",
    pattern: /[?&]sig=(?<secret>[A-Za-z0-9%+/=]{16,})/g,
  },
  {
    kind: "azure_storage_key",
    describes: "the key of an Azure connection string, `AccountKey=...` or `SharedAccessKey=...`",
    pattern: /\b(?:Account|SharedAccess)Key=(?<secret>[A-Za-z0-9+/]{20,}={0,2})/g,
  },
  {
    kind: "bearer_token",
    describes: "the token after `Bearer `, `bearer ` or `BEARER `, 16 characters or more",
    pattern: /\b(?:[Bb]earer|BEARER)[ \t]+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g,
  },
  {
    kind: "authorization",
    describes: "the credentials of an `Authorization:` (or `Proxy-Authorization:`) header, after `Basic `, `Token ` or `Digest `",
    gitleaks: "curl-auth-header",
    pattern: keyed(
      "(?:[Pp]roxy-)?(?:[Aa]uthorization|AUTHORIZATION)",
      String.raw`(?:(?:Basic|basic|BASIC|Token|token|Digest|digest)[ \t]+)?(?<secret>[A-Za-z0-9._~+/=-]{8,})`,
    ),
    accept: notMasked,
  },
  {
    kind: "jwt",
    describes: "a JSON Web Token: `eyJ...` `.eyJ...` `.signature`",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    kind: "api_key",
    describes:
      "an OpenAI, Anthropic, OpenRouter or DeepSeek style key: `sk-proj-`, `sk-svcacct-`, `sk-admin-`, `sk-ant-` or `sk-or-v1-` and 20 or more characters, or `sk-` and 32 or more letters and digits (holding both)",
    gitleaks: "openai-api-key, anthropic-api-key",
    pattern: /\bsk-(?:(?:proj|svcacct|admin|ant|or-v1)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})/g,
    accept: digitAndLetter,
  },
  {
    kind: "stripe_key",
    describes: "a Stripe secret or restricted key: `sk_live_`, `sk_test_`, `rk_live_`, `rk_test_` (or `_prod_`) and 10 or more letters and digits",
    gitleaks: "stripe-access-token",
    pattern: /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}\b/g,
  },
  {
    kind: "stripe_webhook_secret",
    describes: "a Stripe webhook signing secret: `whsec_` and 24 or more letters and digits",
    pattern: /\bwhsec_[A-Za-z0-9]{24,}/g,
  },
  {
    kind: "aws_access_key_id",
    describes: "an AWS access key id: `AKIA`, `ASIA`, `ABIA`, `ACCA` or `A3T?` and 16 characters of base32 (A-Z, 2-7), entropy over 3 bits a character",
    gitleaks: "aws-access-token",
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g,
    accept: (s) => entropy(s) > 3,
  },
  {
    kind: "aws_secret_access_key",
    describes: "the value after `aws_secret_access_key`, `SecretAccessKey` and the like (any case, `=` or `:`, quoted or not), 40 characters",
    pattern: keyed("(?:[A-Za-z0-9]+_)?(?:aws_?)?secret_?access_?key", String.raw`(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`, "gi"),
  },
  {
    kind: "aws_session_token",
    describes:
      "an AWS session token: the value after `aws_session_token`, `SessionToken` or `security_token`, or a token starting `FwoGZXIvYXdz` or `IQoJb3JpZ2lu`",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9])(?:aws_?)?(?:session|security)_?token${ASSIGN}(?<secret>[A-Za-z0-9/+=]{16,})|\b(?:FwoGZXIvYXdz|IQoJb3JpZ2lu)[A-Za-z0-9/+=]{40,}`,
      "gi",
    ),
  },
  {
    kind: "github_token",
    describes: "a GitHub token: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` or `github_pat_` and 20 or more characters",
    gitleaks: "github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  },
  {
    kind: "gitlab_token",
    describes: "a GitLab personal access token: `glpat-` and 20 or more characters",
    gitleaks: "gitlab-pat",
    pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: "npm_token",
    describes: "an npm access token: `npm_` and 36 letters and digits",
    gitleaks: "npm-access-token",
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
  },
  {
    kind: "slack_token",
    describes: "a Slack token: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-` and 10 or more characters, or an app token `xapp-1-...`",
    gitleaks: "slack-bot-token, slack-user-token, slack-app-token",
    pattern: /\b(?:xox[abprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+)/g,
  },
  {
    kind: "google_api_key",
    describes: "a Google API key: `AIza` and 35 characters",
    gitleaks: "gcp-api-key",
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
  },
  {
    kind: "google_oauth_secret",
    describes: "a Google OAuth client secret: `GOCSPX-` and 28 characters",
    pattern: /\bGOCSPX-[A-Za-z0-9_-]{24,}/g,
  },
  {
    kind: "google_oauth_token",
    describes: "a Google OAuth access token: `ya29.` and 20 or more characters",
    pattern: /\bya29\.[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: "sendgrid_key",
    describes: "a SendGrid API key: `SG.`, 16 to 32 characters, `.`, 16 to 64 characters",
    gitleaks: "sendgrid-api-token",
    pattern: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g,
  },
  {
    kind: "digitalocean_token",
    describes: "a DigitalOcean token: `dop_v1_`, `doo_v1_` or `dor_v1_` and 64 hex digits",
    gitleaks: "digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token",
    pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g,
  },
  {
    kind: "huggingface_token",
    describes: "a Hugging Face token: `hf_` and 30 or more letters or digits",
    gitleaks: "huggingface-access-token",
    pattern: /\bhf_[A-Za-z0-9]{30,}/g,
  },
  {
    kind: "gcp_private_key_id",
    describes: "the `private_key_id` of a Google Cloud service-account key: 40 hex digits",
    pattern: keyed("private_key_id", String.raw`(?<secret>[a-f0-9]{40})\b`),
  },
  {
    kind: "credential",
    describes:
      "the value after `x-api-key`, `api_key`, `apikey`, `api_token`, `access_token`, `auth_token`, `client_secret`, `secret_key` (any case, with a prefix such as `OPENAI_API_KEY`; `=` or `:`), 8 or more characters holding a digit and a letter",
    gitleaks: "generic-api-key, curl-auth-header",
    pattern: keyed(
      String.raw`(?:[A-Za-z0-9]+[_-])*(?:x-)?(?:api[_-]?(?:key|token|secret)|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|secret[_-]?key)`,
      String.raw`(?<secret>[A-Za-z0-9._~+/=-]{8,})`,
      "gi",
    ),
    accept: (s) => notMasked(s) && digitAndLetter(s),
  },
  {
    kind: "password",
    describes: "the value after `password`, `passwd` (any case, also `DB_PASSWORD`; `=` or `:`, quoted or not)",
    gitleaks: "generic-api-key",
    pattern: keyed(String.raw`(?:[A-Za-z0-9]+_)*pass(?:word|wd)`, ANY_VALUE, "gi"),
    accept: notMasked,
  },
  {
    kind: "url_password",
    describes: "the password of a URL with credentials, `scheme://user:PASSWORD@host` (the user may be empty, the password may hold `/`)",
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'\\]*:(?<secret>[^\s@"'\\]+)(?=@[A-Za-z0-9[])/gi,
    // `host:8080/path@v1` is a port and a path, not a password
    accept: (s) => notMasked(s) && !/^\d+(?:\/|$)/.test(s),
  },
];

/**
 * The kind of secret a JSON key names, whose whole string value is then masked
 * (a password under `"password"` has no form of its own). Compared without
 * case, `-` and `_`: `x-api-key`, `X_API_KEY` and `xApiKey` are one name. Null
 * for every other key.
 */
export function keyedKind(key: string): string | null {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (k.length < 6) return null;
  if (k.endsWith("password") || k.endsWith("passwd")) return "password";
  if (k.endsWith("secretaccesskey")) return "aws_secret_access_key";
  if (k.endsWith("sessiontoken") || k.endsWith("securitytoken")) return "aws_session_token";
  if (k === "privatekeyid") return "gcp_private_key_id";
  if (k === "privatekey") return "private_key";
  if (k === "authorization" || k === "proxyauthorization") return "authorization";
  if (k.endsWith("apikey") || CREDENTIAL_KEYS.has(k)) return "credential";
  return null;
}

/** Normalised key names (keyedKind) whose value is a `credential`, beside those ending `apikey`. */
const CREDENTIAL_KEYS = new Set(["xapikey", "apitoken", "apisecret", "accesstoken", "authtoken", "xauthtoken", "refreshtoken", "clientsecret", "secretkey"]);

/** An HTTP scheme word before credentials: it stays readable when the value of an `Authorization` key is masked. */
const SCHEME = /^(?:Basic|Bearer|Token|Digest)[ \t]+/i;

/**
 * The cheap test run on every line before any masking: regexes of plain
 * literals, which V8 scans fast, that every kind above needs. Two small ones
 * rather than one big one: past about twenty alternatives V8's scan slows down
 * several times over (bench/secrets.mjs). The prefixes that need a word boundary
 * (`sk-`, `hf_`, `ghp_`, `xoxb-`...) are checked for one by hand
 * (boundaryBefore), as `task-` holds `sk-`. A secret written with `\\u` escapes
 * for its ASCII letters is caught by `\\u00[2-7]`. A kind added above must be
 * found by these too, and so must every key keyedKind names (test/secrets.test.ts
 * checks every form of its corpus against them).
 */
const TOKEN_HINT = /-----BEGIN|earer|EARER|eyJ|A(?:KIA|SIA|BIA|CCA|3T|Iza)|github_pat_|:\/\/|\\u00[2-7]|sk-|hf_|gh[pousr]_|xox[abprs]-/g;
/**
 * The other literal prefixes, then the names of keyed secrets in any case
 * (`password`, `secret`, `Authorization`, `..._token=`, `...key:`,
 * `private_key_id`), their letters as classes (`[Pp]`: what the `i` flag
 * matches, ASCII only) so that one scan does both: it was two, the second
 * with the `i` flag (a fifth less time on a generated log's lines).
 */
const MORE_HINT =
  /xapp-|_(?:live|test|prod|v1)_|whsec_|sig=|npm_|glpat-|GOCSPX-|ya29\.|SG\.|FwoGZXIvYXdz|IQoJb3JpZ2lu|[Pp][Aa][Ss][Ss][Ww]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz]|[Tt][Oo][Kk][Ee][Nn]\s*["'=:]|[Kk][Ee][Yy](?:\s*["'=:]|_?[Ii][Dd])/;

/** True when `text` may hold a secret (a cheap scan; maskSecrets decides). */
export function maySecret(text: string): boolean {
  TOKEN_HINT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN_HINT.exec(text)) !== null) {
    const found = m[0];
    const bounded = found === "sk-" || found === "hf_" || (found.length === 4 && found[0] === "g") || found[0] === "x";
    if (!bounded || boundaryBefore(text, m.index)) return true;
    // a hint may start inside the one that failed its boundary: `task-----BEGIN` holds
    // `sk-` and, from its dash, `-----BEGIN`; the scan resumes one character on, not past it
    TOKEN_HINT.lastIndex = m.index + 1;
  }
  return MORE_HINT.test(text);
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
  // the value of a key that names a secret (`"password": "..."`): masked whole unless a form
  // of its own is found in it; a scheme word before it (`Basic `) stays
  const maskKeyed = (key: string, v: string): string | null => {
    const kind = keyedKind(key);
    if (kind === null || v.trim() === "" || v.startsWith("[masked")) return null;
    const own = maskSecrets(v);
    if (own.masked) {
      masked += own.masked;
      addCounts(counts, own.counts);
      return own.text;
    }
    const scheme = kind === "authorization" ? (SCHEME.exec(v)?.[0] ?? "") : "";
    masked++;
    counts[kind] = (counts[kind] ?? 0) + 1;
    return scheme + maskOf(kind, v.slice(scheme.length));
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
      if (typeof v === "string") obj[newKey] = maskKeyed(key, v) ?? maskString(v);
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
