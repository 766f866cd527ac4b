/** Numbers and counts in words, shared by the renderers, the commands and the adapters that word a line. Rates arrive as fractions. */

/** 0.875 -> "87.5%"; null -> "n/a" (a rate over 0 trials is never 0% or 100%). */
export function percent(rate: number | null | undefined, digits = 1): string {
  return rate === null || rate === undefined ? "n/a" : `${(rate * 100).toFixed(digits)}%`;
}

// Intl's en-US formatting, done by hand for the values the renderers meet: the
// first Intl.NumberFormat of a process loads ICU's data, 20-40 ms of a small report
// (docs/benchmarks.md). Anything else (exponent notation, -0) goes to Intl.
let intl: Intl.NumberFormat | null = null;
const fixedIntl = new Map<number, Intl.NumberFormat>();

/** "1234567" -> "1,234,567" (digits only). */
function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ",");
}

/** A count with thousands separators: 12345 -> "12,345"; 0.5 stays "0.5" (as Intl.NumberFormat en-US, maximumFractionDigits 20). */
export function count(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return n < 0 ? `-${group(String(-n))}` : group(String(n));
  intl ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 20 });
  return intl.format(n);
}

/**
 * A chart's axis label for a count, short enough for a tick at any scale: below
 * 10,000 the count with thousands separators (2500 -> "2,500"), from there a compact
 * unit with at most one decimal, trailing zeros dropped (25000 -> "25k",
 * 1500000 -> "1.5M", 2e9 -> "2G"); a value between two whole numbers (0.5 trials) -> "".
 */
export function compactCount(n: number): string {
  if (!Number.isInteger(n)) return "";
  const a = Math.abs(n);
  if (a < 10_000) return count(n);
  const [div, unit] = a < 999_950 ? [1e3, "k"] : a < 999_950_000 ? [1e6, "M"] : [1e9, "G"];
  return `${n < 0 ? "-" : ""}${String(Number((a / div).toFixed(1)))}${unit}`;
}

/**
 * `v` with exactly `digits` decimals and thousands separators, as
 * `v.toLocaleString("en-US", {minimumFractionDigits: digits, maximumFractionDigits: digits})`
 * gives it: the shortest decimal that reads back as `v` (String(v)) rounded half
 * away from zero, so 1.005 -> "1.01" where (1.005).toFixed(2) is "1.00";
 * 1234.5678 -> "1,234.57".
 */
export function fixed(v: number, digits: number): string {
  const text = String(Math.abs(v));
  if (!Number.isFinite(v) || Object.is(v, -0) || text.includes("e") || !Number.isInteger(digits) || digits < 0 || digits > 20) {
    let f = fixedIntl.get(digits);
    if (!f) fixedIntl.set(digits, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })));
    return f.format(v);
  }
  const [whole, frac = ""] = text.split(".");
  // the kept digits as one integer, plus one when the first dropped digit is 5 or more
  let kept = BigInt(whole + frac.slice(0, digits).padEnd(digits, "0"));
  if ((frac[digits] ?? "0") >= "5") kept += 1n;
  const all = kept.toString().padStart(digits + 1, "0");
  const head = group(all.slice(0, all.length - digits));
  const out = digits > 0 ? `${head}.${all.slice(all.length - digits)}` : head;
  return v < 0 ? `-${out}` : out;
}

/** successes/trials with thousands separators: "1,234/2,000". */
export function fraction(cell: { successes: number; count: number }): string {
  return `${count(cell.successes)}/${count(cell.count)}`;
}

/** A rate cell as "70/80 87.5%" (n/a when the rate is null); "" when there is no cell. */
export function ratio(cell: { successes: number; count: number; rate: number | null } | undefined): string {
  return cell ? `${fraction(cell)} ${percent(cell.rate)}` : "";
}

/** 1536 -> "1.5 KB" (decimal units) */
export function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n;
  let u = -1;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** seconds -> "300 s", "1.5 s" */
export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return "n/a";
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** "1 trial", "3 trials", "12,000 trials" */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${count(n)} ${n === 1 ? word : many}`;
}

/** seconds -> "45.3 s", "19.0 min", "3.4 h"; null -> "n/a" */
export function duration(s: number | null | undefined): string {
  if (s === null || s === undefined || Math.abs(s) < 120) return seconds(s);
  if (Math.abs(s) < 7200) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** What was read, for --strict and for inputs that yielded nothing: counts of the accounting view. */
export interface ReadCounts {
  lines: number;
  blank: number;
  rejected: number;
  broken_sources: number;
  duplicates_across_sources?: number;
}

/** What --strict refuses, in words: "2 lines rejected", "1 source broken part-way (warned above)", "100 differing duplicates from two sources (warned above)". */
export function strictProblems(read: Pick<ReadCounts, "rejected" | "broken_sources" | "duplicates_across_sources">): string {
  const parts: string[] = [];
  const across = read.duplicates_across_sources ?? 0;
  if (read.rejected > 0) parts.push(`${plural(read.rejected, "line")} rejected`);
  if (read.broken_sources > 0) parts.push(`${plural(read.broken_sources, "source")} broken part-way (warned above)`);
  if (across > 0) parts.push(`${plural(across, "differing duplicate")} from two sources (warned above)`);
  return parts.join(" and ");
}

/** What inputs that yielded no record held: "0 lines read", "3 lines read: 3 blank", "2 lines read: 2 rejected (listed above)". */
export function nothingRead(read: ReadCounts): string {
  const parts: string[] = [];
  if (read.blank > 0) parts.push(`${count(read.blank)} blank`);
  if (read.rejected > 0) parts.push(`${count(read.rejected)} rejected (listed above)`);
  return `${plural(read.lines, "line")} read${parts.length ? `: ${parts.join(", ")}` : ""}`;
}
