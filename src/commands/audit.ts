/**
 * `denom audit INPUT... --claim X`: which definitions reproduce a published
 * figure (DESIGN section 4 "Claim audit", issue 4). The family of definitions
 * and every definition's figure come from the views of queries/80_audit_family.sql
 * and queries/81_audit_figures.sql; this module picks the ones whose rate lies in
 * the claim's tolerance (exactly, see src/claims.ts), orders them simplest first
 * and says in words what each one counts and leaves out.
 */
import type { Session } from "../db/session.js";
import type { Row } from "../db/session.js";
import { matchesClaim, meanOfRatios, ratioOf, toNumber, type Claim, type Fraction } from "../claims.js";
import type { RunsOptions } from "../ingest/runs.js";
import { DataError } from "../errors.js";

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
 * One definition of the family with its figure on the loaded runs.
 * `successes`/`count` are over the trials it keeps (for a mean of runs, the sums over runs);
 * `rate` is successes/count when pooled, the mean of the per-run rates (runs with no trial
 * left drop out) for `mean_of_runs`; a fraction, null when there is no trial.
 */
export interface DefinitionFigure {
  basis: "first" | "final";
  numerator: "successes" | "successes+late_passes";
  exclude: Exclusion[];
  aggregation: "pooled" | "mean_of_runs";
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
}

/** A definition near a claim that nothing reproduced; `distance` = |rate - claimed value|, a fraction. */
export interface NearDefinition extends DefinitionFigure {
  distance: number;
}

/** The audit of one claim (DESIGN section 9). Rates, bounds and distances are fractions (0.875). */
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
  /** final successes over all trials */
  strict: { successes: number; count: number; rate: number | null };
  /** the family's size, and how many of its definitions differ on these runs */
  searched: { definitions: number; distinct: number };
}

