/**
 * `denom audit INPUT... --claim X`: which definitions reproduce a published
 * figure (docs/metrics.md "Claim audit"). The family of definitions
 * and every definition's figure come from the views of queries/80_audit_family.sql
 * and queries/81_audit_figures.sql; this module picks the ones whose rate lies in
 * the claim's tolerance (exactly, see src/formats/claims.ts), orders them simplest first
 * and says in words what each one counts and leaves out.
 */
import type { RowOf, Session } from "../db/session.js";
import {
  compareDistance,
  matchesClaim,
  matchesStandardError,
  meanOfRatios,
  offsetFromClaim,
  passAtKFraction,
  ratioOf,
  toNumber,
  type Claim,
  type Fraction,
} from "../formats/claims.js";
import type { RunsOptions } from "../ingest/runs.js";
import { DataError } from "../errors.js";
import type { RerunInfo } from "./report.js";

/** Options of `denom audit`: the shared run options and the claims to audit (at least one). */
export interface AuditOptions extends RunsOptions {
  claims: Claim[];
}

/** A class of trials a definition may leave out of its denominator. */
export type ExcludedClass = "invalid" | "environment" | "timeout" | "unrecognized";

/**
 * One exclusion: the class, judged on the basis attempt (`basis`) or on any
 * attempt of the trial (`any`). With late passes counted, `timeout` means a
 * timeout that did not pass verification.
 */
export interface Exclusion {
  class: ExcludedClass;
  scope: "basis" | "any";
}

/** One run's figure; a run is a (run_id, trial) pair. `rate` is a fraction, null over 0 trials. */
export interface RunFigure {
  run: string;
  run_id: string | null;
  trial: number;
  successes: number;
  count: number;
  rate: number | null;
}

/**
 * The group of trials a figure is computed over: null for all the trials
 * loaded; else one identity group of several (`group`: the agent, model,
 * benchmark or run naming no model that varies, view run_groups, e.g. `agent a
 * · model m`), or one run of several (`run_id`; view audit_scoped_trials).
 */
export interface AuditGroup {
  by: "run_id" | "group";
  value: string | null;
}

/**
 * One definition of the family with its figure on the loaded runs.
 * `successes`/`count` are over the trials it keeps (for a mean of runs, the sums over runs);
 * `rate` is successes/count when pooled, the mean of the per-run rates (runs with no trial
 * left drop out) for `mean_of_runs`; a fraction, null when there is no trial.
 */
export interface DefinitionFigure {
  /** the trials the figure is over: null = all of them, else one group of several */
  group: AuditGroup | null;
  basis: "first" | "final";
  numerator: "successes" | "successes+late_passes";
  exclude: Exclusion[];
  /**
   * pooled over trials, the mean of per-run rates, or pass@k / pass^k:
   * the mean over tasks with at least k trials (`k`) of the chance that at least
   * one (pass@k) or all (pass^k) of k trials drawn from the task's succeed, on
   * final successes; `successes`/`count` are then the final successes and trials
   * of those tasks
   */
  aggregation: "pooled" | "mean_of_runs" | "pass@k" | "pass^k";
  /** k of pass@k and pass^k; absent otherwise */
  k?: number;
  successes: number;
  count: number;
  rate: number | null;
  description: string;
  /** per-run figures for `mean_of_runs`, null when pooled */
  runs: RunFigure[] | null;
  /**
   * What the definition hides next to the strict figure: trials left out of the
   * denominator, how many of those never succeeded (their final attempt was no
   * success) and how many of these had retries, and late passes (timeouts that
   * passed verification) counted as successes.
   */
  hides: { trials: number; never_succeeded: number; never_succeeded_retried: number; late_passes_counted: number };
  /** other definitions of the family that keep exactly the same trials and successes here */
  equivalent_definitions: number;
  /** 1 = simplest definition of the family */
  simplicity: number;
  /**
   * the figure's standard errors, for a claim written `M ± S` (absent otherwise), as
   * fractions: over runs (a mean of runs: SE_DEFINITIONS.over_runs) and clustered by task
   * (SE_DEFINITIONS.clustered_by_task), null where there is none (one run, one task, pass@k);
   * `matched_by` names the one within the claim's S, null when neither is
   */
  standard_error?: { over_runs: number | null; clustered_by_task: number | null; matched_by: "over_runs" | "clustered_by_task" | null };
}

