/**
 * Secret masking: API keys, bearer tokens, cloud key ids and the like
 * that harnesses leave in error messages are replaced once, at ingest, before
 * anything is stored, so no table, export, report or reject excerpt can show
 * them. The kinds are declared as data (SECRET_KINDS, secret-kinds.ts) so the
 * docs can list them and the tests can walk them.
 *
 * A masked secret reads `[masked KIND #xxxxxxxx]`: the kind, and the first 8 hex
 * digits of the secret's sha256. The fingerprint keeps two different secrets
 * apart (two task ids holding different keys stay two tasks, and identical
 * lines stay identical) while revealing nothing usable (32 bits of a hash of a
 * random key of 100+ bits). The replacement holds no quote or backslash, so it
 * is safe inside JSON text.
 *
 * Text is matched as written, then once more for each level of escaping it
 * holds (JSON's `\/`, `\"`, `\\`, `\n`, `\u00xx`; a JSON text inside a string
 * is escaped twice): a secret found in the unescaped text is masked where its
 * escaped characters stand.
 */
import { createHash } from "node:crypto";
import type { Unit } from "../types.js";
import { keyedKind, type MatchContext, SECRET_KINDS, type SecretKind } from "./secret-kinds.js";
import { NEEDS, placeholder } from "./secret-match.js";

export { entropy, keyedKind, type MatchContext, SECRET_KINDS, type SecretKind } from "./secret-kinds.js";

/**
 * The cheap test run on every line before any masking: regexes of plain
 * literals, which V8 scans fast, that every kind needs. Several small ones
 * rather than one big one: past about twenty alternatives V8's scan slows down
 * several times over (bench/secrets.mjs). The prefixes that need a word boundary
 * (`sk-`, `hf_`, `ghp_`, `xoxb-`...) are checked for one by hand
 * (boundaryBefore), as `task-` holds `sk-`. A secret written with `\\u` escapes
 * for its ASCII letters is caught by `\\u00[2-7]`. A kind added must be found
 * by these too, and so must every key keyedKind names (test/secrets.test.ts
 * checks every form of its corpus against them).
 */
const TOKEN_HINT =
  /-----BEGIN|-----END|earer|EARER|eyJ|A(?:KIA|SIA|BIA|CCA|3T|Iza)|github_pat_|:\/\/|:\\\/\\\/|\\u00[2-7]|sk-|hf_|gh[pousr]_|xox[abprsoe][-.]/g;
/** The other literal prefixes of the kinds of secret-kinds.ts. */
const LITERAL_HINT = /xapp-|_(?:live|test|prod|v1)_|whsec_|sig=|npm_|gl(?:pat|dt|ft|rt|soat|ptt|cbt)-|GR1348941|GOCSPX-|ya29\.|SG\.|FwoGZXIvYXdz|IQoJb3JpZ2lu/;
/**
 * The names of keyed secrets in any case (`password`, `secret`,
 * `Authorization`, `..._token=`, `...key:`, `private_key_id`), their letters as
 * classes (`[Pp]`: what the `i` flag matches, ASCII only), which scans faster
 * than the `i` flag.
 */
