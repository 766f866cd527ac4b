/**
 * `denom compare A B` and `denom compare INPUT... --by FIELD --baseline VALUE`:
 * the paired comparison of docs/compare.md. Baseline A and candidate B are
 * paired by task id; for every basis x denominator cell it returns the tasks
 * both sides keep, each side's successes/count, the difference B - A of the
 * per-task success shares with its task-clustered standard error, 95% interval,
 * test (exact McNemar or z), power (mde80, tasks_needed), whether the ranking
 * flips between cells, where the difference comes from, the discordant tasks,
 * and each side's own grid as `denom report` prints it.
 *
 * Every figure comes from the marts of queries/marts/compare/; nothing is
 * computed here. With two inputs each is read in its own session (so two inputs
 * without run ids never collapse into one run); the candidate's trials travel
 * to the baseline's session as a Parquet file in a temporary folder, added to
 * compare_side_trials / compare_side_membership there, and compare_pairings
 * pairs the two sides.
 */
import { basename, join } from "node:path";
import type { Cell, Row, RowOf, Session } from "../db/session.js";
import type { GroupKey } from "../definitions.js";
import { UsageError } from "../errors.js";
import { makeScratch, removeScratch } from "../scratch.js";
import { intervalOf, readMetrics, type Interval, type RateCell } from "./report-metrics.js";

export type Basis = RateCell["basis"];
export type Denominator = RateCell["denominator"];

/** A cell name `basis/denominator`, e.g. `final/total`. */
export interface CellName {
  basis: Basis;
  denominator: Denominator;
}

export interface CompareOptions {
  /** two inputs: baseline A then candidate B, each a file, folder or archive (their names in the output) */
  baseline?: string;
  candidate?: string;
  /** one set of inputs split by `--by`: the groups compared */
  inputs?: string[];
  by?: GroupKey | null;
  /** `--baseline VALUE`: the group of `by` every other group is compared with */
  baselineValue?: string | null;
  /** `--fail-if-worse CELL` as given: judge this cell (exit 4 when its ci95 upper end is below 0, or when it compares too little); parsed against the session's denominators */
  failIfWorse?: string | null;
  /** `--min-tasks N`: the gate fails closed when the cell pairs fewer tasks (DEFAULT_COMPARE_MIN_TASKS) */
  minTasks?: number;
  /** `--strict`: the gate fails (exit 1) when a side's inputs had a rejected line or a broken source */
  strict?: boolean;
  /** `--fail-if-inconclusive`: the gate fails too when its cell's ci95 spans 0 */
  failIfInconclusive?: boolean;
  /** `--label A=...,B=...`: the sides' names (two inputs); by default the identity that differs (model, agent) */
  labels?: { baseline?: string; candidate?: string };
}

/** The least paired tasks a gated cell needs by default: 2, below which there is no standard error, so nothing is compared. */
export const DEFAULT_COMPARE_MIN_TASKS = 2;

/** A cell's verdict (view compare_cells): better (ci95 above 0), worse (below 0), inconclusive (spans 0), nothing compared (T < 2). */
export type Verdict = "better" | "worse" | "inconclusive" | "nothing compared";

/** One side as the output names it. */
export interface CompareSide {
  /** "A" (baseline) or "B" (candidate) in the text */
  letter: "A" | "B";
  role: "baseline" | "candidate";
  /**
   * what the side is called: `--label`, else the identity that differs between
   * the sides (`model m`, `agent a`, both), else the input's file name (never
   * its path), else "A" / "B"; `agent=x` for a group of --by
   */
  label: string;
  inputs: string[];
  /** with --by: the group value (null = records without the field) */
  group: string | null;
  agents: string[];
  models: string[];
  tasks: number;
  trials: number;
  /** the side's own grid, every trial of the side, as `denom report` prints it */
  rates: RateCell[];
}

/** A side's count in one cell, summed over the kept trials of the entering tasks; rate = mean over tasks of the per-task share. */
/**
 * One side of a cell: `successes`/`count` over the kept trials of the entering
 * tasks, `trial_rate` that fraction, and `rate` the mean over tasks of the
 * per-task shares (what the difference compares); the two differ when tasks
 * keep different numbers of trials. Fractions, not percents; null without trials.
 */
export interface SideFigure {
  successes: number;
  count: number;
  rate: number | null;
  trial_rate: number | null;
}

