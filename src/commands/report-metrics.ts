/**
 * The metrics half of `denom report` (docs/metrics.md): rate cells with their 95%
 * intervals, pass@k and pass^k, efficiency (duration, agent vs wall time, tokens,
 * tool calls, cost, retries), call-level outcomes, the trial inventory, and all of
 * these again per group of `--by`. Read from the views of queries/marts/ (efficiency, pass_at_k, confidence, inventory, per_call); nothing
 * is computed here, rows are only reshaped (scope 0 = every trial; scopes 1..n =
 * the groups of `--by`).
 */
import type { RowOf, Session } from "../db/session.js";
import type { Expectation, GroupKey } from "../definitions.js";
import { DenomError } from "../errors.js";

/** [lo, hi] as fractions; null when the figure is n/a. */
export type Interval = [number, number] | null;

/**
 * How an interval was made: Wilson score over single trials; with several trials per task,
 * the task-clustered bootstrap, or from `clustered_from_tasks` tasks on the analytic
 * cluster-robust interval (queries/marts/confidence/).
 */
export type CiMethod = "wilson" | "bootstrap" | "clustered";

/**
 * pass@k and pass^k for one k, on the final basis. pass@k = mean over tasks of
 * 1 - C(n-c,k)/C(n,k) (Chen et al. 2021, the Codex paper's unbiased estimator);
 * pass^k = mean of C(c,k)/C(n,k) (Yao et al. 2024). n = trials of a task
 * with a record, c = its final successes. Fractions; null when no task has n >= k.
 */
export interface PassAtK {
  k: number;
  pass_at_k: number | null;
  pass_hat_k: number | null;
  /** tasks with n >= k, the ones averaged */
  tasks: number;
  /** tasks with n < k (expected tasks without any record included), left out for this k */
  skipped: number;
  pass_at_k_ci95: Interval;
  pass_hat_k_ci95: Interval;
  ci_method: CiMethod;
}

