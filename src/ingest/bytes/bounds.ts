/**
 * Bounds on what an input expands to (docs/security.md, "Archives and
 * compressed inputs"). Each is counted on the bytes and members as they are
 * decoded, never on a size an archive declares: a zip's uncompressed size or a
 * zstd frame's content size can lie. Passing one is an ExpansionError (a
 * DataError, exit 1) whose message names the bound, its value and where it was
 * passed; a bound of one zip member is a MemberBoundError, which an archive
 * reader may turn into a reject of that member's record.
 */
import { DataError } from "../../errors.js";

/** The bounds; DEFAULT_BOUNDS holds their values. */
export interface ExpansionBounds {
  /** layers of compression and archive around one source (gzip in gzip, a tar in a gzip, a gzip member of a tar, a zip) */
  nesting: number;
  /** members of one tar or zip archive (every entry, folders and links included) */
  members: number;
  /** decoded bytes of one zip member */
  memberBytes: number;
  /** decoded bytes over compressed bytes of one zip member, checked once it has decoded `ratioFloor` bytes */
  ratio: number;
  /** decoded bytes of a zip member below which `ratio` is not checked */
  ratioFloor: number;
  /** decoded bytes of one input given on the command line: every gzip layer's output and every zip member's, summed */
  inputBytes: number;
  /** the window a zstd frame asks for (the decoder allocates it whole, before any byte is decoded) */
  zstdWindow: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The defaults: far above any real log seen (the largest real zip log member
 * decodes to 0.7 MB at 15x; a real `.tar.gz` of runs holds some thousands of
 * members, nested 3 deep at most: a `.jsonl.gz` in a `.tar.gz`), and low enough
 * that no bomb holds more than a few hundred MB of memory or runs for minutes.
 */
export const DEFAULT_BOUNDS: Readonly<ExpansionBounds> = {
  nesting: 8,
  members: 100_000,
  memberBytes: 4 * GiB,
  ratio: 1000,
  ratioFloor: 16 * MiB,
  inputBytes: 64 * GiB,
  zstdWindow: 128 * MiB,
};

/** The bounds in force (setExpansionBounds; tests lower them). */
let bounds: ExpansionBounds = { ...DEFAULT_BOUNDS };

/** The bounds in force. */
export function expansionBounds(): Readonly<ExpansionBounds> {
  return bounds;
}

/** Replaces some bounds (the rest keep their default); returns the previous ones, to restore. */
export function setExpansionBounds(change: Partial<ExpansionBounds>): ExpansionBounds {
  const before = bounds;
  bounds = { ...DEFAULT_BOUNDS, ...change };
  return before;
}

/** A bound of the whole input passed (its decoded bytes, an archive's members, the nesting depth): the input is refused, exit 1. */
export class ExpansionError extends DataError {}

/**
 * A bound of one zip member passed (its decoded size, ratio, declared size, a
 * zstd window): that member cannot be read, as a corrupt one cannot (a
 * sample member is then a reject, the log's header a refused input).
 */
export class MemberBoundError extends Error {}

/** `n` bytes as the messages show them: `64 GiB`, `16 MiB`, `64 KiB`, `500 bytes`. */
export function showBytes(n: number): string {
  if (n >= GiB && n % GiB === 0) return `${n / GiB} GiB`;
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * The decoded bytes of one command-line input, summed over its layers and
 * members; `add` throws ExpansionError once they pass `inputBytes`.
 */
export class InputBudget {
  private decoded = 0;

  constructor(private readonly name: string) {}

  /** Counts `n` more decoded bytes. Throws ExpansionError past the bound. */
  add(n: number): void {
    this.decoded += n;
    const limit = bounds.inputBytes;
    if (this.decoded > limit)
      throw new ExpansionError(
        `${this.name}: decodes to more than ${showBytes(limit)} (bound: decoded bytes of one input, ${showBytes(limit)}); refused, nothing after it was read`,
      );
  }
}

/** Throws ExpansionError when an archive holds more than the member bound (`count` is the members seen so far). */
export function checkMembers(archive: string, count: number): void {
  if (count > bounds.members)
    throw new ExpansionError(
      `${archive}: more than ${bounds.members.toLocaleString("en-US")} members (bound: members of one archive, ${bounds.members.toLocaleString("en-US")}); refused`,
    );
}

/** Throws ExpansionError when a source lies more than the nesting bound deep (`depth` layers so far). */
export function checkNesting(name: string, depth: number): void {
  if (depth > bounds.nesting)
    throw new ExpansionError(`${name}: compressed or archived more than ${bounds.nesting} layers deep (bound: nesting depth, ${bounds.nesting}); refused`);
}

/**
 * Counts the decoded bytes of one zip member against the member bounds: its
 * decoded size, the size the archive declares (decoding past it is a lie), and
 * the ratio of decoded to compressed bytes past the floor. `add` throws
 * MemberBoundError as soon as one is passed.
 */
export class MemberMeter {
  decoded = 0;
  compressed = 0;

  constructor(
    private readonly member: string,
    private readonly declared: number,
  ) {}

  /** Counts `n` compressed bytes read. */
  read(n: number): void {
    this.compressed += n;
  }

  /** Counts `n` decoded bytes. Throws MemberBoundError past a bound. */
  add(n: number): void {
    this.decoded += n;
    const b = bounds;
    if (this.decoded > this.declared)
      throw new MemberBoundError(`member ${this.member} decodes to more than the ${this.declared} bytes the archive declares; refused`);
    if (this.decoded > b.memberBytes)
      throw new MemberBoundError(
        `member ${this.member} decodes to more than ${showBytes(b.memberBytes)} (bound: decoded bytes of one member, ${showBytes(b.memberBytes)})`,
      );
    if (this.decoded > b.ratioFloor && this.decoded > b.ratio * Math.max(1, this.compressed))
      throw new MemberBoundError(
        `member ${this.member} decodes to more than ${b.ratio} times its ${this.compressed} compressed bytes (bound: expansion ratio of one member, ${b.ratio}, past ${showBytes(b.ratioFloor)})`,
      );
  }
}