/** One basis x denominator cell of a comparison (docs/compare.md). Differences are fractions (0.25 = 25 points). */
export interface CompareCell extends CellName {
  /** common tasks both sides keep at least one trial of in this cell */
  tasks: number;
  baseline: SideFigure;
  candidate: SideFigure;
  /** mean over tasks of p_B - p_A; null when no task enters */
  difference: number | null;
  /** sd(d) / sqrt(T), sd with T - 1; null when T < 2 */
  se: number | null;
  ci95: Interval;
  /** mcnemar_exact when every entering task has one kept trial per side, else z (approximate); null without tasks */
  test: "mcnemar_exact" | "z" | null;
  p_value: number | null;
  /** tasks where A's share is higher (b) and where B's is (c); McNemar's discordant pairs with one trial each */
  discordant: { baseline_only: number; candidate_only: number };
  /** (1.959964 + 0.841621) x se: the smallest difference this many tasks detect with 80% power at alpha 0.05 */
  mde80: number | null;
  /** ceil((1.959964 + 0.841621)^2 var(d) / difference^2); null when the difference is 0 or T < 2 */
  tasks_needed: number | null;
  verdict: Verdict;
  /** p_value adjusted by Holm's step-down over the comparisons of this run (--by with several candidates); = p_value for one comparison */
  p_holm: number | null;
}

/** Two cells where the candidate leads on one and trails on the other, and what each side lost between them. */
export interface Flip {
  lead: CellName & { difference: number };
  trail: CellName & { difference: number };
  /** same basis: the trials each side's chain removed between the two denominators, by reason (over the common tasks) */
  removed: { baseline: Removed[]; candidate: Removed[] };
  /** different bases: the trials each side's retries rescued (first attempt failed, final succeeded) */
  rescued: { baseline: number; candidate: number } | null;
}

export interface Removed {
  denominator: Denominator;
  fault: string;
  status: string;
  status_detail: string | null;
  timeout_cause: string | null;
  reason: string;
  trials: number;
}

/** Where a difference comes from, one side, final basis, over the trials of the common tasks. */
export interface Attribution {
  trials: number;
  successes: number;
  environment_failures: number;
  timeouts: number;
  timeouts_by_cause: { queue: number; external: number; loop: number; sluggish: number; unknown: number };
  grader_errors: number;
  invalid: number;
  unrecognized: number;
  trials_rescued: number;
  /** tasks with two or more trials, and those whose trials disagree (some pass, some do not); share a fraction, null without such tasks */
  flaky: { tasks_with_several_trials: number; tasks_disagreeing: number; share: number | null };
  /** every removal of the chain on the final basis, by reason */
  removed: Removed[];
}

export interface DiscordantTask {
  task_id: string;
  baseline: { successes: number; count: number; share: number; outcomes: string };
  candidate: { successes: number; count: number; share: number; outcomes: string };
  difference: number;
}

/**
 * Cost per solved task in one denominator, final basis, over the common tasks the cell
 * `final/denominator` pairs (view compare_cost_cells, docs/compare.md): each side's spend of
 * every attempt of its kept trials over their final successes (USD), and the difference
 * B - A with its task-clustered 95% interval (delta method for a difference of two ratios;
 * null below 2 tasks, without a success on a side or without a recorded cost). A side whose
 * attempts lack a cost has a lower bound (`cost_lower_bound`; its attempts counted).
 */
export interface CostComparison {
  denominator: Denominator;
  tasks: number;
  baseline: CostSide;
  candidate: CostSide;
  /** USD, B - A; null when a side's figure is n/a */
  difference_usd: number | null;
  difference_usd_ci95: Interval;
}

/** One side's cost per solved task over the paired tasks of a denominator (USD). */
export interface CostSide {
  successes: number;
  cost_usd: number | null;
  cost_missing_attempts: number;
  cost_per_success_usd: number | null;
  cost_lower_bound: boolean;
}

