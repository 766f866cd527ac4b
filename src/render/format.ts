/** Number formatting shared by the text renderers. Rates arrive as fractions. */

/** 0.875 -> "87.5%"; null -> "n/a" (a rate over 0 trials is never 0% or 100%). */
export function percent(rate: number | null | undefined, digits = 1): string {
  return rate === null || rate === undefined ? "n/a" : `${(rate * 100).toFixed(digits)}%`;
}

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 20 });

/** A count with thousands separators: 12345 -> "12,345"; 0.5 stays "0.5". */
export function count(n: number): string {
  return GROUPED.format(n);
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
