/**
 * Streaming form of `replaceNonFinite` for JSON documents read in chunks:
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