export interface Comparison {
  baseline: CompareSide;
  candidate: CompareSide;
  coverage: {
    common_tasks: number;
    only_baseline: number;
    only_candidate: number;
    baseline_trials: number;
    candidate_trials: number;
    /** trials of the common tasks */
    baseline_trials_paired: number;
    candidate_trials_paired: number;
    /** the unpaired tasks by name (all of them) */
    only_baseline_tasks: string[];
    only_candidate_tasks: string[];
  };
  cells: CompareCell[];
  /** per denominator of the chain: each side's cost per solved task and the difference (final basis) */
  cost_per_success: CostComparison[];
  ranking_flips: boolean;
  /** every flipped pair, the most telling first (same basis, final basis, stricter cells first) */
  flips: Flip[];
  attribution: { baseline: Attribution; candidate: Attribution };
  /** the common tasks whose final/total shares differ, largest |difference| first */
  discordant_tasks: DiscordantTask[];
  /** `--fail-if-worse CELL`: the gate's judgement of that cell; null without the flag */
  fail_if_worse: FailIfWorse | null;
  /** the verdict a reader quotes: on the gated cell (--fail-if-worse), else on the strict one, final/total */
  headline: Headline;
}

/** The comparison's verdict in one cell (the renderers word it; the figures are the cell's). */
export interface Headline {
  /** basis/denominator */
  cell: string;
  verdict: Verdict;
  tasks: number;
  /** fraction, B - A */
  difference: number | null;
  ci95: Interval;
  /** fraction */
  mde80: number | null;
  tasks_needed: number | null;
}

/**
 * `--fail-if-worse CELL` on one comparison. The gate fails closed: it fails when
 * B is worse (the ci95 upper end below 0), and also when a side has no trial,
 * the cell pairs fewer than `min_tasks` tasks or nothing is compared, or
 * `--strict` met a rejected line (exit 1 then, else 4).
 */
export interface FailIfWorse {
  cell: string;
  /** the cell's ci95 upper end is below 0 */
  worse: boolean;
  ci95: Interval;
  verdict: Verdict;
  /** the paired tasks entering the cell */
  tasks: number;
  min_tasks: number;
  /** the side with no trial at all (baseline first), null when both have trials */
  empty_side: "baseline" | "candidate" | null;
  /** `--strict` and a side's inputs had a rejected line, a broken source or differing duplicates across sources */
  strict_failed: boolean;
  /** `--fail-if-inconclusive`: an inconclusive verdict fails the gate too */
  inconclusive_fails: boolean;
  /** the gate fails: any of the above */
  failed: boolean;
}

/** One group of `--by` in the tie groups: its rate in the cell, the ranks the tests allow it, its tie group. */
export interface TieGroupMember {
  value: string | null;
  successes: number;
  count: number;
  /** successes / count, a fraction; null over 0 trials */
  rate: number | null;
  /** 1 + the groups ahead of it (higher rate) it is separable from */
  rank_best: number;
  /** the number of groups - the groups behind it it is separable from */
  rank_worst: number;
  /** 1, 2, ... in the order of rates */
  tie_group: number;
  /** the group that leads its tie group (the first of it) */
  leader: string | null;
}

/**
 * The tie groups of a `--by` comparison with two candidates or more, in one cell
 * (the gated one, else final/total): every pair of groups compared as compare
 * compares two, the p-values Holm-adjusted over all the pairs; two groups are
 * separable when that p is below 0.05 (compare_tie_groups.sql, docs/compare.md).
 */
export interface TieGroups extends CellName {
  /** pairs of groups compared: n (n - 1) / 2 for n groups */
  pairs: number;
  groups: TieGroupMember[];
}

export interface CompareData {
  /** `inputs` (two inputs, A and B) or `by` (groups of one input) */
  mode: "inputs" | "by";
  by: GroupKey | null;
  comparisons: Comparison[];
  /** with `--by` and two candidates or more; null otherwise */
  tie_groups: TieGroups | null;
  /** per session: lines read and rejected (two sessions with two inputs) */
  accounting: { inputs: string[]; lines: number; records: number; blank: number; rejected: number; duplicates: number; broken_sources: number }[];
  rejected: number;
  broken_sources: number;
  method: { z: number; z_power: number; tests: Record<"mcnemar_exact" | "z", string> };
}

export const TEST_METHODS: CompareData["method"]["tests"] = {
  mcnemar_exact: "exact McNemar: two-sided binomial test on the discordant tasks, p = min(1, 2 sum_{i<=min(b,c)} C(b+c,i) / 2^(b+c))",
  z: "z test on the paired per-task differences, p = 2 (1 - Phi(|difference| / se)), approximate (normal tail from erfc, Numerical Recipes erfcc, relative error < 1.2e-7)",
};