/** Duration of attempts in seconds (ended_at - started_at), nearest-rank percentiles. */
export interface DurationFigures {
  mean: number | null;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

/** The duration figures of the attempts that ended in one status. */
export interface StatusDuration extends DurationFigures {
  status: string;
  attempts: number;
  /** attempts with both started_at and ended_at */
  timed_attempts: number;
}

/**
 * Efficiency figures (docs/commands.md `efficiency`). Seconds, USD, fractions.
 * A figure nobody recorded is null, and the attempts lacking it are counted.
 */
export interface Efficiency {
  duration_s: DurationFigures;
  duration_by_status: StatusDuration[];
  /** sum of attempt durations, seconds */
  agent_time_s: number | null;
  /** first started_at to last ended_at over all attempts, seconds */
  wall_s: number | null;
  llm_tokens_mean: number | null;
  tool_calls_mean: number | null;
  /** spend of every attempt, retries included, over the attempts that recorded a cost */
  cost_usd_total: number | null;
  cost_per_trial: number | null;
  /** cost_usd_total / final successes */
  cost_per_success: number | null;
  attempts_per_trial: number | null;
  /** final successes whose trial had one attempt, over all final successes */
  zero_retry_success_share: number | null;
  trials: number;
  attempts: number;
  final_successes: number;
  timed_attempts: number;
  llm_tokens_attempts: number;
  tool_calls_attempts: number;
  /** attempts without cost_usd: when > 0, the cost figures are lower bounds */
  cost_missing_attempts: number;
  trials_retried: number;
  /** trials whose first attempt did not succeed and whose final one did */
  trials_rescued: number;
}

/**
 * Cost, LLM tokens and agent time per solved task under one denominator of the chain, on the
 * final basis (view per_success, docs/metrics.md "Per solved task"): what every attempt of
 * the trials the denominator keeps recorded (failed and retried attempts included) over the
 * final successes among those trials. USD, tokens, seconds. Each `*_ci95` is the task-clustered
 * 95% interval (delta method, Miller 2024); null below 2 tasks or without a success. A value an
 * attempt did not record is never read as 0: the attempts lacking it are counted and the
 * figure, recorded values only, is then a lower bound (`*_lower_bound`).
 */
export interface PerSuccess {
  denominator: string;
  /** tasks with a trial the denominator keeps (the clusters of the interval) */
  tasks: number;
  trials: number;
  /** final successes among the kept trials */
  successes: number;
  attempts: number;
  cost_usd: number | null;
  cost_missing_attempts: number;
  cost_per_success_usd: number | null;
  cost_per_success_usd_ci95: Interval;
  cost_lower_bound: boolean;
  llm_tokens: number | null;
  llm_tokens_missing_attempts: number;
  llm_tokens_per_success: number | null;
  llm_tokens_per_success_ci95: Interval;
  llm_tokens_lower_bound: boolean;
  agent_time_s: number | null;
  untimed_attempts: number;
  agent_time_per_success_s: number | null;
  agent_time_per_success_s_ci95: Interval;
  agent_time_lower_bound: boolean;
}

/** Call-level outcome (events with their own status), counted per call, not per trial. */
export interface CallOutcome {
  type: string;
  status: string;
  calls: number;
  /** share of this type's calls, a fraction */
  share: number | null;
}

/** The trial inventory: tasks x trial slots expected against present, per run. */
export interface Inventory {
  expected: Expectation | null;
  runs: {
    run_id: string | null;
    /** the run's agent and model (a run is its run_id, agent and model); null when it names none */
    agent: string | null;
    model: string | null;
    trial_slots: number;
    tasks_present: number;
    tasks_expected: number | null;
    tasks_missing: number;
    tasks_unexpected: number | null;
    trials_present: number;
    trials_missing: number;
    slots_missing_in_present_tasks: number;
  }[];
  /** expected tasks with no record in a run (in `total` as missing); unnamed ones come from --expect-count */
  missing_tasks: { run_id: string | null; task_id: string; trials: number; named: boolean }[];
  /** tasks with records that --expect does not list (kept in every figure) */
  unexpected_tasks: { run_id: string | null; task_id: string; trials: number }[];
  /** tasks present with fewer trials than their run's slots (not in `total`; pass@k skips them for large k) */
  incomplete_tasks: { run_id: string | null; task_id: string; trials_present: number; trial_slots: number; missing_slots: number[] }[];
  /** rows left out of the three lists above (each list holds at most INVENTORY_LISTED rows) */
  not_listed: number;
  /** the complete counts behind the three lists (view inventory_totals) */
  totals: { tasks_missing: number; trials_missing: number; tasks_missing_unnamed: number; tasks_unexpected: number; tasks_incomplete: number };
}

/** Every figure of one group of `--by`. `value` null = records without that field. */
export interface GroupFigures {
  value: string | null;
  rates: RateCell[];
  pass_at_k: PassAtK[];
  efficiency: Efficiency;
  per_success: PerSuccess[];
  per_call: CallOutcome[];
}

/** One cell of the rate grid. `rate` is a fraction (0.875), null when `count` is 0. */
export interface RateCell {
  basis: "first" | "final";
  /** a denominator of the chain (queries/reference/denominators.sql) */
  denominator: string;
  successes: number;
  count: number;
  rate: number | null;
  /** 95% interval of `rate` as fractions; null when `count` is 0 */
  ci95: Interval;
  /** wilson over single trials; bootstrap (task-clustered) with several trials per task; clustered from clustered_from_tasks tasks */
  ci_method: CiMethod;
}

/** How the intervals were made (queries/marts/confidence/). */
export interface ConfidenceSettings {
  level: number;
  z: number;
  resamples: number;
  seed: number;
  /** tasks in a scope from which its task-clustered intervals are `clustered`, not `bootstrap` */
  clustered_from_tasks: number;
  methods: Record<CiMethod, string>;
}

export interface Metrics {
  rates: RateCell[];
  pass_at_k: PassAtK[];
  efficiency: Efficiency;
  /** per denominator of the chain, in its order: cost, tokens and agent time per final success */
  per_success: PerSuccess[];
  per_call: CallOutcome[];
  inventory: Inventory;
  confidence: ConfidenceSettings;
  /**
   * the `--by` key; without --by, `identity` when the inputs hold several agents, models,
   * benchmarks or runs naming no model (view run_groups: each group its own figure), else null
   */
  by: GroupKey | "identity" | null;
  /** one entry per group value, in value order (null last); empty when `by` is null */
  groups: GroupFigures[];
}

/** How many rows each inventory list holds at most (the counts per run are complete). */
export const INVENTORY_LISTED = 1000;

/** The parameters of the three lists' SELECTs (report/missing_tasks, unexpected_tasks, incomplete_tasks). */
export const INVENTORY_PARAMS = { limit: INVENTORY_LISTED };

export const CI_METHODS: Record<CiMethod, string> = {
  wilson: "Wilson score interval over single trials (Wilson 1927; Newcombe 1998, method 3)",
  bootstrap: "task-clustered percentile bootstrap: tasks resampled with replacement, nearest-rank 2.5th and 97.5th percentiles",
  clustered: "cluster-robust normal interval over tasks (Miller 2024): figure +- z x the task-clustered standard error, clipped to [0, 1]",
};

/** Reads every metric of queries/marts/ for the overall scope and each `--by` group. */
export async function readMetrics(session: Session, options: { by?: GroupKey | null; expectation?: Expectation | null }): Promise<Metrics> {
  const scopes = await session.select("report/trial_scopes");
  // figure_intervals holds the rates and pass@k with their intervals: one query, one bootstrap
  const figures = await session.select("report/figure_intervals");
  const efficiency = await session.select("report/efficiency");
  const durations = await session.select("report/duration_by_status");
  const perSuccess = await session.select("report/per_success");
  const calls = await session.select("report/call_outcomes");
  const settings = await session.selectOne("report/confidence_settings");

  const forScope = (id: number) => ({
    rates: figures.filter((f) => f.scope_id === id && f.figure === "rate").map(rateCell),
    pass_at_k: passRows(figures.filter((f) => f.scope_id === id && f.figure !== "rate")),
    efficiency: efficiencyOf(
      efficiency.find((e) => e.scope_id === id),
      durations.filter((d) => d.scope_id === id),
    ),
    per_success: perSuccess.filter((p) => p.scope_id === id).map(perSuccessOf),
    per_call: calls.filter((c) => c.scope_id === id).map((c) => ({ type: c.type, status: c.status, calls: c.calls, share: c.share }) as CallOutcome),
  });

  const overall = forScope(0);
  // without --by, group scopes are the runs' identity groups (run_groups), when there are any
  const grouped = scopes.filter((s) => s.scope_id !== 0);
  const by = options.by ?? (grouped.length ? "identity" : null);
  const groups = by ? grouped.map((s) => ({ value: s.group_value, ...forScope(s.scope_id) })) : [];
  return {
    ...overall,
    inventory: await readInventory(session, options.expectation ?? null),
    confidence: {
      level: settings.level,
      z: settings.z,
      resamples: settings.resamples,
      seed: settings.seed,
      clustered_from_tasks: settings.clustered_from_tasks,
      methods: CI_METHODS,
    },
    by,
    groups,
  };
}

/** A `ci95` column ([lo, hi], or NULL) as an Interval. */
export function intervalOf(v: number[] | null): Interval {
  return v !== null && typeof v[0] === "number" && typeof v[1] === "number" ? [v[0], v[1]] : null;
}

type FigureRow = RowOf<"report/figure_intervals">;

function rateCell(r: FigureRow): RateCell {
  return {
    basis: r.basis as RateCell["basis"],
    denominator: r.denominator as RateCell["denominator"],
    // a rate cell's successes are whole trials (figure_intervals' column is also pass@k's expected count)
    successes: r.successes ?? 0,
    count: r.count,
    rate: r.value,
    ci95: intervalOf(r.ci95),
    ci_method: r.ci_method as CiMethod,
  };
}

/** figure_intervals holds pass@k and pass^k as two rows per k: one row per k here. */
function passRows(rows: FigureRow[]): PassAtK[] {
  const ks = [...new Set(rows.map((r) => r.k ?? 0))].sort((a, b) => a - b);
  return ks.map((k) => {
    const at = rows.find((r) => r.k === k && r.figure === "pass_at_k");
    const hat = rows.find((r) => r.k === k && r.figure === "pass_hat_k");
    if (!at || !hat) throw new DenomError(`report/figure_intervals: pass@${k} without its pass^${k} row`);
    return {
      k,
      pass_at_k: at.value,
      pass_hat_k: hat.value,
      tasks: at.count,
      skipped: at.skipped ?? 0,
      pass_at_k_ci95: intervalOf(at.ci95),
      pass_hat_k_ci95: intervalOf(hat.ci95),
      ci_method: at.ci_method as CiMethod,
    };
  });
}

/** One row of per_success, its intervals as Intervals. */
function perSuccessOf(r: RowOf<"report/per_success">): PerSuccess {
  const { scope_id: _scope, step: _step, ...figures } = r;
  return {
    ...figures,
    cost_per_success_usd_ci95: intervalOf(r.cost_per_success_usd_ci95),
    llm_tokens_per_success_ci95: intervalOf(r.llm_tokens_per_success_ci95),
    agent_time_per_success_s_ci95: intervalOf(r.agent_time_per_success_s_ci95),
  };
}

/** One scope's efficiency row (absent when the scope has no trial: every figure n/a, every count 0). */
function efficiencyOf(e: RowOf<"report/efficiency"> | undefined, durations: RowOf<"report/duration_by_status">[]): Efficiency {
  return {
    duration_s: { mean: e?.duration_mean ?? null, p50: e?.duration_p50 ?? null, p95: e?.duration_p95 ?? null, max: e?.duration_max ?? null },
    duration_by_status: durations.map((d) => ({
      status: d.status,
      attempts: d.attempts,
      timed_attempts: d.timed_attempts,
      mean: d.duration_mean,
      p50: d.duration_p50,
      p95: d.duration_p95,
      max: d.duration_max,
    })),
    agent_time_s: e?.agent_time_s ?? null,
    wall_s: e?.wall_s ?? null,
    llm_tokens_mean: e?.llm_tokens_mean ?? null,
    tool_calls_mean: e?.tool_calls_mean ?? null,
    cost_usd_total: e?.cost_usd_total ?? null,
    cost_per_trial: e?.cost_per_trial ?? null,
    cost_per_success: e?.cost_per_success ?? null,
    attempts_per_trial: e?.attempts_per_trial ?? null,
    zero_retry_success_share: e?.zero_retry_success_share ?? null,
    trials: e?.trials ?? 0,
    attempts: e?.attempts ?? 0,
    final_successes: e?.final_successes ?? 0,
    timed_attempts: e?.timed_attempts ?? 0,
    llm_tokens_attempts: e?.llm_tokens_attempts ?? 0,
    tool_calls_attempts: e?.tool_calls_attempts ?? 0,
    cost_missing_attempts: e?.cost_missing_attempts ?? 0,
    trials_retried: e?.trials_retried ?? 0,
    trials_rescued: e?.trials_rescued ?? 0,
  };
}

async function readInventory(session: Session, expected: Expectation | null): Promise<Inventory> {
  const runs: Inventory["runs"] = await session.select("report/inventory_runs");
  // each list: its first INVENTORY_LISTED rows, and (listed_of) how many there are in all
  const list = async <N extends "report/missing_tasks" | "report/unexpected_tasks" | "report/incomplete_tasks">(name: N) => {
    const found = await session.select(name, INVENTORY_PARAMS);
    // listed_of is an int of each of the three rows (rows.ts); a generic N leaves its type unresolved
    const total = Number(found[0]?.listed_of ?? 0);
    const rows = found.map(({ listed_of: _, ...row }) => row);
    return { rows, left: total - rows.length };
  };
  const missing = await list("report/missing_tasks");
  const unexpected = await list("report/unexpected_tasks");
  const incomplete = await list("report/incomplete_tasks");
  return {
    expected,
    runs,
    missing_tasks: missing.rows,
    unexpected_tasks: unexpected.rows,
    incomplete_tasks: incomplete.rows,
    not_listed: missing.left + unexpected.left + incomplete.left,
    totals: await session.selectOne("report/inventory_totals"),
  };
}
