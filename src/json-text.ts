/**
 * JSON text as written, where JSON.parse loses or refuses it: integers past
 * 2^53 and keys written twice (below), and bare NaN / Infinity (NonFiniteFilter).
 */

/**
 * What `JSON.parse` loses: the text of a number too long for a
 * double (`12345678901234567890` and `12345678901234567891` parse to the same
 * double, so two tasks would become one), and a key written twice in one
 * object (`"status":"failure","status":"success"`: the last one wins, silently).
 *
 * Node 20's `JSON.parse` gives a reviver no source text, so a line that may
 * hold either is parsed again here by a small JSON parser that keeps both:
 * `needsLiteralRead` tells from the `JSON.parse` result and the line's text
 * whether that may be needed (never missing a line that needs it: see keyMarks),
 * so the common line costs one walk of its value and one scan of its colons.
 */

/**
 * A JSON integer beyond 2^53, kept with the text it was written with. It is a
 * Number object: arithmetic and comparisons see the (rounded) double, while
 * `String(x)` and template strings give the literal, so an id built from it
 * keeps every digit; formats/canonical-record.ts reads an id field as its `text`.
 * A top-level id written as a number in another form than its shortest
 * (`-0`, `1.0`, `1e0`) is one too (readLiterals' `idKeys`), so it stays
 * another id than `0` or `1`.
 */
export class BigLiteral extends Number {
  constructor(readonly text: string) {
    super(Number(text));
  }

  override toString(): string {
    return this.text;
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * An id written as the JSON number `text`: the number when `text` is its
 * shortest form (`1`, `2.5`), else a BigLiteral keeping the text (`1.0`, `-0`,
 * `1e0`, digits past 2^53), so that it stays another id than `1` or `0`.
 */
export function idNumber(text: string): number | BigLiteral {
  const n = Number(text);
  return String(n) === text ? n : new BigLiteral(text);
}

/** A number value as a plain number (a BigLiteral gives its double), else the value itself. */
export function plainNumber(v: unknown): unknown {
  return v instanceof BigLiteral ? v.valueOf() : v;
}

/** What a re-read found: the value with BigLiterals, and the repeated keys (paths, e.g. `status`, `events[2].name`). */
export interface LiteralRead {
  value: unknown;
  duplicateKeys: string[];
}

/**
 * True when `value` (JSON.parse of `text`) may have lost something: it holds an
 * integer beyond 2^53 in magnitude, or its objects hold fewer keys than the text
 * may write (keyMarks: a key repeated in one object). False for a value nested
 * too deeply to walk (it cannot be stored either).
 */
export function needsLiteralRead(value: unknown, text: string, idKeys: ReadonlySet<string> = NO_KEYS): boolean {
  unsafeSeen = false;
  // a number under a top-level id key: its text decides the id (`1.0`, `-0` and `1e0` are not `1` and `0`)
  for (const k of idKeys) if (typeof (value as Record<string, unknown>)?.[k] === "number") return true;
  let keys: number;
  try {
    keys = countKeys(value);
  } catch (e) {
    // nested too deeply to walk: such a record is rejected later on (formats/canonical-record.ts)
    if (e instanceof RangeError) return false;
    throw e;
  }
  return unsafeSeen || keys !== keyMarks(text);
}

/** Set by countKeys: a number met is an integer beyond 2^53 in magnitude. */
let unsafeSeen = false;

/** The keys of every object in `v`, counted; sets unsafeSeen on an unsafe integer. Only objects and arrays are descended into. */
function countKeys(v: unknown): number {
  if (v === null || typeof v !== "object") {
    if (typeof v === "number") checkNumber(v);
    return 0;
  }
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === "object" && x !== null) n += countKeys(x);
      else if (typeof x === "number") checkNumber(x);
    }
    return n;
  }
  const obj = v as Record<string, unknown>;
  for (const k in obj) {
    n++;
    const x = obj[k];
    if (typeof x === "object" && x !== null) n += countKeys(x);
    else if (typeof x === "number") checkNumber(x);
  }
  return n;
}

/** An integer beyond 2^53 is a finite double past MAX_SAFE_INTEGER in magnitude (every such double is whole). */
function checkNumber(x: number): void {
  if ((x > Number.MAX_SAFE_INTEGER || x < -Number.MAX_SAFE_INTEGER) && Number.isFinite(x)) unsafeSeen = true;
}