const MORE_HINT =
  /[Pp][Aa][Ss][Ss][Ww]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz]|[Tt][Oo][Kk][Ee][Nn]\s*["'=:]|[Kk][Ee][Yy](?:\s*["'=:]|_?[Ii][Dd])/;
/**
 * The prefixes of the service tokens (secret-services.ts) that end in `_`,
 * `-`, `.` or `~`, by that character: found by looking up the word before each
 * such character (indexOf is fast; a regex of forty alternatives is several
 * times slower on every line).
 */
const PREFIXES: Record<string, ReadonlySet<string>> = {
  _: words("gsk r8 lsv2 lin fo1 fm2 fm1a fm1r glc glsa ntn pnu pscale rubygems shippo duffel rdme sgp CLOJARS ops shpat shpca shppa shpss sm sntryu sntrys"),
  "-": words("xai pplx tvly pypi pul PMAK A3 NRAK NRII ico fio tk key sq0atp sq0csp HRKU AGE xkeysib glcbt bedrock"),
  ".": words("hvs hvb hvr dp dt0c01 atlasv1"),
  "~": words("sha256"),
};

/** The words of a list written with blanks between them. */
function words(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}

/**
 * PREFIXES' words by first character and length: bit n of SHAPES[sep][c] is set
 * when a word of length n starts with the character of code c. A word before a
 * separator of no such shape (`task` before `_id`, `2025` before `-04`, most of
 * them) is never cut out of the text to be looked up.
 */
const SHAPES: Record<string, Uint16Array> = Object.fromEntries(
  Object.entries(PREFIXES).map(([sep, list]) => {
    const shapes = new Uint16Array(128);
    for (const word of list) shapes[word.charCodeAt(0)]! |= 1 << word.length;
    return [sep, shapes];
  }),
);

/**
 * The other service prefixes and shapes (a Telegram bot token `123:A...`, a
 * Mailchimp data centre `-us1`), and the commands some kinds need (`mysql -p`,
 * `sshpass -p`, `curl -u`, `aws configure set`, `Basic `). The kinds found by a
 * word in a key's name (Heroku, Cohere, Discord) are hinted by that key (`KEY=`, `token:`).
 */
const SERVICE_HINTS = [
  /dapi|AKCp|cmVmd|EZ[AT]K|ABSK|EAAA|ATATT3/,
  /ATCTT3|Q~|-us\d|SK[0-9a-f]|v1\.0-|api_org_|:A/,
  /configure set|mysql|mariadb|sshpass|--user|-u |asic /,
];

/** True when `text` holds one of SERVICE_HINTS (three regexes of seven literals scan faster than one of twenty-one). */
function serviceHint(text: string): boolean {
  return SERVICE_HINTS[0].test(text) || SERVICE_HINTS[1].test(text) || SERVICE_HINTS[2].test(text);
}

/** True when a word of PREFIXES stands just before one of its characters in `text`. */
function prefixHint(text: string): boolean {
  for (const sep of ["_", "-", ".", "~"]) {
    const words = PREFIXES[sep];
    const shapes = SHAPES[sep];
    for (let i = text.indexOf(sep); i >= 0; i = text.indexOf(sep, i + 1)) {
      let j = i;
      while (j > 0 && i - j < 9 && isAlnum(text.charCodeAt(j - 1))) j--;
      // an alphanumeric word's first character is ASCII: its shape is in the table
      if (j < i && (shapes[text.charCodeAt(j)]! >> (i - j)) & 1 && words.has(text.slice(j, i))) return true;
    }
  }
  return false;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Whether `text`, or a string or line of it (between two quotes, or two
 * newlines), is 64 to 100 characters of base64 (backslashes of escapes
 * counted in): a private key's body line alone (SECRET_KINDS' second kind
 * decides). Found from the quotes' and newlines' places (indexOf), not by a
 * regex trying a run of base64 at every character.
 */
function bodyLineHint(text: string): boolean {
  if (linesHint(text, 0, text.length)) return true;
  for (let from = text.indexOf('"'); from >= 0; ) {
    const to = text.indexOf('"', from + 1);
    if (to < 0) return false;
    if (to - from > 64 && linesHint(text, from + 1, to)) return true;
    from = to;
  }
  return false;
}

/** Whether a line of text[start, end), cut at newlines and at their escape `\n`, is 64 to 104 characters of BODY_LINE. */
function linesHint(text: string, start: number, end: number): boolean {
  let newline = -1;
  let escaped = -1;
  for (let from = start; from < end; ) {
    if (newline < from) newline = text.indexOf("\n", from);
    if (escaped < from) escaped = text.indexOf("\\n", from);
    const nl = newline < 0 || newline > end ? end : newline;
    const esc = escaped < 0 || escaped > end ? end : escaped;
    const to = Math.min(nl, esc);
    if (to - from >= 64 && to - from <= 104 && BODY_LINE.test(text.slice(from, to))) return true;
    from = to + (to === esc && to < end ? 2 : 1);
  }
  return false;
}

/** A line of a key's body as a hint: base64 (and the backslashes of `\/`), blanks around it. */
const BODY_LINE = /^[ \t]*[A-Za-z0-9+/\\]{64,100}={0,2}[ \t]*$/;

/** A Discord bot token: no prefix of its own. */
const DISCORD_HINT = /[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\./;

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
  return LITERAL_HINT.test(text) || MORE_HINT.test(text) || prefixHint(text) || serviceHint(text) || DISCORD_HINT.test(text) || bodyLineHint(text);
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

/** A PEM line that opens or closes a private key: the record (or text) holding one has its base64 lines masked (SECRET_KINDS' second kind). */
const KEY_LINE = /-----(?:BEGIN|END) [A-Z0-9 _-]*PRIVATE KEY/;

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

/** Options of maskSecrets. */
export interface MaskOptions {
  /**
   * The text belongs to a record that holds a PEM private key's BEGIN or END
   * line (in another of its strings): its base64 lines are a key's body.
   * Without it, the text itself is looked at for such a line.
   */
  keyBlock?: boolean;
}

/**
 * Masks every secret of SECRET_KINDS in `text`, as written and after
 * unescaping it (up to three levels). Pure. Text already masked is left as it
 * is (a mask matches no kind), so masking twice counts nothing new.
 */
export function maskSecrets(text: string, options: MaskOptions = {}): Masked {
  if (!options.keyBlock && !maySecret(text)) return { text, masked: 0, counts: {} };
  const keyBlock = options.keyBlock === true || KEY_LINE.test(text);
  const counts: SecretCounts = {};
  let out = text;
  for (const k of SECRET_KINDS) out = maskKind(out, k, keyBlock, counts, null);
  // each level of escaping, outermost first; a view is made again after a kind masks
  for (let level = 1; level <= MAX_LEVELS && out.length <= MAX_VIEW && out.includes("\\"); level++) {
    let view = viewOf(out, level);
    if (view === null) break;
    for (const k of SECRET_KINDS) {
      const next = maskKind(out, k, keyBlock, counts, view);
      if (next !== out) {
        out = next;
        view = viewOf(out, level);
        if (view === null) break;
      }
    }
  }
  let masked = 0;
  for (const n of Object.values(counts)) masked += n;
  return { text: out, masked, counts };
}

/** How many levels of escaping are undone (a JSON text in a string in a JSON line is two). */
const MAX_LEVELS = 3;
/** The longest text (in UTF-16 units) unescaped to be matched again: a longer one is matched as written only (docs/security.md). */
const MAX_VIEW = 4 * 1024 * 1024;
/** The pieces a text is matched in when a kind's regex runs out of backtracking stack on it whole (a value of megabytes). */
const WINDOW = 64 * 1024;

/**
 * `raw` unescaped: `text`, and for each of its characters where in `raw` it
 * starts (`from`, one longer than `text`: its last entry is `raw`'s length), so
 * that text[a, b) stands for raw[from[a], from[b]).
 */
interface View {
  text: string;
  from: Int32Array;
}

/** The characters a backslash escape stands for (JSON's, and Python's `\'`). */
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", "'": "'", n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

/** `raw` unescaped `level` times, mapped back to `raw`; null when a level changes nothing. */
function viewOf(raw: string, level: number): View | null {
  let view: View | null = null;
  for (let l = 0; l < level; l++) {
    const next = unescapeOnce(view ? view.text : raw);
    if (next === null) return null;
    // compose: a character of the inner view starts where the outer character it came from starts
    if (view) for (let i = 0; i < next.from.length; i++) next.from[i] = view.from[next.from[i]];
    view = next;
  }
  return view;
}

/** One level of backslash escapes undone, with the map back; null when `s` holds none. Escapes it does not know stay as written. */
function unescapeOnce(s: string): View | null {
  if (!s.includes("\\")) return null;
  const parts: string[] = [];
  const from = new Int32Array(s.length + 1);
  let n = 0;
  let changed = false;
  // a run of `s` as written, from `start`: each character stands for itself
  const run = (start: number, end: number) => {
    parts.push(s.slice(start, end));
    for (let k = start; k < end; k++) from[n++] = k;
  };
  let i = 0;
  while (i < s.length) {
    const j = s.indexOf("\\", i);
    if (j < 0 || j === s.length - 1) {
      run(i, s.length);
      break;
    }
    run(i, j);
    const e = s[j + 1];
    const hex = e === "u" ? /^[0-9a-fA-F]{4}/.exec(s.slice(j + 2, j + 6)) : null;
    const ch = hex ? String.fromCharCode(Number.parseInt(hex[0], 16)) : ESCAPES[e];
    if (ch === undefined) run(j, j + 2);
    else {
      parts.push(ch);
      from[n++] = j;
      changed = true;
    }
    i = j + (hex ? 6 : 2);
  }
  from[n] = s.length;
  return changed ? { text: parts.join(""), from: from.slice(0, n + 1) } : null;
}

/** Each kind's pattern with the `d` flag (match indices), made once. */
const WITH_INDICES = new Map<RegExp, RegExp>();

function indexed(p: RegExp): RegExp {
  let r = WITH_INDICES.get(p);
  if (!r) WITH_INDICES.set(p, (r = new RegExp(p.source, `${p.flags}d`)));
  return r;
}

/**
 * `raw` with every secret of kind `k` masked: found in `raw` itself (view
 * null) or in a view of it, whose ranges map back to `raw`. Counts into `counts`.
 */
function maskKind(raw: string, k: SecretKind, keyBlock: boolean, counts: SecretCounts, view: View | null): string {
  const text = view ? view.text : raw;
  const needs = k.needs ?? NEEDS.get(k.pattern);
  if (needs && !needs.some((n) => text.includes(n))) return raw;
  let cuts: Cut[];
  try {
    cuts = cutsOf(text, k, keyBlock, counts);
  } catch (e) {
    // V8 throws RangeError when a regex's backtracking outgrows its stack (megabytes of one
    // run of letters): the text as written is matched in pieces cut at blanks; a view is not
    if (!(e instanceof RangeError) || view || raw.length <= WINDOW) throw e;
    return inPieces(raw, (piece) => maskKind(piece, k, keyBlock, counts, null));
  }
  if (cuts.length === 0) return raw;
  let out = "";
  let at = 0;
  for (const c of cuts) {
    const start = view ? view.from[c.start] : c.start;
    const end = view ? view.from[c.end] : c.end;
    out += raw.slice(at, start) + c.mask;
    at = end;
  }
  return out + raw.slice(at);
}

/** A secret found: where it is in the text matched, and its mask. */
interface Cut {
  start: number;
  end: number;
  mask: string;
}

/** Every secret of kind `k` in `text`, in order, counted into `counts`. */
function cutsOf(text: string, k: SecretKind, keyBlock: boolean, counts: SecretCounts): Cut[] {
  const re = indexed(k.pattern);
  re.lastIndex = 0;
  const cuts: Cut[] = [];
  const found: SecretCounts = {};
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    const cut = secretOf(m, k, keyBlock, text);
    if (!cut) {
      // refused (a key that names no secret, a placeholder): what it spans is looked at again
      // from its second character, as `"detail": "... 'api_token': 'x' ..."` holds a keyed secret
      re.lastIndex = m.index + 1;
      continue;
    }
    found[cut.kind] = (found[cut.kind] ?? 0) + 1;
    cuts.push({ start: cut.start, end: cut.end, mask: maskOf(cut.kind, cut.secret) });
  }
  addCounts(counts, found);
  return cuts;
}

/** `text` cut into pieces of at most WINDOW characters (after a blank where there is one), each passed through `mask`, joined. */
function inPieces(text: string, mask: (piece: string) => string): string {
  let out = "";
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + WINDOW);
    if (end < text.length) {
      const blank = text.slice(at, end).search(/\s\S*$/);
      if (blank > 0) end = at + blank + 1;
    }
    out += mask(text.slice(at, end));
    at = end;
  }
  return out;
}