/** The two standard errors a claim's `± S` is checked against, in words. */
export const SE_DEFINITIONS = {
  over_runs:
    "standard error over runs: the sample standard deviation of the per-run rates over the square root of the number of runs (what Terminal-Bench's leaderboard publishes beside a mean of runs)",
  clustered_by_task:
    "task-clustered standard error: sqrt(T/(T-1) * sum_i (c_i - p n_i)^2) / N over the T tasks of the denominator (Miller 2024, 'Adding Error Bars to Evals'; what Inspect's stderr() gives, its epochs reduced by their mean)",
} as const;

/**
 * A definition near a claim that nothing reproduced: `offset` = rate - claimed
 * value (negative below it), `distance` = |offset|; fractions, from the exact
 * rate (claims.ts offsetFromClaim, the one definition of a distance to a claim).
 */
export interface NearDefinition extends DefinitionFigure {
  distance: number;
  offset: number;
}

/** The audit of one claim (docs/commands.md). Rates, bounds and distances are fractions (0.875). */
export interface ClaimAudit {
  claim: string;
  label?: string;
  claim_value: number;
  /** [lo, hi], both included */
  tolerance: [number, number];
  reproduced: boolean;
  /** every matching definition, simplest first; one per group of equivalent definitions */
  matches: DefinitionFigure[];
  /** the three definitions nearest the claim, only when nothing matches */
  nearest?: NearDefinition[];
  /**
   * for a claim `M ± S` that nothing reproduced: the definitions that give M but neither of
   * whose standard errors is within S (each with both); absent otherwise
   */
  value_matches?: DefinitionFigure[];
  /** for a claim `M ± S`: S as a fraction, its tolerance [lo, hi] (both included) and the two standard errors it is checked against */
  standard_error?: { claimed: number; tolerance: [number, number]; definitions: typeof SE_DEFINITIONS };
  /** final successes over all trials (all groups together) */
  strict: { successes: number; count: number; rate: number | null };
  /**
   * each identity group's strict figure, when the inputs hold several (then a
   * figure over all trials pools them and matches only under --pool); empty otherwise
   */
  group_strict: { group: string; successes: number; count: number; rate: number | null }[];
  /** first-try successes over all trials (all groups together): the figure as if nothing were retried, beside the strict one */
  first_try: { successes: number; count: number; rate: number | null };
  /** the runs read as further attempts of another run's trials (meta.attempt_ledger.reruns): the definitions count them so */
  reruns: RerunInfo[];
  /** the groups the claim was also checked against (each run, agent, model where there are several) */
  groups: AuditGroup[];
  /** the family's size, and how many of its definitions differ on these runs */
  searched: { definitions: number; distinct: number };
}

export interface AuditData {
  audits: ClaimAudit[];
  /** the claims as parsed, in the order of `audits` (the renderer prints rates in the claim's form) */
  claims: Claim[];
  /** lines read, records parsed and blank lines: the accounting view (no record = nothing to audit, exit 1) */
  lines: number;
  records: number;
  blank: number;
  /** lines rejected in the runs audited (for --strict), from the accounting view: with --db, the stored rejects */
  rejected: number;
  /** sources of the runs audited that broke part-way (a truncated gzip or tar); --strict fails on these too */
  broken_sources: number;
  /** differing duplicates dropped whose kept copy came from another source (never quiet); --strict fails on these too */
  duplicates_across_sources: number;
}