/** Parses `final/total` into a cell, `denominators` the chain in order (select meta/denominators); throws UsageError naming `flag`. */
export function parseCellName(text: string, flag: string, denominators: readonly string[]): CellName {
  const [basis, denominator, ...rest] = text.trim().split("/");
  const bases = ["first", "final"];
  if (rest.length || !bases.includes(basis) || !denominators.includes(denominator))
    throw new UsageError(
      `${flag} ${text}: a cell is basis/denominator, basis one of ${bases.join(", ")}, denominator one of ${denominators.join(", ")} (e.g. final/total)`,
    );
  return { basis: basis as Basis, denominator: denominator as Denominator };
}

/**
 * The sessions a comparison reads: two inputs, each in its own session (A =
 * `baseline`, B = `candidate`), or one session whose `--by` groups are the sides
 * (`candidate` null).
 */
export interface CompareSessions {
  baseline: Session;
  candidate: Session | null;
}

/** The relations that hold a side's trials: B's travel to A's session. */
const SIDE_RELATIONS = ["compare_side_trials", "compare_side_membership", "compare_side_spend"] as const;

/**
 * Runs the comparison. Two sessions: A against B. One session: the group
 * `baselineValue` of `by` against every other group. Throws UsageError when
 * the baseline value names no group or there is no second group.
 */
export async function runCompare(sessions: CompareSessions, options: CompareOptions): Promise<CompareData> {
  const data = await compareSessions(sessions, options);
  const strictFailed = Boolean(options.strict) && data.accounting.some((a) => a.rejected > 0 || a.broken_sources > 0);
  for (const c of data.comparisons) {
    const f = c.fail_if_worse;
    if (!f) continue;
    f.min_tasks = options.minTasks ?? DEFAULT_COMPARE_MIN_TASKS;
    f.strict_failed = strictFailed;
    f.inconclusive_fails = Boolean(options.failIfInconclusive);
    const inconclusive = f.inconclusive_fails && f.verdict === "inconclusive";
    f.failed = f.worse || inconclusive || f.verdict === "nothing compared" || f.tasks < f.min_tasks || f.empty_side !== null || strictFailed;
  }
  return data;
}

async function compareSessions(sessions: CompareSessions, options: CompareOptions): Promise<CompareData> {
  const denominators = (await sessions.baseline.select("meta/denominators")).map((d) => d.denominator);
  const failIfWorse = options.failIfWorse ? parseCellName(options.failIfWorse, "--fail-if-worse", denominators) : null;
  if (!sessions.candidate) return compareGroups(sessions.baseline, options, failIfWorse);
  const a = sessions.baseline;
  const b = sessions.candidate;
  const baselineInputs = options.baseline ? [options.baseline] : [];
  const candidateInputs = options.candidate ? [options.candidate] : [];
  const candidateRates = (await readMetrics(b, {})).rates;
  const baselineRates = (await readMetrics(a, {})).rates;
  const accounting = [await accountingOf(a, baselineInputs), await accountingOf(b, candidateInputs)];
  await bringCandidate(b, a);
  const sides = new Map<number, SideInfo>([
    [0, { label: options.labels?.baseline ?? null, inputs: baselineInputs, group: null, rates: baselineRates }],
    [1, { label: options.labels?.candidate ?? null, inputs: candidateInputs, group: null, rates: candidateRates }],
  ]);
  return finish("inputs", null, await readComparisons(a, sides, failIfWorse), accounting, a);
}

async function compareGroups(session: Session, options: CompareOptions, failIfWorse: CellName | null): Promise<CompareData> {
  const by = options.by;
  if (!by) throw new UsageError("compare needs two inputs, baseline A and candidate B, or one with --by FIELD --baseline VALUE");
  const inputs = options.inputs ?? [];
  const metrics = await readMetrics(session, { by });
  const scopes = await session.select("compare/group_scopes");
  const values = scopes.map((s) => s.group_value);
  if (options.baselineValue === undefined || options.baselineValue === null)
    throw new UsageError(`--by ${by} needs --baseline VALUE, the group every other is compared with; values: ${listValues(values)}`);
  if (!values.includes(options.baselineValue))
    throw new UsageError(`--baseline ${options.baselineValue}: no ${by} has this value; values: ${listValues(values)}`);
  if (values.length < 2) throw new UsageError(`--by ${by}: only one group (${listValues(values)}); compare needs a second one, or two inputs A B`);
  // read by compare_pairings, created (and materialized) after this
  await session.db.run("SET VARIABLE compare_baseline = $value::VARCHAR", { value: options.baselineValue });
  const label = (v: string | null) => (v === null ? `${by} not given` : `${by}=${v}`);
  const sides = new Map<number, SideInfo>(
    scopes.map((s, i) => [s.scope_id, { label: label(s.group_value), inputs, group: s.group_value, rates: metrics.groups[i].rates }]),
  );
  const comparisons = await readComparisons(session, sides, failIfWorse);
  const data = await finish("by", by, comparisons, [await accountingOf(session, inputs)], session);
  if (values.length >= 3) data.tie_groups = await readTieGroups(session, failIfWorse ?? { basis: "final", denominator: "total" });
  return data;
}