/** The secret a match holds (its first `secret...` group that matched, or all of it), where it is, and its kind; null when the kind's checks refuse it. */
function secretOf(m: RegExpExecArray, k: SecretKind, keyBlock: boolean, input: string): { secret: string; start: number; end: number; kind: string } | null {
  const groups = m.groups ?? {};
  let span: [number, number] = [m.index, m.index + m[0].length];
  let secret = m[0];
  for (const name of Object.keys(groups)) {
    if (!name.startsWith("secret") || groups[name] === undefined) continue;
    secret = groups[name] as string;
    span = m.indices!.groups![name]!;
    break;
  }
  const ctx: MatchContext = { whole: m[0], input, index: m.index, groups, keyBlock };
  if (k.accept && !k.accept(secret, ctx)) return null;
  const kind = k.kindOf ? k.kindOf(ctx) : k.kind;
  return kind === null ? null : { secret, start: span[0], end: span[1], kind };
}

/**
 * A unit with every secret of its value masked (maskValue) and its text masked
 * too (the text is hashed to tell identical duplicates, and shown in the
 * excerpt of a record that fails), and the counts per kind; `masked` is null
 * when there was none. A line without a hint of a secret (nearly all) costs
 * one scan of its text. A record holding a private key's BEGIN or END line has
 * the base64 lines of all its strings masked.
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
  const keyBlock = KEY_LINE.test(u.text);
  const v = maskValue(u.value, { keyBlock });
  if (v.masked === 0) return { unit: u, masked: header };
  if (header) addCounts(v.counts, header);
  return { unit: { ...u, value: v.value as Record<string, unknown>, text: maskSecrets(u.text, { keyBlock }).text }, masked: v.counts };
}

/** Document headers already masked (see maskUnit). */
const maskedHeaders = new WeakSet<object>();