/** How many near definitions are listed when a claim is not reproduced. */
export const NEAREST_SHOWN = 3;

/**
 * Loads the inputs and audits every claim against the family of definitions.
 * Throws DataError when an input cannot be read.
 */
export async function runAudit(session: Session, options: AuditOptions): Promise<AuditData> {
  return await readAudit(session, await claimsForLoaded(session, options));
}

/**
 * The claims to audit on the loaded runs: every claim, except that a claim
 * scoped to a benchmark (PublishedClaim.benchmark) is audited only when the runs
 * hold that benchmark alone (the attempts' `category`); the others are named in
 * a warning. Throws DataError when the runs mix benchmarks (a pooled figure is
 * no benchmark's) or no claim is left.
 */
async function claimsForLoaded(session: Session, options: AuditOptions): Promise<Claim[]> {
  if (!options.claims.some((c) => c.benchmark !== undefined)) return options.claims;
  const loaded = (await session.select("audit/benchmarks")).map((r) => r.category);
  if (loaded.length !== 1 || loaded[0] === null)
    throw new DataError(
      `the claims of the --claims file are per benchmark, and the inputs hold ${loaded.length === 1 ? "no benchmark name" : `${loaded.length} benchmarks (${loaded.map(String).join(", ")})`}: audit the records of one benchmark at a time (the harness's file of that benchmark)`,
    );
  const kept = options.claims.filter((c) => c.benchmark === undefined || c.benchmark === loaded[0]);
  const left = options.claims.filter((c) => !kept.includes(c)).map((c) => c.benchmark);
  if (left.length)
    options.onWarning?.(
      `${left.length} claim${left.length === 1 ? "" : "s"} of the --claims file not audited: the inputs hold ${loaded[0]} only, not ${left.slice(0, 5).join(", ")}${left.length > 5 ? ` and ${left.length - 5} more` : ""}`,
    );
  if (kept.length === 0) throw new DataError(`no claim is about ${loaded[0]}, the benchmark the inputs hold`);
  return kept;
}

interface Candidate {
  figure: DefinitionFigure;
  /** the rate as an exact fraction, null when the definition keeps no trial */
  exact: Fraction | null;
  /** the standard error of a mean of runs over its runs (audit_figures' se_over_runs); null otherwise */
  overRuns: number | null;
}

/**
 * Audits `claims` on a database whose views are in place.
 */
export async function readAudit(session: Session, claims: Claim[]): Promise<AuditData> {
  const { lines, records, blank, rejected, broken_sources, duplicates_across_sources } = await session.selectOne("meta/accounting");
  // one query: audit_figures carries the per-run figures and the strict definition, so the
  // views below it (trials, stg_attempts) are evaluated once; every scope (all trials, and
  // each run, agent and model where there are several) in the same rows
  const rows = await session.select("audit/audit_figures");
  const strictRow = rows.find((r) => r.is_strict && r.scope_by === "all");
  const strict = {
    successes: strictRow?.successes ?? 0,
    count: strictRow?.count ?? 0,
    rate: strictRow?.rate ?? null,
  };
  // the strict definition on the first basis: no exclusion, successes pooled over all trials
  const firstRow = rows.find(
    (r) => r.scope_by === "all" && r.basis === "first" && r.exclusions === 0 && r.numerator === "successes" && r.aggregation === "pooled",
  );
  const first_try = { successes: firstRow?.successes ?? 0, count: firstRow?.count ?? 0, rate: firstRow?.rate ?? null };
  const { reruns } = await session.selectOne("meta/attempt_ledger");
  // several identity groups (agents, models, benchmarks): a figure over all of them pools them,
  // and is no group's; it matches nothing (--pool leaves one group, the whole)
  const grouped = rows.some((r) => r.scope_by === "group");
  const group_strict = rows
    .filter((r) => r.is_strict && r.scope_by === "group")
    .map((r) => ({ group: r.scope_value ?? "", successes: r.successes, count: r.count, rate: r.rate }));
  const passRows = await session.select("audit/audit_pass_at_k");
  const passes = passCandidates(passRows);
  const candidates = [...rows.filter((r) => r.is_representative).map(candidate), ...passes].filter((c) => !grouped || c.figure.group !== null);
  const groups = rows.filter((r) => r.scope_by !== "all" && r.simplicity === 1).map((r) => ({ by: r.scope_by as AuditGroup["by"], value: r.scope_value }));
  // the family's size (counted once, on all trials), and how many distinct figures it gave in every scope searched
  const definitions = rows.filter((r) => r.scope_by === "all").length + passes.filter((c) => c.figure.group === null).length;
  const searched = { definitions, distinct: candidates.length };
  const folded = reruns.map((r) => ({ ...r, recognised_by: r.recognised_by as RerunInfo["recognised_by"] }));
  const errors = await standardErrors(session, claims, candidates);
  const audits = claims.map((claim) => ({ ...auditClaim(claim, candidates, strict, searched, groups, errors), group_strict, first_try, reruns: folded }));
  return { audits, claims, lines, records, blank, rejected, broken_sources, duplicates_across_sources };
}

