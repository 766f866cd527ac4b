/**
 * Published claims for `denom audit`: parsing (`87.5%`, `0.3696`, `70/80`), the
 * tolerance a printed figure stands for, the exact test of a rate against it and
 * the exact distance to it. Pure and free of DuckDB, so the CLI checks `--claim`
 * before loading anything; a harness's own claims file is read by its adapter
 * (FormatAdapter.claims), the claims in it parsed here.
 *
 * Exactness: a rate is a ratio of whole numbers and a tolerance bound is a
 * decimal, so both are held as fractions of BigInts and compared by
 * cross-multiplying. No floating point decides a match: 51/400 = 0.1275 matches
 * a claim of 0.128 (its lower bound, included) although 0.128 - 0.1275 is
 * 0.0005000000000000004 in doubles.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../errors.js";
import { FORMATS } from "./index.js";

/** An exact fraction `num/den`, den > 0: non-negative, except an offset from a claim (offsetFromClaim). */
export interface Fraction {
  num: bigint;
  den: bigint;
}

/** A parsed claim. Values and bounds are fractions of 1 (0.875), never percents. */
export interface Claim {
  /** the claim as written, e.g. `87.5%` */
  text: string;
  /** free text after the claim in a `--claims` file */
  label: string | null;
  /** how it was written: `percent` (87.5%), `decimal` (0.3696) or `ratio` (70/80) */
  form: "percent" | "decimal" | "ratio";
  /** digits after the decimal point as printed (0 for a ratio) */
  decimals: number;
  /** the claimed value, exactly */
  value: Fraction;
  /**
   * Rates matching the claim: [lo, hi], both included. A printed figure stands for
   * every rate within half a unit of its last digit (87.5% -> [87.45%, 87.55%]);
   * a ratio `70/80` stands for its exact value only (lo = hi = 7/8), so 35/40 matches
   * it too: a claim names a rate, not a count.
   */
  lo: Fraction;
  hi: Fraction;
  /**
   * The benchmark the claim is about, for claims read from a harness's own file
   * that states one figure per benchmark (PublishedClaim.benchmark): audited only against the records of that benchmark (the
   * attempts' `category`); absent for every other claim.
   */
  benchmark?: string;
  /**
   * `M ± S` (also `M +- S`, `M +/- S`): the standard error published with the value, its
   * tolerance as a printed figure's ([S - half a unit, S + half a unit]); a definition
   * reproduces the claim only when it gives both. Fractions of 1, like the value.
   */
  standard_error?: { text: string; value: Fraction; lo: Fraction; hi: Fraction };
}

const PERCENT = /^(\d+)(?:\.(\d+))?\s*%$/;
/** `M ± S`, `M +- S`, `M +/- S` */
const PLUS_MINUS = /^(.+?)\s*(?:±|\+\/-|\+-)\s*(.+)$/;
const DECIMAL = /^(\d*)\.(\d+)$/;
const RATIO = /^(\d+)\s*\/\s*(\d+)$/;

/**
 * Parses one claim. Throws UsageError naming `flag` when it is not a percent
 * (`87.5%`, at most 100), a decimal fraction (`0.3696`, at most 1) or a ratio
 * (`70/80`, numerator at most the denominator).
 */
export function parseClaim(text: string, flag = "--claim", label: string | null = null): Claim {
  const pm = PLUS_MINUS.exec(text.trim());
  if (pm) {
    const value = parseClaim(pm[1], flag, label);
    if (value.form === "ratio") throw new UsageError(`${flag} ${text}: a ratio has no standard error; write the rate with it (0.128 ± 0.0016)`);
    return { ...value, text: text.trim(), standard_error: parseStandardError(pm[2], value, flag, text) };
  }
  const t = text.trim();
  const bad = (why: string) => new UsageError(`${flag} ${text}: ${why}; write a percent (87.5%), a fraction (0.875) or successes/count (70/80)`);
  let m = PERCENT.exec(t);
  if (m) {
    const decimals = (m[2] ?? "").length;
    // n units of 10^-(decimals+2): 87.5% = 875 / 10^3
    const value = reduce({ num: BigInt(m[1] + (m[2] ?? "")), den: 10n ** BigInt(decimals + 2) });
    if (compare(value, ONE) > 0) throw bad("more than 100%");
    return { text: t, label, form: "percent", decimals, value, ...halfUnit(BigInt(m[1] + (m[2] ?? "")), decimals + 2) };
  }
  m = DECIMAL.exec(t);
  if (m) {
    const decimals = m[2].length;
    const units = BigInt((m[1] || "0") + m[2]);
    const value = reduce({ num: units, den: 10n ** BigInt(decimals) });
    if (compare(value, ONE) > 0) throw bad("more than 1 (a fraction of 1 is expected; for a percent add %)");
    return { text: t, label, form: "decimal", decimals, value, ...halfUnit(units, decimals) };
  }
  m = RATIO.exec(t);
  if (m) {
    const num = BigInt(m[1]);
    const den = BigInt(m[2]);
    if (den === 0n) throw bad("the count is 0");
    if (num > den) throw bad("more successes than count");
    const value = reduce({ num, den });
    return { text: t, label, form: "ratio", decimals: 0, value, lo: value, hi: value };
  }
  if (/^\d+(\.\d+)?$/.test(t)) throw bad("ambiguous without % or a decimal point");
  throw bad("not a claim");
}