/** An HTTP scheme word before credentials: it stays readable when the value of an `Authorization` key is masked. */
const SCHEME = /^(?:Basic|Bearer|Token|Digest)[ \t]+/i;

/**
 * Masks every string (keys too) of a parsed JSON value in place, and returns
 * the value (a new one only when `value` is itself a string) and the counts.
 * `value` must be owned by the caller (fresh from JSON.parse). Strings are
 * checked after JSON unescaping, so a key written with `\\u` escapes is found
 * too. `options.keyBlock`: the value holds a private key's BEGIN or END line
 * (maskUnit looks), so its base64 lines are masked. Iterative, so a deeply
 * nested value cannot overflow the stack.
 */
export function maskValue(value: unknown, options: MaskOptions = {}): { value: unknown; masked: number; counts: SecretCounts } {
  let masked = 0;
  const counts: SecretCounts = {};
  const maskString = (s: string): string => {
    const m = maskSecrets(s, options);
    if (m.masked === 0) return s;
    masked += m.masked;
    addCounts(counts, m.counts);
    return m.text;
  };
  // the value of a key that names a secret (`"password": "..."`): masked whole unless a form
  // of its own is found in it, or it is a placeholder (`None`, `$VAR`); a scheme word before it (`Basic `) stays
  const maskKeyed = (key: string, v: string): string | null => {
    const kind = keyedKind(key);
    if (kind === null || v.trim() === "" || v.startsWith("[masked") || placeholder(v)) return null;
    const own = maskSecrets(v, options);
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