/** The tie groups in `cell` (three groups or more). */
async function readTieGroups(session: Session, cell: CellName): Promise<TieGroups> {
  const rows = await session.select("compare/tie_groups", { basis: cell.basis, denominator: cell.denominator });
  return {
    ...cell,
    pairs: (rows.length * (rows.length - 1)) / 2,
    groups: rows.map((r) => ({
      value: r.group_value,
      successes: r.successes,
      count: r.count,
      rate: r.rate,
      rank_best: r.rank_best,
      rank_worst: r.rank_worst,
      tie_group: r.tie_group,
      leader: r.tie_group_leader,
    })),
  };
}

function listValues(values: (string | null)[]): string {
  return values.map((v) => (v === null ? "(none)" : v)).join(", ") || "none";
}

/**
 * Adds the candidate session's side rows (side 0 there) to the baseline's
 * session as side 1, through a Parquet file in a fresh temporary folder
 * (removed at once), and pairs side 0 with side 1. The side relations and
 * compare_pairings are views (`Not materialized`): in A's session each is put
 * aside for a TEMP table of the same name, before anything that reads them is
 * created (the session creates a relation once, and later views bind by name).
 */
async function bringCandidate(from: Session, to: Session): Promise<void> {
  await from.need(SIDE_RELATIONS);
  await to.need([...SIDE_RELATIONS, "compare_pairings"]);
  const dir = makeScratch("compare-");
  try {
    for (const relation of SIDE_RELATIONS) {
      const path = join(dir, `${relation}.parquet`);
      // relation names are constants of this file; the path travels as a bound parameter
      await from.db.run(`COPY (SELECT * FROM ${relation} WHERE side_id = 0) TO $path (FORMAT parquet)`, { path });
      await to.db.run(
        `CREATE TEMP TABLE ${relation}_both AS
         SELECT * FROM ${relation} WHERE side_id = 0
         UNION ALL BY NAME
         SELECT * REPLACE (1::BIGINT AS side_id) FROM read_parquet($path)`,
        { path },
      );
      await replaceView(to, relation, `${relation}_both`);
    }
  } finally {
    removeScratch(dir);
  }
  await to.db.run(
    "CREATE TEMP TABLE compare_pairings_both AS SELECT 1::BIGINT AS pairing_id, 0::BIGINT AS baseline_side, 1::BIGINT AS candidate_side, true AS versus_baseline",
  );
  await replaceView(to, "compare_pairings", "compare_pairings_both");
}

/** Drops the session's TEMP view `name` and renames the TEMP table `table` to it. */
async function replaceView(session: Session, name: string, table: string): Promise<void> {
  await session.db.run(`DROP VIEW temp.main.${name}`);
  await session.db.run(`ALTER TABLE temp.main.${table} RENAME TO ${name}`);
}

async function accountingOf(session: Session, inputs: string[]): Promise<CompareData["accounting"][number]> {
  const a = await session.selectOne("meta/accounting");
  return {
    inputs,
    lines: a.lines,
    records: a.records,
    blank: a.blank,
    rejected: a.rejected,
    duplicates: a.duplicates,
    broken_sources: a.broken_sources,
  };
}

async function finish(
  mode: CompareData["mode"],
  by: GroupKey | null,
  comparisons: Comparison[],
  accounting: CompareData["accounting"],
  session: Session,
): Promise<CompareData> {
  const z = await session.selectOne("compare/settings");
  return {
    mode,
    by,
    comparisons,
    tie_groups: null,
    accounting,
    rejected: accounting.reduce((s, a) => s + a.rejected, 0),
    broken_sources: accounting.reduce((s, a) => s + a.broken_sources, 0),
    method: { z: z.z, z_power: z.z_power, tests: TEST_METHODS },
  };
}