/**
 * The S of `M ± S`: written like M (a fraction after a fraction; after a percent, a
 * percent, with or without its %: points). Throws UsageError when it is no number.
 */
function parseStandardError(text: string, value: Claim, flag: string, whole: string): NonNullable<Claim["standard_error"]> {
  const t = text.trim();
  const m = /^(\d*)\.?(\d*)\s*(%?)$/.exec(t);
  if (!m || (m[1] === "" && m[2] === "") || (m[3] === "%" && value.form !== "percent"))
    throw new UsageError(`${flag} ${whole}: the standard error ${text} is not a number in the claim's form (0.128 ± 0.0016, 12.8% ± 0.16%)`);
  const decimals = m[2].length;
  const units = BigInt((m[1] || "0") + m[2]);
  const scale = decimals + (value.form === "percent" ? 2 : 0);
  return { text: t, value: reduce({ num: units, den: 10n ** BigInt(scale) }), ...halfUnit(units, scale) };
}

/** [units - 1/2, units + 1/2] in steps of 10^-scale, as fractions, kept within [0, 1] (a rate's range). */
function halfUnit(units: bigint, scale: number): { lo: Fraction; hi: Fraction } {
  const den = 2n * 10n ** BigInt(scale);
  const lo = 2n * units - 1n;
  const hi = 2n * units + 1n;
  return { lo: reduce({ num: lo < 0n ? 0n : lo, den }), hi: reduce({ num: hi > den ? den : hi, den }) };
}

/**
 * Reads a `--claims` file: one claim a line, optionally followed by a label
 * (`0.3696 Orchestrator, tbench.ai leaderboard`); blank lines and lines starting
 * with `#` are skipped. A harness's own file of published figures is read too
 * (publishedClaims: the file of an adapter that declares `claims`, e.g. one
 * claim per benchmark, each scoped to it).
 * Throws UsageError naming the file and line.
 */