/** A candidate's key among the standard errors: its scope and definition. */
function errorKey(f: DefinitionFigure): string {
  return `${f.group?.by ?? "all"}\t${f.group?.value ?? ""}\t${f.simplicity}`;
}

/**
 * The task-clustered standard errors (view audit_standard_errors) of the definitions
 * whose value matches a claim written `M ± S`, by errorKey; empty when no claim has an S.
 */
async function standardErrors(session: Session, claims: Claim[], candidates: Candidate[]): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  const wanted = new Set<number>();
  for (const claim of claims.filter((c) => c.standard_error))
    for (const c of candidates) if (c.exact !== null && c.figure.simplicity < 1000 && matchesClaim(c.exact, claim)) wanted.add(c.figure.simplicity);
  if (wanted.size === 0) return out;
  for (const r of await session.select("audit/standard_errors", { simplicities: JSON.stringify([...wanted]) }))
    out.set(`${r.scope_by}\t${r.scope_value ?? ""}\t${r.simplicity}`, r.se_clustered_by_task);
  return out;
}

/** The group of an audit_figures or audit_pass_at_k row: null for all trials. */
function groupOf(r: { scope_by: string | null; scope_value: string | null }): AuditGroup | null {
  return r.scope_by === "all" ? null : { by: r.scope_by as AuditGroup["by"], value: r.scope_value };
}

/**
 * pass@k and pass^k as members of the family: one candidate each per
 * scope and k (pass^1 is pass@1, so only pass@1; and pass@1 only when some task
 * has more than one trial, else it is the pooled rate). The rate is the view's;
 * the exact fraction for matching comes from its (n, c) shapes.
 */
