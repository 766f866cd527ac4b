/**
 * The progress line shown on stderr while inputs are read (docs/commands.md:
 * a bar on a TTY for long inputs, never on stdout). Pure: the CLI decides
 * when to draw it.
 */
import { count } from "../number-format.js";

/** Where reading stands. */
export interface ProgressState {
  /** raw bytes read so far (compressed bytes for a `.gz`) */
  read: number;
  /** bytes of every input in all; null when unknown (stdin) */
  total: number | null;
  /** records read so far */
  records: number;
  /** seconds since reading began */
  seconds: number;
}

/** Width of the bar, in characters between the brackets. */
const BAR = 24;

/** Whole seconds as `m:ss` (`0:29`, `12:05`), rounded up: an estimate never promises less than is left. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * One line of progress, e.g.
 * `reading [#########---------------] 412/1000 MB 41%  380,112 records  20.6 MB/s  ETA 0:29`;
 * without a known total, no bar and no estimate: `reading 412 MB  380,112 records  23.4 MB/s`.
 * Rate in MB/s (1 MB = 10^6 bytes) of bytes read; the ETA is the bytes left at
 * the rate so far (reading only: computing the figures follows, computingLine).
 */
export function progressLine(p: ProgressState): string {
  const mb = (n: number) => (n / 1e6).toFixed(0);
  const rate = p.seconds > 0 ? `${(p.read / 1e6 / p.seconds).toFixed(1)} MB/s` : "";
  const records = `${count(p.records)} records`;
  if (p.total === null || p.total <= 0) return `reading ${mb(p.read)} MB  ${records}  ${rate}`.trimEnd();
  const share = Math.min(1, p.read / p.total);
  const done = Math.round(share * BAR);
  const bar = `[${"#".repeat(done)}${"-".repeat(BAR - done)}]`;
  const eta = p.seconds > 0 && p.read > 0 && p.read < p.total ? `  ETA ${clock(((p.total - p.read) * p.seconds) / p.read)}` : "";
  return `reading ${bar} ${mb(p.read)}/${mb(p.total)} MB ${Math.floor(share * 100)}%  ${records}  ${rate}${eta}`.trimEnd();
}

/** The line shown once the inputs are read and DuckDB computes the figures, with the time it has taken so far: `computing the figures  0:12`. */
export function computingLine(seconds: number): string {
  return `computing the figures  ${clock(seconds)}`;
}