/**
 * At least as many as the keys `text` (valid JSON) writes, and exactly as many
 * unless a string starts with a colon (after blanks): the colons whose last
 * non-blank character before them is an unescaped quote. A key's colon is
 * always one (its closing quote, blanks, the colon); a colon inside a string
 * is one only right after the string's opening quote (inside a string a quote
 * is always escaped); no other colon is written. So a parsed value holding as
 * many keys as this count lost none to a repeated key. Found by jumping from
 * colon to colon (native indexOf), which skips the text between them: four
 * times faster than a walk over every character.
 */
export function keyMarks(text: string): number {
  let n = 0;
  for (let i = text.indexOf(":"); i !== -1; i = text.indexOf(":", i + 1)) {
    let j = i - 1;
    let c = text.charCodeAt(j);
    while (isBlank(c)) c = text.charCodeAt(--j);
    if (c === 34 && !escaped(text, j)) n++;
  }
  return n;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** True when the character at `i` is preceded by an odd number of backslashes. */
function escaped(text: string, i: number): boolean {
  let b = 0;
  while (i - 1 - b >= 0 && text.charCodeAt(i - 1 - b) === 92) b++;
  return b % 2 === 1;
}

/**
 * Parses `text` (valid JSON: JSON.parse accepted it) keeping the literal of
 * every integer beyond 2^53 (a BigLiteral) and listing every key repeated in
 * one object (the last value kept, as JSON.parse does). Null when the value is
 * nested too deeply for this parser's recursion (the JSON.parse result stands).
 */
export function readLiterals(text: string, idKeys: ReadonlySet<string> = NO_KEYS): LiteralRead | null {
  const p = new Parser(text, idKeys);
  try {
    const value = p.value("");
    return { value, duplicateKeys: p.duplicates };
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

class Parser {
  private i = 0;
  readonly duplicates: string[] = [];

  constructor(
    private readonly text: string,
    /** top-level keys whose numbers keep their text unless written in the shortest form (`1.0`, `-0`, `1e0`) */
    private readonly idKeys: ReadonlySet<string> = NO_KEYS,
  ) {}

  private blank(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else return;
    }
  }

  value(path: string): unknown {
    this.blank();
    const t = this.text;
    const c = t[this.i];
    if (c === "{") {
      this.i++;
      const obj: Record<string, unknown> = {};
      this.blank();
      if (t[this.i] === "}") {
        this.i++;
        return obj;
      }
      for (;;) {
        this.blank();
        const key = this.string();
        this.blank();
        this.i++; // the colon
        const where = path === "" ? key : `${path}.${key}`;
        const v = path === "" && this.idKeys.has(key) ? this.idValue(where) : this.value(where);
        // JSON.parse keeps a repeated key's first place and its last value; so does this
        // (defineProperty, so that a key named __proto__ is a plain key, as JSON.parse makes it)
        if (Object.prototype.hasOwnProperty.call(obj, key)) this.duplicates.push(where);
        Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
        this.blank();
        if (t[this.i++] === "}") return obj;
      }
    }
    if (c === "[") {
      this.i++;
      const arr: unknown[] = [];
      this.blank();
      if (t[this.i] === "]") {
        this.i++;
        return arr;
      }
      for (;;) {
        arr.push(this.value(`${path}[${arr.length}]`));
        this.blank();
        if (t[this.i++] === "]") return arr;
      }
    }
    if (c === '"') return this.string();
    if (c === "t") return this.word("true", true);
    if (c === "f") return this.word("false", false);
    if (c === "n") return this.word("null", null);
    return this.number();
  }

  private word<T>(w: string, v: T): T {
    this.i += w.length;
    return v;
  }

  private string(): string {
    const t = this.text;
    const start = this.i;
    let j = start + 1;
    for (;;) {
      const q = t.indexOf('"', j);
      if (!escaped(t, q)) {
        this.i = q + 1;
        return JSON.parse(t.slice(start, q + 1)) as string;
      }
      j = q + 1;
    }
  }

  /** A top-level id's value: a number not written as its shortest form (String(n)) keeps its text as a BigLiteral. */
  private idValue(path: string): unknown {
    this.blank();
    const start = this.i;
    const v = this.value(path);
    if (typeof v !== "number") return v;
    const literal = this.text.slice(start, this.i);
    return literal === String(v) ? v : new BigLiteral(literal);
  }

  private number(): number | BigLiteral {
    const t = this.text;
    const start = this.i;
    while (this.i < t.length && "+-0123456789.eE".includes(t[this.i])) this.i++;
    const literal = t.slice(start, this.i);
    const n = Number(literal);
    // an integer literal (no fraction, no exponent) the double cannot hold exactly
    if (Number.isInteger(n) && !Number.isSafeInteger(n) && /^-?\d+$/.test(literal)) return new BigLiteral(literal);
    return n;
  }
}

/**
 * NaN and Infinity: the streaming form of `replaceNonFinite` for JSON documents read in chunks:
 * bare NaN / Infinity / -Infinity outside strings become `null`, counted.
 * State (inside a string, after a backslash, a token cut by a chunk edge)
 * carries over between chunks.
 */
const TOKENS = ["-Infinity", "Infinity", "NaN"];
const LONGEST = 9;

export class NonFiniteFilter {
  private inString = false;
  private escaped = false;
  private pending = "";
  private prev = 0;
  /** tokens replaced so far */
  count = 0;

  /**
   * Filters the next piece of text; pass `final` with the last one (a token
   * cut at the end is then read as it stands). Text may be held back until the
   * next call (a token split between pieces); the outputs joined are the input
   * with the tokens replaced.
   */
  push(text: string, final = false): string {
    const s = this.pending + text;
    this.pending = "";
    // Fast path: most documents hold no such token. Only the string state needs
    // carrying, and only up to where the next piece takes over.
    if (!s.includes("NaN") && !s.includes("Infinity")) {
      // the last LONGEST - 1 characters could start a token the next piece completes
      let cut = final ? s.length : Math.max(0, s.length - (LONGEST - 1));
      if (cut > 0 && cut < s.length && isHighSurrogate(s.charCodeAt(cut - 1))) cut--;
      this.track(s, cut);
      this.pending = s.slice(cut);
      return cut === s.length ? s : s.slice(0, cut);
    }
    let out = "";
    let last = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.inString = false;
        this.prev = c;
        continue;
      }
      if (c === 34) {
        this.inString = true;
        this.prev = c;
        continue;
      }
      if (c === 78 /* N */ || c === 73 /* I */ || c === 45 /* - */) {
        if (!final && s.length - i <= LONGEST) {
          this.pending = s.slice(i);
          return out + s.slice(last, i);
        }
        const token = TOKENS.find((t) => s.startsWith(t, i));
        if (token && !isWordChar(this.prev) && !isWordChar(s.charCodeAt(i + token.length))) {
          out += s.slice(last, i) + "null";
          i += token.length - 1;
          last = i + 1;
          this.count++;
          this.prev = 108; // 'l'
          continue;
        }
      }
      this.prev = c;
    }
    return out + s.slice(last);
  }

  /**
   * Moves the string state to position `to` of `s` without looking for tokens.
   * A raw newline never occurs inside a JSON string, so the state after the last
   * one is "outside a string" and only the text after it is scanned (a document
   * that breaks this rule is rejected by the parser anyway). The scan jumps from
   * quote to quote (native indexOf); a quote inside a string ends it unless an
   * odd run of backslashes comes before it.
   */
  private track(s: string, to: number): void {
    if (to === 0) return;
    let i = 0;
    const nl = s.lastIndexOf("\n", to - 1);
    if (nl !== -1) {
      this.inString = false;
      this.escaped = false;
      i = nl + 1;
    }
    if (this.escaped && i < to) i++; // the character after a backslash that ended the last piece
    let inString = this.inString;
    for (;;) {
      const q = s.indexOf('"', i);
      if (q === -1 || q >= to) break;
      if (inString && backslashesBefore(s, q, i) % 2 === 1) {
        i = q + 1; // an escaped quote: still inside the string
        continue;
      }
      inString = !inString;
      i = q + 1;
    }
    this.inString = inString;
    this.escaped = inString && backslashesBefore(s, to, i) % 2 === 1;
    this.prev = s.charCodeAt(to - 1);
  }
}

/** The number of backslashes right before position `at` of `s`, not looking before `from`. */
function backslashesBefore(s: string, at: number, from: number): number {
  let b = at - 1;
  while (b >= from && s.charCodeAt(b) === 92) b--;
  return at - 1 - b;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46;
}