/** A side before its identities are read: `label` null = named by sideLabels. */
type SideInfo = { label: string | null; inputs: string[]; group: string | null; rates: RateCell[] };

/** The rows of the compare views, all pairings at once (each function below picks its pairing's). */
interface CompareRows {
  names: Map<number, RowOf<"compare/side_names">>;
  coverage: RowOf<"compare/coverage">[];
  /** per pairing_id, the task names only one side has, each side's in order */
  unpaired: Map<number, Unpaired>;
  cells: RowOf<"compare/cells">[];
  flips: RowOf<"compare/flips">[];
  removals: RowOf<"compare/removals">[];
  attribution: RowOf<"compare/attribution">[];
  discordant: RowOf<"compare/discordant_tasks">[];
  costs: RowOf<"compare/cost_cells">[];
}

/** Reads every pairing of the session's compare_pairings. */
async function readComparisons(session: Session, sides: Map<number, SideInfo>, failIfWorse: CellName | null): Promise<Comparison[]> {
  const pairings = await session.select("compare/pairings");
  const rows: CompareRows = {
    names: new Map((await session.select("compare/side_names")).map((r) => [r.side_id, r])),
    coverage: await session.select("compare/coverage"),
    unpaired: await unpairedTasks(session),
    cells: await session.select("compare/cells"),
    flips: await session.select("compare/flips"),
    removals: await session.select("compare/removals"),
    attribution: await session.select("compare/attribution"),
    discordant: await session.select("compare/discordant_tasks"),
    costs: await session.select("compare/cost_cells"),
  };
  return pairings.map((p) => comparisonOf(p, rows, sides, failIfWorse));
}

/** One pairing's comparison, from its rows of the compare views. */
function comparisonOf(p: RowOf<"compare/pairings">, all: CompareRows, sides: Map<number, SideInfo>, failIfWorse: CellName | null): Comparison {
  const mine = <T extends Row>(rows: T[]) => rows.filter((r) => r.pairing_id === p.pairing_id);
  const removals = mine(all.removals);
  const attribution = mine(all.attribution);
  const removed = (side: string, basis?: string) => removals.filter((r) => r.side === side && (basis === undefined || r.basis === basis));
  const compareCells = mine(all.cells).map(cellOf);
  const fail = failIfWorse ? compareCells.find((c) => c.basis === failIfWorse.basis && c.denominator === failIfWorse.denominator)! : null;
  const baseline = sideOf(p.baseline_side, "baseline", sides, all.names);
  const candidate = sideOf(p.candidate_side, "candidate", sides, all.names);
  sideLabels(baseline, candidate);
  const flips = mine(all.flips);
  return {
    baseline,
    candidate,
    coverage: coverageOf(all.coverage.find((c) => c.pairing_id === p.pairing_id)!, all.unpaired.get(p.pairing_id)),
    cells: compareCells,
    cost_per_success: mine(all.costs).map(costOf),
    ranking_flips: flips.length > 0,
    flips: flips.map((f) => flipOf(f, removed, attribution)),
    attribution: {
      baseline: attributionOf(
        attribution.find((a) => a.side === "baseline"),
        removed("baseline", "final"),
      ),
      candidate: attributionOf(
        attribution.find((a) => a.side === "candidate"),
        removed("candidate", "final"),
      ),
    },
    discordant_tasks: mine(all.discordant).map((d) => ({
      task_id: d.task_id,
      baseline: { successes: d.baseline_successes, count: d.baseline_count, share: d.baseline_share, outcomes: d.baseline_outcomes },
      candidate: { successes: d.candidate_successes, count: d.candidate_count, share: d.candidate_share, outcomes: d.candidate_outcomes },
      difference: d.difference,
    })),
    // min_tasks, strict_failed and failed are set by runCompare, which knows the flags and both sides' accounting
    fail_if_worse: fail ? failIfWorseOf(fail, baseline, candidate) : null,
    headline: headlineOf(fail ?? compareCells.find((c) => c.basis === "final" && c.denominator === "total")!),
  };
}

