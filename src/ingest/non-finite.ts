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

  /** Filters the next piece of text; call `end()` after the last one. */
  push(text: string, final = false): string {
    const s = this.pending + text;
    this.pending = "";
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

  end(): string {
    return this.pending ? this.push("", true) : "";
  }
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46;
}
