/**
 * The figures the HTML report draws beyond the report's own data (docs/html-report.md):
 * the denominator chain as a waterfall, the duration histogram per attempt status,
 * the task x trial waffle (or, past WAFFLE_CELLS trials, its blocks of tasks) and
 * every timeout attempt with its evidence. Read from the views of
 * queries/marts/charts/ (read by the SELECTs of queries/select/report/) and
 * `denom timeouts`' view; nothing is computed here.
 */
import type { Session } from "../db/session.js";
import { readTimeouts, type TimeoutRow } from "./timeouts.js";

/** A waffle draws one cell per trial up to this many trials; past it, blocks of tasks. */
export const WAFFLE_CELLS = 2000;
/** One bar of the waterfall: the trials a step kept (from 0), or what it removed for one reason (stacked above). Counts are trials. */
export interface WaterfallBar {
  basis: "first" | "final";
  step: number;
  denominator: string;
  part: "kept" | "removed";
  /** fault class and reason of a removal; null on a kept bar */
  fault: string | null;
  reason: string | null;
  trials: number;
  y_lo: number;
  y_hi: number;
}

/** Kept attempts of one attempt status whose duration (seconds) falls in [bin_lo_s, bin_hi_s). */
export interface HistogramBin {
  status: string;
  bin: number;
  bin_lo_s: number;
  bin_hi_s: number;
  attempts: number;
}

/** One trial as a waffle cell: its final status; `task_index` and `slot_index` count from 1. */
export interface WaffleCell {
  run_id: string | null;
  task_id: string;
  trial: number;
  task_index: number;
  slot_index: number;
  /** where the cell is drawn: tasks wrap in bands of 100 columns (band 0 = tasks 1-100), both from 0 */
  task_band: number;
  task_column: number;
  status: string;
  status_detail: string | null;
  /** attempts made (the final attempt's number); 0 for a missing trial */
  attempts: number;
  /** first start to last end, seconds; null without times */
  trial_wall_s: number | null;
}

/** Trials of one final status in one block of consecutive tasks (task id order). */
export interface TaskBlock {
  block: number;
  first_task: string;
  last_task: string;
  tasks: number;
  status: string;
  trials: number;
}

export interface ChartData {
  waterfall: WaterfallBar[];
  duration_histogram: HistogramBin[];
  /** trials (cells) in the waffle; `waffle` is empty and `task_blocks` full when it exceeds WAFFLE_CELLS */
  waffle_trials: number;
  waffle: WaffleCell[];
  task_blocks: TaskBlock[];
  /** every timeout attempt in `denom timeouts` order (the page groups those with the same evidence and lists a part) */
  timeouts: TimeoutRow[];
  timeouts_total: number;
}

/** The named SELECTs of the charts alone (readChartData), which the text, JSON and markdown reports never run. */
export const CHART_SELECTS: readonly string[] = [
  "report/denominator_waterfall",
  "report/duration_histogram",
  "report/waffle_trials",
  "report/trial_waffle",
  "report/task_block_status",
];

/** Reads the chart figures from an open session. Throws DenomError when a query file fails. */
export async function readChartData(session: Session): Promise<ChartData> {
  const waterfall = (await session.select("report/denominator_waterfall")).map((b) => ({
    ...b,
    basis: b.basis as WaterfallBar["basis"],
    part: b.part as WaterfallBar["part"],
  }));
  const duration_histogram: HistogramBin[] = await session.select("report/duration_histogram");
  const waffle_trials = (await session.selectOne("report/waffle_trials")).trials;
  const large = waffle_trials > WAFFLE_CELLS;
  const waffle: WaffleCell[] = large ? [] : await session.select("report/trial_waffle");
  const task_blocks: TaskBlock[] = large ? await session.select("report/task_block_status") : [];
  const timeouts = await readTimeouts(session, null);
  return { waterfall, duration_histogram, waffle_trials, waffle, task_blocks, timeouts, timeouts_total: timeouts.length };
}