/** A row of compare_cost_cells as a CostComparison. */
function costOf(r: RowOf<"compare/cost_cells">): CostComparison {
  const side = (s: "baseline" | "candidate"): CostSide => ({
    successes: r[`${s}_successes`],
    cost_usd: r[`${s}_cost_usd`],
    cost_missing_attempts: r[`${s}_cost_missing_attempts`],
    cost_per_success_usd: r[`${s}_cost_per_success_usd`],
    cost_lower_bound: r[`${s}_cost_lower_bound`],
  });
  return {
    denominator: r.denominator as Denominator,
    tasks: r.tasks,
    baseline: side("baseline"),
    candidate: side("candidate"),
    difference_usd: r.difference_usd,
    difference_usd_ci95: intervalOf(r.difference_usd_ci95),
  };
}

function headlineOf(c: CompareCell): Headline {
  return {
    cell: `${c.basis}/${c.denominator}`,
    verdict: c.verdict,
    tasks: c.tasks,
    difference: c.difference,
    ci95: c.ci95,
    mde80: c.mde80,
    tasks_needed: c.tasks_needed,
  };
}

/**
 * Names the sides that have no --label: by the identity that differs between
 * them (`agent a`, `model m`, or both), else by their inputs' file names when
 * those differ (never a path: two folders of one layout end in the same
 * names), else "A" and "B".
 */
function sideLabels(a: CompareSide, b: CompareSide): void {
  if (a.label && b.label) return;
  const names = (xs: string[]) => (xs.length ? xs.join(", ") : "none named");
  const parts = (s: CompareSide, o: CompareSide) => [
    ...(names(s.agents) !== names(o.agents) ? [`${s.agents.length > 1 ? "agents" : "agent"} ${names(s.agents)}`] : []),
    ...(names(s.models) !== names(o.models) ? [`${s.models.length > 1 ? "models" : "model"} ${names(s.models)}`] : []),
  ];
  const file = (s: CompareSide) => s.inputs.map((i) => basename(i.replace(/[\\/]+$/, ""))).join(", ");
  const byIdentity = [parts(a, b).join(" · "), parts(b, a).join(" · ")];
  const byFile = [file(a), file(b)];
  const [la, lb] = byIdentity[0] || byIdentity[1] ? byIdentity : byFile[0] !== byFile[1] && byFile[0] && byFile[1] ? byFile : ["A", "B"];
  a.label ||= la || "A";
  b.label ||= lb || "B";
}

/** One side of a pairing: its label and inputs, the identities it holds, its own rate grid. */
function sideOf(sideId: number, role: "baseline" | "candidate", sides: Map<number, SideInfo>, names: CompareRows["names"]): CompareSide {
  const info = sides.get(sideId)!;
  const n = names.get(sideId);
  return {
    letter: role === "baseline" ? "A" : "B",
    role,
    label: info.label ?? "",
    inputs: info.inputs,
    group: info.group,
    agents: n?.agents ?? [],
    models: n?.models ?? [],
    tasks: n?.tasks ?? 0,
    trials: n?.trials ?? 0,
    rates: info.rates,
  };
}

/** The task names only one side of a pairing has, by side. */
type Unpaired = { baseline: string[]; candidate: string[] };

/**
 * Every pairing's unpaired task names, read a chunk at a time into one list of
 * names per side: a lake against another can leave millions (3.57 M took the
 * process to 1.9 GiB as row objects held at once, 1.25 GiB so; docs/benchmarks.md).
 */
async function unpairedTasks(session: Session): Promise<Map<number, Unpaired>> {
  const byPairing = new Map<number, Unpaired>();
  await session.selectEach("compare/unpaired_tasks", undefined, (rows) => {
    for (const r of rows) {
      let lists = byPairing.get(r.pairing_id);
      if (!lists) byPairing.set(r.pairing_id, (lists = { baseline: [], candidate: [] }));
      if (r.side === "baseline") lists.baseline.push(r.task_id);
      else if (r.side === "candidate") lists.candidate.push(r.task_id);
    }
  });
  return byPairing;
}

/** The tasks and trials a pairing covers on each side, and the tasks only one side ran. */
function coverageOf(cov: RowOf<"compare/coverage">, unpaired: Unpaired | undefined): Comparison["coverage"] {
  return {
    common_tasks: cov.common_tasks,
    only_baseline: cov.only_baseline,
    only_candidate: cov.only_candidate,
    baseline_trials: cov.baseline_trials,
    candidate_trials: cov.candidate_trials,
    baseline_trials_paired: cov.baseline_trials_paired,
    candidate_trials_paired: cov.candidate_trials_paired,
    only_baseline_tasks: unpaired?.baseline ?? [],
    only_candidate_tasks: unpaired?.candidate ?? [],
  };
}

