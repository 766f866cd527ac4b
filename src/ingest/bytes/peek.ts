/**
 * Read-ahead without losing bytes: used to sniff magic bytes (sources.ts) and
 * the first lines of a source (reader.ts) before choosing how to read the rest.
 */

/** What `peek` read, and the whole stream again (the bytes read first, then the rest). */
export interface Peeked {
  /** every chunk read ahead, concatenated */
  bytes: Buffer;
  /** true when the source ended during the read-ahead */
  ended: boolean;
  /** replays `bytes`, then yields the rest of the source; iterate it once */
  rest: AsyncIterable<Buffer>;
}

/**
 * Reads chunks from `src` until `enough(chunk, total)` says so (called after each
 * chunk with the byte count so far) or the source ends, and hands back an
 * iterable that replays them first. Errors of `src` surface from the read-ahead
 * or from `rest`, wherever they happen.
 */
export async function peek(src: AsyncIterable<Buffer>, enough: (chunk: Buffer, total: number) => boolean): Promise<Peeked> {
  const it = src[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let total = 0;
  let ended = false;
  for (;;) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head.push(r.value);
    total += r.value.length;
    if (enough(r.value, total)) break;
  }
  const bytes = head.length === 1 ? head[0] : Buffer.concat(head);
  async function* rest(): AsyncGenerator<Buffer> {
    if (bytes.length) yield bytes;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { bytes, ended, rest: rest() };
}

/** `peek` until at least `n` bytes are read (or the source ends). */
export function peekBytes(src: AsyncIterable<Buffer>, n: number): Promise<Peeked> {
  return peek(src, (_chunk, total) => total >= n);
}