export interface AuditData {
  audits: ClaimAudit[];
  /** the claims as parsed, in the order of `audits` (the renderer prints rates in the claim's form) */
  claims: Claim[];
  /** lines rejected in the runs audited (for --strict), from the accounting view: with --db, the stored rejects */
  rejected: number;
  /** sources of the runs audited that broke part-way (a truncated gzip or tar); --strict fails on these too */
  broken_sources: number;
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
 * scoped to a benchmark (OpenHands `scores.json`) is audited only when the runs
 * hold that benchmark alone (the attempts' `category`); the others are named in
 * a warning. Throws DataError when the runs mix benchmarks (a pooled figure is
 * no benchmark's) or no claim is left.
 */
async function claimsForLoaded(session: Session, options: AuditOptions): Promise<Claim[]> {
  if (!options.claims.some((c) => c.benchmark !== undefined)) return options.claims;
  const loaded = (await session.select("audit/benchmarks")).map((r) => r.category as string | null);
  if (loaded.length !== 1 || loaded[0] === null)
    throw new DataError(
      `the claims of scores.json are per benchmark, and the inputs hold ${loaded.length === 1 ? "no benchmark name" : `${loaded.length} benchmarks (${loaded.map(String).join(", ")})`}: audit one instance_results/<benchmark>.json at a time`,
    );
  const kept = options.claims.filter((c) => c.benchmark === undefined || c.benchmark === loaded[0]);
  const left = options.claims.filter((c) => !kept.includes(c)).map((c) => c.benchmark);
  if (left.length) options.onWarning?.(`${left.length} claim${left.length === 1 ? "" : "s"} of scores.json not audited: the inputs hold ${loaded[0]} only, not ${left.join(", ")}`);
  if (kept.length === 0) throw new DataError(`no claim is about ${loaded[0]}, the benchmark the inputs hold`);
  return kept;
}

interface Candidate {
  figure: DefinitionFigure;
  /** the rate as an exact fraction, null when the definition keeps no trial */
  exact: Fraction | null;
}

/**
 * Audits `claims` on a database whose views are in place.
 */
export async function readAudit(session: Session, claims: Claim[]): Promise<AuditData> {
  const read = await session.selectOne("meta/accounting");
  const rejected = (read?.rejected as number) ?? 0;
  const broken_sources = (read?.broken_sources as number) ?? 0;
  // one query: audit_figures carries the per-run figures and the strict definition, so the
  // views below it (trials, stg_attempts) are evaluated once
  const rows = await session.select("audit/audit_figures");
  const strictRow = rows.find((r) => r.is_strict);
  const strict = {
    successes: (strictRow?.successes as number) ?? 0,
    count: (strictRow?.count as number) ?? 0,
    rate: (strictRow?.rate as number | null) ?? null,
  };
  const candidates = rows.filter((r) => r.is_representative).map(candidate);
  const searched = { definitions: rows.length, distinct: candidates.length };
  const audits = claims.map((claim) => auditClaim(claim, candidates, strict, searched));
  return { audits, claims, rejected, broken_sources };
}

function candidate(r: Row): Candidate {
  const runs = ((r.run_figures ?? []) as Row[]).map((f) => ({
    run: f.run as string,
    run_id: (f.run_key as string) || null,
    trial: f.trial as number,
    successes: f.successes as number,
    count: f.count as number,
    rate: f.rate as number | null,
  }));
  const exclude: Exclusion[] = [];
  for (const cls of EXCLUDED_CLASSES) {
    const scope = r[`${cls}_scope`] as string;
    if (scope !== "none") exclude.push({ class: cls, scope: scope as Exclusion["scope"] });
  }
  const basis = r.basis as DefinitionFigure["basis"];
  const numerator = r.numerator as DefinitionFigure["numerator"];
  const aggregation = r.aggregation as DefinitionFigure["aggregation"];
  const meanOfRuns = aggregation === "mean_of_runs";
  const figure: DefinitionFigure = {
    basis,
    numerator,
    exclude,
    aggregation,
    successes: r.successes as number,
    count: r.count as number,
    rate: r.rate as number | null,
    description: describeDefinition({ basis, numerator, exclude, aggregation }, runs),
    runs: meanOfRuns ? runs : null,
    hides: {
      trials: r.left_out as number,
      never_succeeded: r.left_out_never_succeeded as number,
      never_succeeded_retried: r.left_out_never_succeeded_retried as number,
      late_passes_counted: r.late_passes_counted as number,
    },
    equivalent_definitions: r.equivalent_definitions as number,
    simplicity: r.simplicity as number,
  };
  // The view's rate is a double; matching needs it exactly, as a fraction of the
  // view's own whole-number counts (for a mean, of its per-run counts).
  const exact = meanOfRuns ? meanOfRatios(runs) : ratioOf(figure.successes, figure.count);
  return { figure, exact };
}

function auditClaim(claim: Claim, candidates: Candidate[], strict: ClaimAudit["strict"], searched: ClaimAudit["searched"]): ClaimAudit {
  const matches = candidates.filter((c) => c.exact !== null && matchesClaim(c.exact, claim)).map((c) => c.figure);
  const audit: ClaimAudit = {
    claim: claim.text,
    ...(claim.label ? { label: claim.label } : {}),
    claim_value: toNumber(claim.value),
    tolerance: [toNumber(claim.lo), toNumber(claim.hi)],
    reproduced: matches.length > 0,
    matches,
    strict,
    searched,
  };
  if (matches.length === 0) {
    const value = toNumber(claim.value);
    audit.nearest = candidates
      .filter((c) => c.exact !== null)
      .map((c) => ({ ...c.figure, distance: Math.abs(toNumber(c.exact as Fraction) - value) }))
      .sort((a, b) => a.distance - b.distance || a.simplicity - b.simplicity)
      .slice(0, NEAREST_SHOWN);
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
  d: Pick<DefinitionFigure, "basis" | "numerator" | "exclude" | "aggregation">,
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