/** A ranking flip between two cells, with the trials each side lost between them (same basis) or rescued by retries (first vs final). */
function flipOf(
  f: RowOf<"compare/flips">,
  removed: (side: string, basis?: string) => RowOf<"compare/removals">[],
  attribution: RowOf<"compare/attribution">[],
): Comparison["flips"][number] {
  const between = (side: string) =>
    removed(side, f.lead_basis)
      .filter((r) => r.step > Math.min(f.lead_step, f.trail_step) && r.step <= Math.max(f.lead_step, f.trail_step))
      .map(removedOf);
  const att = (side: string) => attribution.find((a) => a.side === side);
  return {
    lead: { basis: f.lead_basis as Basis, denominator: f.lead_denominator as Denominator, difference: f.lead_difference },
    trail: { basis: f.trail_basis as Basis, denominator: f.trail_denominator as Denominator, difference: f.trail_difference },
    removed: f.same_basis ? { baseline: between("baseline"), candidate: between("candidate") } : { baseline: [], candidate: [] },
    rescued: f.same_basis ? null : { baseline: num(att("baseline")?.trials_rescued), candidate: num(att("candidate")?.trials_rescued) },
  };
}

/** The --fail-if-worse gate on its cell, before runCompare sets what needs the flags and the accounting. */
function failIfWorseOf(fail: CompareCell, baseline: CompareSide, candidate: CompareSide): NonNullable<Comparison["fail_if_worse"]> {
  return {
    cell: `${fail.basis}/${fail.denominator}`,
    worse: fail.verdict === "worse",
    ci95: fail.ci95,
    verdict: fail.verdict,
    tasks: fail.tasks,
    min_tasks: DEFAULT_COMPARE_MIN_TASKS,
    empty_side: baseline.trials === 0 ? "baseline" : candidate.trials === 0 ? "candidate" : null,
    strict_failed: false,
    inconclusive_fails: false,
    failed: false,
  };
}

function num(v: Cell | undefined): number {
  return typeof v === "number" ? v : 0;
}

function cellOf(r: RowOf<"compare/cells">): CompareCell {
  return {
    basis: r.basis as Basis,
    denominator: r.denominator as Denominator,
    tasks: r.tasks,
    baseline: { successes: r.baseline_successes, count: r.baseline_count, rate: r.baseline_rate, trial_rate: r.baseline_trial_rate },
    candidate: { successes: r.candidate_successes, count: r.candidate_count, rate: r.candidate_rate, trial_rate: r.candidate_trial_rate },
    difference: r.difference,
    se: r.se,
    ci95: intervalOf(r.ci95),
    test: r.test as CompareCell["test"],
    p_value: r.p_value,
    discordant: { baseline_only: r.baseline_only, candidate_only: r.candidate_only },
    mde80: r.mde80,
    tasks_needed: r.tasks_needed,
    verdict: r.verdict as Verdict,
    p_holm: r.p_holm,
  };
}

function removedOf(r: RowOf<"compare/removals">): Removed {
  return {
    denominator: r.denominator as Denominator,
    fault: r.fault,
    status: r.status,
    status_detail: r.status_detail,
    timeout_cause: r.timeout_cause,
    reason: r.reason,
    trials: r.trials,
  };
}

function attributionOf(a: RowOf<"compare/attribution"> | undefined, removed: RowOf<"compare/removals">[]): Attribution {
  const n = (k: keyof RowOf<"compare/attribution">) => num(a?.[k]);
  return {
    trials: n("trials"),
    successes: n("successes"),
    environment_failures: n("environment_failures"),
    timeouts: n("timeouts"),
    timeouts_by_cause: {
      queue: n("timeouts_queue"),
      external: n("timeouts_external"),
      loop: n("timeouts_loop"),
      sluggish: n("timeouts_sluggish"),
      unknown: n("timeouts_unknown"),
    },
    grader_errors: n("grader_errors"),
    invalid: n("invalid"),
    unrecognized: n("unrecognized"),
    trials_rescued: n("trials_rescued"),
    flaky: {
      tasks_with_several_trials: n("tasks_with_several_trials"),
      tasks_disagreeing: n("tasks_disagreeing"),
      share: a?.flaky_share ?? null,
    },
    removed: removed.map(removedOf),
  };
}
