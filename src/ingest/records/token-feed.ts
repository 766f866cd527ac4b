/**
 * Feeds the text of a JSON document to stream-json's tokenizer so that a bad
 * token keeps every token before it. The tokenizer collects a call's tokens in
 * an array of its own and throws it away with the error, so an element that
 * ended in the same call as the bad token would be lost although the message
 * says the elements before it are kept (208 of 1,500 elements were, or all
 * of a small array, gone).
 *
 * So text is tokenized up to its last newline, and the rest held until more
 * comes: a raw newline cannot be inside a JSON string, so at the end of such a
 * call the tokenizer is between tokens and its state is what the tokens read
 * so far say (the open containers, the last token, the last character: was a
 * `,` or `:` consumed). When a call throws, a fresh tokenizer is put in that
 * state by a short synthetic prefix (its tokens dropped) and given the text
 * since then one character at a time: every token up to the bad one reaches
 * `consume` (those consumed already skipped), then the error is thrown again.
 */

/** A packed stream-json token (reader.ts). */
export type Token = { name: string; value?: unknown };

/** The tokenizer calls of json-stream.ts, passed in so this module loads nothing. */
export interface TokenizerKit {
  /** a fresh tokenizer of one or more top-level values (jsonStreaming, packed values) */
  make(): (input: string | symbol) => unknown;
  /** the tokens one call returned */
  tokensOf(out: unknown): Iterable<Token>;
  /** the end of input */
  none: symbol;
}

/** Text held without a newline before it is tokenized anyway (a document written on one line). */
const MAX_TAIL = 64 << 10;
/** Text since the last known state kept for a replay; past it, a bad token loses the tokens of its call. */
const MAX_RETAIN = 16 << 20;

interface KnownState {
  /** the open containers, outermost first: `[` or `{` */
  stack: string[];
  /** the last token's name, "" before any */
  last: string;
  /** the last character that is not whitespace, "" before any */
  lastChar: string;
}

export class TokenFeed {
  private tokenize: (input: string | symbol) => unknown;
  /** text after the last newline, not tokenized yet */
  private tail = "";
  private stack: string[] = [];
  private last = "";
  private lastChar = "";
  /** the state after the last call that ended at a newline */
  private known: KnownState = { stack: [], last: "", lastChar: "" };
  /** the text tokenized since `known` (null when longer than MAX_RETAIN) and the tokens it gave */
  private since: string[] | null = [];
  private sinceLength = 0;
  private sinceTokens = 0;

  constructor(
    private readonly kit: TokenizerKit,
    private readonly consume: (tok: Token) => void,
  ) {
    this.tokenize = kit.make();
  }

  /** Tokenizes `text` up to its last newline (all of it with `flush`); throws the tokenizer's error. */
  push(text: string, flush = false): void {
    const nl = text.lastIndexOf("\n");
    let piece: string;
    if (flush || nl < 0) {
      this.tail += text;
      if (!flush && this.tail.length <= MAX_TAIL) return;
      piece = this.tail;
      this.tail = "";
    } else {
      piece = this.tail + text.slice(0, nl + 1);
      this.tail = text.slice(nl + 1);
    }
    if (piece !== "") this.run(piece);
  }

  /** Tokenizes what is held and ends the input. */
  end(): void {
    this.push("", true);
    for (const tok of this.kit.tokensOf(this.tokenize(this.kit.none))) this.take(tok);
  }

  private run(piece: string): void {
    let out: unknown;
    try {
      out = this.tokenize(piece);
    } catch (e) {
      this.replay(piece);
      throw e;
    }
    let n = 0;
    for (const tok of this.kit.tokensOf(out)) {
      this.take(tok);
      n++;
    }
    const c = lastNonSpace(piece);
    if (c !== "") this.lastChar = c;
    if (piece.endsWith("\n")) {
      this.known = { stack: [...this.stack], last: this.last, lastChar: this.lastChar };
      this.since = [];
      this.sinceLength = 0;
      this.sinceTokens = 0;
    } else if (this.since !== null) {
      this.sinceLength += piece.length;
      this.sinceTokens += n;
      this.since.push(piece);
      if (this.sinceLength > MAX_RETAIN) this.since = null;
    }
  }

  private take(tok: Token): void {
    if (tok.name === "startObject") this.stack.push("{");
    else if (tok.name === "startArray") this.stack.push("[");
    else if (tok.name === "endObject" || tok.name === "endArray") this.stack.pop();
    this.last = tok.name;
    this.consume(tok);
  }

  /** The tokens of the failed call up to its bad token, from a fresh tokenizer put in the known state. */
  private replay(piece: string): void {
    if (this.since === null) return;
    const fresh = this.kit.make();
    const prefix = prefixOf(this.known);
    if (prefix !== "") this.kit.tokensOf(fresh(prefix));
    let skip = this.sinceTokens;
    for (const ch of this.since.join("") + piece) {
      let out: unknown;
      try {
        out = fresh(ch);
      } catch {
        return;
      }
      for (const tok of this.kit.tokensOf(out)) {
        if (skip > 0) skip--;
        else this.take(tok);
      }
    }
  }
}

/**
 * Text that takes a fresh tokenizer to `state`, every token of it given out by the
 * time the text ends (a string value, whose closing quote ends it; a literal or a
 * number would wait for the character after it). An open object holds its child
 * under the key "".
 */
export function prefixOf(state: KnownState): string {
  const { stack, last, lastChar } = state;
  if (stack.length === 0) return "";
  let text = "";
  for (let i = 0; i < stack.length - 1; i++) text += stack[i] === "[" ? "[" : '{"":';
  const top = stack[stack.length - 1];
  if (top === "[") {
    if (last === "startArray") return `${text}[`;
    return text + (lastChar === "," ? '["",' : '[""');
  }
  if (last === "startObject") return `${text}{`;
  if (last === "keyValue") return text + (lastChar === ":" ? '{"":' : '{""');
  return text + (lastChar === "," ? '{"":"",' : '{"":""');
}

function lastNonSpace(s: string): string {
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s[i];
    if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") return c;
  }
  return "";
}