function passCandidates(rows: RowOf<"audit/audit_pass_at_k">[]): Candidate[] {
  const out: Candidate[] = [];
  const most = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.scope_by}\t${r.scope_value}`;
    most.set(key, Math.max(most.get(key) ?? 0, r.k));
  }
  for (const r of rows) {
    const k = r.k;
    if (k === 1 && (most.get(`${r.scope_by}\t${r.scope_value}`) ?? 1) <= 1) continue;
    for (const hat of k === 1 ? [false] : [false, true]) {
      const aggregation = hat ? "pass^k" : "pass@k";
      const tasks = r.tasks;
      const skipped = r.skipped;
      const figure: DefinitionFigure = {
        group: groupOf(r),
        basis: "final",
        numerator: "successes",
        exclude: [],
        aggregation,
        k,
        successes: r.successes,
        count: r.trials,
        rate: hat ? r.pass_hat_k : r.pass_at_k,
        description: `${hat ? "pass^" : "pass@"}${k}: the chance that ${hat ? "all" : "at least one"} of ${k} trials drawn from a task ${hat ? "succeed" : "succeeds"} (final successes), mean over ${plural(tasks, "task")} with ${k} or more trials${skipped ? ` (${skipped} with fewer skipped)` : ""}`,
        runs: null,
        hides: { trials: 0, never_succeeded: 0, never_succeeded_retried: 0, late_passes_counted: 0 },
        equivalent_definitions: 0,
        simplicity: 1000 + 2 * k + (hat ? 1 : 0),
      };
      out.push({ figure, exact: passAtKFraction(r.shapes, k, hat), overRuns: null });
    }
  }
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function candidate(r: RowOf<"audit/audit_figures">): Candidate {
  const runs = r.run_figures.map((f) => ({
    run: f.run,
    run_id: f.run_id,
    trial: f.trial,
    successes: f.successes,
    count: f.count,
    rate: f.rate,
  }));
  const exclude: Exclusion[] = [];
  for (const cls of EXCLUDED_CLASSES) {
    const scope = r[`${cls}_scope`];
    if (scope !== "none") exclude.push({ class: cls, scope: scope as Exclusion["scope"] });
  }
  const basis = r.basis as DefinitionFigure["basis"];
  const numerator = r.numerator as DefinitionFigure["numerator"];
  const aggregation = r.aggregation as "pooled" | "mean_of_runs";
  const meanOfRuns = aggregation === "mean_of_runs";
  const figure: DefinitionFigure = {
    group: groupOf(r),
    basis,
    numerator,
    exclude,
    aggregation,
    successes: r.successes,
    count: r.count,
    rate: r.rate,
    description: describeDefinition({ basis, numerator, exclude, aggregation }, runs),
    runs: meanOfRuns ? runs : null,
    hides: {
      trials: r.left_out,
      never_succeeded: r.left_out_never_succeeded,
      never_succeeded_retried: r.left_out_never_succeeded_retried,
      late_passes_counted: r.late_passes_counted,
    },
    equivalent_definitions: r.equivalent_definitions,
    simplicity: r.simplicity,
  };
  // The view's rate is a double; matching needs it exactly, as a fraction of the
  // view's own whole-number counts (for a mean, of its per-run counts).
  const exact = meanOfRuns ? meanOfRatios(runs) : ratioOf(figure.successes, figure.count);
  return { figure, exact, overRuns: meanOfRuns ? r.se_over_runs : null };
}

/** A candidate's figure with its two standard errors and which one is within the claim's S. */
function withErrors(c: Candidate, claim: Claim, errors: Map<string, number | null>): DefinitionFigure {
  const f = c.figure;
  const over_runs = c.overRuns;
  const clustered_by_task = f.aggregation === "pooled" || f.aggregation === "mean_of_runs" ? (errors.get(errorKey(f)) ?? null) : null;
  const matched_by =
    over_runs !== null && matchesStandardError(over_runs, claim)
      ? "over_runs"
      : clustered_by_task !== null && matchesStandardError(clustered_by_task, claim)
        ? "clustered_by_task"
        : null;
  return { ...f, standard_error: { over_runs, clustered_by_task, matched_by } };
}

function auditClaim(
  claim: Claim,
  candidates: Candidate[],
  strict: ClaimAudit["strict"],
  searched: ClaimAudit["searched"],
  groups: AuditGroup[],
  errors: Map<string, number | null>,
): Omit<ClaimAudit, "first_try" | "reruns" | "group_strict"> {
  // all trials first, then each group; within each, simplest first (the candidates' order)
  const valued = candidates.filter((c) => c.exact !== null && matchesClaim(c.exact, claim));
  // `M ± S`: a definition reproduces the claim when it gives M and a standard error within S
  const checked = valued.map((c) => (claim.standard_error ? withErrors(c, claim, errors) : c.figure));
  const matches = claim.standard_error ? checked.filter((f) => f.standard_error?.matched_by) : checked;
  const audit: Omit<ClaimAudit, "first_try" | "reruns" | "group_strict"> = {
    claim: claim.text,
    ...(claim.label ? { label: claim.label } : {}),
    claim_value: toNumber(claim.value),
    tolerance: [toNumber(claim.lo), toNumber(claim.hi)],
    reproduced: matches.length > 0,
    matches,
    ...(claim.standard_error
      ? {
          standard_error: {
            claimed: toNumber(claim.standard_error.value),
            tolerance: [toNumber(claim.standard_error.lo), toNumber(claim.standard_error.hi)] as [number, number],
            definitions: SE_DEFINITIONS,
          },
        }
      : {}),
    strict,
    groups,
    searched,
  };
  if (matches.length === 0 && checked.length > 0) audit.value_matches = checked;
  if (matches.length === 0) {
    audit.nearest = candidates
      .flatMap((c) => (c.exact === null ? [] : [{ figure: c.figure, offset: offsetFromClaim(c.exact, claim) }]))
      .sort(
        (a, b) =>
          compareDistance(a.offset, b.offset) || Number(a.figure.group !== null) - Number(b.figure.group !== null) || a.figure.simplicity - b.figure.simplicity,
      )
      .slice(0, NEAREST_SHOWN)
      .map(({ figure, offset }) => ({ ...figure, distance: Math.abs(toNumber(offset)), offset: toNumber(offset) }));
  }
  return audit;
}

const EXCLUDED_CLASSES: readonly ExcludedClass[] = ["invalid", "environment", "timeout", "unrecognized"];

/** What leaving a class out says about an attempt: [on the basis attempt, on any attempt]. */
const CLASS_WORDS: Record<ExcludedClass, { basis: string; any: string }> = {
  invalid: { basis: "did not report a broken task", any: "reported a broken task" },
  environment: { basis: "did not hit an environment failure", any: "hit an environment failure" },
  timeout: { basis: "did not time out", any: "timed out" },
  unrecognized: { basis: "did not end with an unrecognized status", any: "ended with an unrecognized status" },
};

/**
 * A definition in plain words, e.g. "first-try successes over trials whose first
 * attempt did not time out", or for a mean over runs "mean of 5 per-run rates:
 * final successes plus late passes over trials whose final attempt did not hit an
 * environment failure".
 */
export function describeDefinition(
  d: Pick<DefinitionFigure, "basis" | "numerator" | "exclude"> & { aggregation: "pooled" | "mean_of_runs" },
  runs: readonly { count: number }[],
): string {
  const late = d.numerator === "successes+late_passes";
  const numerator = `${d.basis === "first" ? "first-try successes" : "final successes"}${late ? " plus late passes" : ""}`;
  const words = (e: Exclusion) => {
    const w = CLASS_WORDS[e.class][e.scope];
    return e.class === "timeout" && late ? `${w} without passing verification` : w;
  };
  const onBasis = d.exclude.filter((e) => e.scope === "basis").map(words);
  const onAny = d.exclude.filter((e) => e.scope === "any").map(words);
  const clauses: string[] = [];
  if (onBasis.length) clauses.push(`whose ${d.basis} attempt ${list(onBasis, "and")}`);
  if (onAny.length) clauses.push(`that never ${list(onAny, "or")} in any attempt`);
  const denominator = clauses.length ? `trials ${clauses.join(" and ")}` : "all trials";
  const base = `${numerator} over ${denominator}`;
  if (d.aggregation === "pooled") return base;
  const rated = runs.filter((r) => r.count > 0).length;
  const empty = runs.length - rated;
  const skipped = empty ? ` (${empty} run${empty === 1 ? "" : "s"} with no trial left skipped)` : "";
  return `mean of ${rated} per-run rate${rated === 1 ? "" : "s"}${skipped}: ${base}`;
}

/** ["a", "b", "c"] -> "a, b and c" */
function list(items: string[], conjunction: string): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}