export function readClaimsFile(path: string): Claim[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`--claims ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseClaimsText(text, path);
}

/** The parsing half of readClaimsFile. */
export function parseClaimsText(text: string, name: string): Claim[] {
  const published = publishedClaims(text, name);
  if (published) return published;
  const claims: Claim[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return;
      // a claim has no inner spaces except around % and /: take the longest such prefix
      // (a value may carry its standard error: `0.128 ± 0.0016`)
      const m = /^((?:\d*\.?\d+\s*%?)\s*(?:(?:±|\+\/-|\+-)\s*\d*\.?\d+\s*%?)|\d*\.?\d+\s*%|\d+\s*\/\s*\d+|\d*\.?\d+)(?:\s+(.*))?$/.exec(line);
      if (!m) throw new UsageError(`--claims ${name}:${i + 1}: ${JSON.stringify(line)} does not start with a claim (87.5%, 0.875 or 70/80)`);
      claims.push(parseClaim(m[1], `--claims ${name}:${i + 1}:`, m[2]?.trim() || null));
    });
  if (claims.length === 0) throw new UsageError(`--claims ${name}: no claim in the file (one a line: CLAIM [LABEL])`);
  return claims;
}

/**
 * The claims of a harness's own file of published figures, or null when `text`
 * is none: each format adapter that declares `claims` (src/formats/) is asked in
 * turn, and each figure it finds parsed here (its tolerance from its digits).
 */
function publishedClaims(text: string, name: string): Claim[] | null {
  for (const format of FORMATS) {
    const found = format.claims?.(text, name);
    if (!found) continue;
    return found.map((p) => {
      const claim = parseClaim(p.claim, `--claims ${name}${p.at}:`, p.label);
      return p.benchmark === undefined ? claim : { ...claim, benchmark: p.benchmark };
    });
  }
  return null;
}

/**
 * The distance of a rate to a claim, the one definition audit uses:
 * `rate - claimed value`, exactly, as a signed fraction (num < 0: below the
 * claim). The nearest definitions of an unreproduced claim are those of the
 * smallest |offset| (compareDistance), and each is shown with its offset
 * (`distance` = |offset|, `offset` in the JSON). Matching is not a distance:
 * it is the tolerance test of matchesClaim.
 */
export function offsetFromClaim(rate: Fraction, claim: Claim): Fraction {
  return reduce({ num: rate.num * claim.value.den - claim.value.num * rate.den, den: rate.den * claim.value.den });
}

/** Orders two offsets (offsetFromClaim) by distance, |a| against |b|, exactly: < 0 when a is nearer. */
export function compareDistance(a: Fraction, b: Fraction): number {
  const abs = (f: Fraction) => (f.num < 0n ? { num: -f.num, den: f.den } : f);
  return compare(abs(a), abs(b));
}

/**
 * True when `rate` lies in the claim's tolerance, bounds included; or when the
 * claim is a decimal of 15 or more digits, a program's printout of a double
 * (`0.6666666666666666` for 4/6), and it is the double nearest to `rate`:
 * such a claim is the fraction itself, not a figure rounded to its digits.
 */
export function matchesClaim(rate: Fraction, claim: Claim): boolean {
  if (compare(rate, claim.lo) >= 0 && compare(rate, claim.hi) <= 0) return true;
  return claim.form === "decimal" && claim.decimals >= FULL_PRECISION && Number(claim.text.split(/\s|±|\+/)[0]) === toNumber(rate);
}

/** The digits after the point from which a decimal claim is read as a printed double. */
export const FULL_PRECISION = 15;

/** True when a standard error (a fraction of 1) lies in the tolerance of the claim's `± S`. */
export function matchesStandardError(se: number, claim: Claim): boolean {
  const s = claim.standard_error;
  if (!s) return true;
  return se >= toNumber(s.lo) - 1e-15 && se <= toNumber(s.hi) + 1e-15;
}

/** successes/count as a fraction; null when count is 0 (no rate). */
export function ratioOf(successes: number, count: number): Fraction | null {
  return count > 0 ? reduce({ num: BigInt(successes), den: BigInt(count) }) : null;
}

/**
 * The exact mean of per-run rates successes_i/count_i over the runs with count > 0
 * (the runs the view's mean averages); null when no run has a trial.
 */
export function meanOfRatios(runs: readonly { successes: number; count: number }[]): Fraction | null {
  let sum: Fraction = { num: 0n, den: 1n };
  let k = 0n;
  for (const r of runs) {
    const f = ratioOf(r.successes, r.count);
    if (!f) continue;
    sum = reduce({ num: sum.num * f.den + f.num * sum.den, den: sum.den * f.den });
    k++;
  }
  return k === 0n ? null : reduce({ num: sum.num, den: sum.den * k });
}

/**
 * The exact value of pass@k (`hat` false) or pass^k (`hat` true) over tasks
 * given as (n, c) shapes with their task counts (view audit_pass_at_k): the
 * mean over tasks of 1 - C(n-c, k)/C(n, k), or of C(c, k)/C(n, k) (docs/metrics.md), as a fraction, so that a claim is matched exactly; null when no
 * task has k trials. Shapes with n < k are not given (the view skips them).
 */
export function passAtKFraction(shapes: readonly { n: number; c: number; tasks: number }[], k: number, hat: boolean): Fraction | null {
  let sum: Fraction = { num: 0n, den: 1n };
  let tasks = 0n;
  for (const s of shapes) {
    if (s.n < k || s.tasks <= 0) continue;
    // C(a, k) / C(n, k) = prod_{i<k} (a - i) / (n - i), a falling factorial over another
    const fall = (a: number) => {
      let p = 1n;
      for (let i = 0; i < k; i++) p *= BigInt(Math.max(a - i, 0));
      return p;
    };
    const den = fall(s.n);
    const part = hat ? { num: fall(s.c), den } : { num: den - fall(s.n - s.c), den };
    const weighted = { num: part.num * BigInt(s.tasks), den: part.den };
    sum = reduce({ num: sum.num * weighted.den + weighted.num * sum.den, den: sum.den * weighted.den });
    tasks += BigInt(s.tasks);
  }
  return tasks === 0n ? null : reduce({ num: sum.num, den: sum.den * tasks });
}

/** A fraction as a JS number (for display only; matching and distances are exact). */
export function toNumber(f: Fraction): number {
  // dividing two exactly represented integers rounds the true quotient correctly
  if (f.num <= MAX_EXACT && f.den <= MAX_EXACT) return Number(f.num) / Number(f.den);
  const scale = 10n ** 18n;
  return Number((f.num * scale) / f.den) / 1e18;
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

const ONE: Fraction = { num: 1n, den: 1n };

function compare(a: Fraction, b: Fraction): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(f: Fraction): Fraction {
  const g = gcd(f.num < 0n ? -f.num : f.num, f.den);
  return g > 1n ? { num: f.num / g, den: f.den / g } : f;
}
