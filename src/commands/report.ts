/**
 * `denom report INPUT...`: the main job. Loads the runs and returns every
 * figure of docs/commands.md as data: the meta block, accounting, the rate grid
 * with what each step of the denominator chain removed, status counts on both
 * bases, first -> final transitions, timeouts by cause and diagnostics, and the
 * metrics of section 7 (report-metrics.ts), per `--by` group too.
 * Every figure comes from a view in queries/; nothing is computed here.
 */
import type { Session } from "../db/session.js";
import type { Cell, Params, Row } from "../db/session.js";
import { VERSION } from "../version.js";
import { ALL_FORMATS } from "../formats/index.js";
import type { RunLog } from "../formats/types.js";
import type { ExcludedTasks, Floor, GroupKey, Thresholds } from "../definitions.js";
import { CHART_SELECTS, readChartData, type ChartData } from "./report-charts.js";
import { INVENTORY_PARAMS, readMetrics, type Metrics, type RateCell } from "./report-metrics.js";

export type { RateCell } from "./report-metrics.js";
import type { RunsOptions } from "../ingest/runs.js";
import { readNotices, type Notices } from "../ingest/notices.js";

export interface ReportOptions extends RunsOptions {
  /** `--by`: every figure again per value of this field */
  by?: GroupKey | null;
  /** also read the figures the HTML report draws (`charts`) */
  charts?: boolean;
}

/** What one step of the denominator chain removed on one basis, by reason. */
export interface Removal {
  basis: string;
  denominator: string;
  fault: string;
  reason: string;
  trials: number;
}

export interface SourceInfo {
  name: string;
  sha256: string;
  bytes: number;
  format: string;
  /** lines = records + blank + rejected (a JSON document counts its elements) */
  lines: number;
  records: number;
  blank: number;
  rejected: number;
  attempts: number;
  physical_lines: number;
  problem: string | null;
  /** the names of the format adapters that read its records (null when none read one) */
  adapter: string | null;
}

/**
 * What a run's own log says of it (its header, FormatAdapter.header; view run_log_status), beside
 * what denom found: trials recorded, trials owed (sample ids x epochs), owed ones
 * with no record (in `total` as missing), trials unscored for a dict-valued score.
 */
export interface RunLogInfo
  extends Pick<RunLog, "run_id" | "invocation" | "task" | "model" | "status" | "error_message" | "total_samples" | "completed_samples" | "incomplete"> {
  owed_trials: number;
  trials: number;
  missing_trials: number;
  dict_score_trials: number;
  /** the keys of the dict-valued scores seen, comma-separated; null when none */
  score_keys: string | null;
  /** the source the log was read from */
  source: string;
}

/**
 * A run whose attempts are further attempts of another run's trials (a re-run
 * job), as view attempt_ledger lists it: `run` re-ran trials of `rerun_of`,
 * known by `recognised_by` (`errored_trials`: the same agent, model and
 * benchmark, started after it ended, only tasks it errored on; `named`:
 * `--rerun-of`); its `attempts` reached `trials` trials, `first_tries_gone` of
 * them without a first try on record; `owed_without_record`: attempts its own
 * metadata announced that have no record.
 */
export interface RerunInfo {
  run: string;
  rerun_of: string;
  recognised_by: "errored_trials" | "named";
  attempts: number;
  trials: number;
  first_tries_gone: number;
  owed_without_record: number;
}

/**
 * The attempt ledger: `planned_trials` (every trial in `total`) =
 * `recorded_trials` + `missing_trials`; `observed_attempts` (kept) and
 * `dropped_attempts` (duplicates); `first_tries_gone` (trials whose first try
 * counts as missing); `reruns`, one per re-run run.
 */
export interface AttemptLedger {
  planned_trials: number;
  recorded_trials: number;
  missing_trials: number;
  observed_attempts: number;
  dropped_attempts: number;
  first_tries_gone: number;
  reruns: RerunInfo[];
}

/**
 * The meta block: whatever someone needs to recompute the denominators; and
 * (Notices) the sources whose differing duplicates met, the ids that
 * differ only by case or whitespace, and what the trials pool under one figure.
 */
export interface Meta extends Notices {
  tool: string;
  sources: SourceInfo[];
  /**
   * Files of a folder or archive that were not read: archive members by their
   * name, and side files no input format recognises (`top_keys`: their first
   * record's top-level keys, at most 8; null for the others).
   */
  skipped_files: { name: string; reason: string; top_keys: string[] | null }[];
  /** what the formats that read the sources say about them (FormatAdapter.notes), e.g. that the harness records no retries */
  notes: string[];
  /** one entry per run log that describes its run (FormatAdapter.header), in load order; empty for other formats */
  run_logs: RunLogInfo[];
  window: { start: string | null; end: string | null };
  tasks: number;
  trials: number;
  attempts: number;
  runs: number;
  /** largest number of attempts whose [started_at, ended_at) intervals overlap; null without times */
  concurrency: number | null;
  timeout_limits: { timeout_limit_s: number | null; attempts: number }[];
  retry_policy: { max_attempts: number | null; trials_retried: number; retried_statuses: Record<string, number> };
  /** planned trials, observed and dropped attempts, and the re-runs read as further attempts (view attempt_ledger) */
  attempt_ledger: AttemptLedger;
  definitions: {
    success: string;
    basis: Record<string, string>;
    denominators: { denominator: string; keeps: string; removes: string }[];
    /** `--exclude-tasks FILE`: the file, its sha256 and every task it lists with the reason; null without the flag */
    excluded_tasks: ExcludedTasks | null;
  };
  /** which rule made each success a score decided (docs/metrics.md, Scores): ScoreRule */
  score_rule: ScoreRule;
  exclusions: Removal[];
  thresholds: { queue_share: number; loop_min: number; sluggish_ratio: number };
  status_map: Record<string, string>;
  /** secrets masked at ingest, per kind (view secrets_masked): how many, in how many lines; each reads `[masked KIND #xxxxxxxx]` */
  secrets_masked: { kind: string; secrets: number; lines: number }[];
  /** which figure is the one to quote, given what the inputs pool (`pooling`), `--by` and `--pool` */
  grouping: Grouping;
}

/**
 * Which figure to quote (docs/identity-and-inputs.md): `overall` when the inputs
 * hold one agent, model and benchmark (or under `--pool`, which says what it pools);
 * `each_group` when the groups (the runs' identity groups, or a `--by` that splits
 * every dimension that varies) each have their own; `none` when the groups of
 * `--by` still pool what varies. `groups`: how many groups.
 */
export interface Grouping {
  figure_to_quote: "overall" | "each_group" | "none";
  pool: boolean;
  groups: number;
}

/**
 * The rule that decided the successes a score decides: `--success-threshold X`
 * (`rule` "score >= X (--success-threshold)"), else each format's declared rule
 * (`rule` "declared by each format"); `formats`: every format that read a
 * source and declares what decides its successes, with its score scale (`0-1`,
 * or null: booleans or id lists decide) and its rule in words
 * (FormatAdapter.success, docs/formats.md).
 */
export interface ScoreRule {
  success_threshold: number | null;
  rule: string;
  formats: { format: string; score_scale: string | null; success: string }[];
}

export interface ReportData extends Omit<Metrics, "rates"> {
  meta: Meta;
  accounting: {
    lines: number;
    records: number;
    blank: number;
    rejected: number;
    duplicates: number;
    duplicates_identical: number;
    duplicates_differing: number;
    /** differing duplicates dropped whose kept copy came from another source (meta.duplicate_sources; --strict fails) */
    duplicates_across_sources: number;
    /** keys written twice in one JSON object (the last value read); table duplicate_keys lists them */
    duplicate_keys: number;
    unrecognized: number;
    naive_timestamps: number;
    non_finite: number;
    /** lines - records - blank - rejected: lines that reached no bucket; 0 when all is well */
    unaccounted: number;
    /** sources that broke part-way (a truncated gzip or tar): the records before the break are counted, the rest is lost */
    broken_sources: number;
    /** secrets (API keys, tokens) masked at ingest in records, rejected lines and source names; meta.secrets_masked has them per kind */
    secrets_masked: number;
  };
  rates: RateCell[];
  status_counts: { first: Record<string, number>; final: Record<string, number> };
  /** trials per status and status_detail (null when the record gave none), on each basis; view status_detail_counts */
  status_detail_counts: { status: string; status_detail: string | null; first: number; final: number }[];
  transitions: { first: string; final: string; count: number }[];
  /** kept timeout attempts per cause (docs/metrics.md), every cause listed */
  timeout_causes: Record<string, number>;
  /** each cause's share of all timeout attempts, a fraction; null when there is no timeout */
  timeout_cause_shares: Record<string, number | null>;
  /** attempts: timeouts, late passes (timeouts that passed verification), constraint violations, grader errors; trials: missing */
  diagnostics: { timeout_attempts: number; timeouts_with_passing_score: number; constraint_violations: number; grader_errors: number; missing: number };
  /** final timeouts over all trials (docs/metrics.md); `rate` a fraction, null without trials */
  timeout_rate: { timeouts: number; trials: number; rate: number | null };
  /** how many trials each step of the denominator chain removed, on each basis (null for total) */
  denominator_steps: { basis: string; denominator: string; removed: number | null }[];
  unrecognized_statuses: { value: string; attempts: number }[];
  rejects: { source: string; line: number; location: string | null; reason: string }[];
  /** each harness's own verdict, in the formats' order (FormatAdapter.verdict); JSON: one key each (render/report-json.ts) */
  verdicts: HarnessVerdict[];
  /** the HTML report's chart figures (report-charts.ts); only with `charts`, never in --json */
  charts?: ChartData;
  /** `--floor INPUT`: the floor's rate in every cell and the lift over it; null without the flag */
  floor: FloorReport | null;
}

/**
 * What `--floor INPUT` adds (views floor_lift, floor_coverage): the floor's
 * inputs, the tasks of the run and of the floor, and per cell the run's
 * successes/count and rate, the floor's over its own trials, and `lift` = run
 * rate - floor rate (fractions; 0.25 = 25 points). A lift over different task
 * sets (`coverage.run_only` or `floor_only` above 0) compares different tasks.
 */
export interface FloorReport {
  inputs: string[];
  coverage: { run_tasks: number; floor_tasks: number; common_tasks: number; run_only: number; floor_only: number };
  cells: {
    basis: string;
    denominator: string;
    successes: number;
    count: number;
    rate: number | null;
    floor_successes: number;
    floor_count: number;
    floor_rate: number | null;
    lift: number | null;
  }[];
}

/**
 * Reads what `--floor` needs of the floor's own session: its grid's counts and
 * its tasks (Floor of definitions.ts, minus the inputs the caller names).
 */
export async function readFloor(session: Session): Promise<Omit<Floor, "inputs">> {
  return { cells: await session.select("floor/cells"), tasks: (await session.select("floor/tasks")).map((r) => r.task_id) };
}

/**
 * A harness's own verdict on its runs (FormatAdapter.verdict),
 * read whatever the inputs: `rows` (empty when no run is that harness's) go
 * under `key` in `denom report --json`; `heading` and `lines` (indented as the
 * text report prints them) are what the renderers show when there is a row.
 */
export interface HarnessVerdict {
  /** the format that declared it */
  format: string;
  key: string;
  heading: string;
  rows: Row[];
  lines: string[];
}

/** How many rejects the report lists (all are in the rejects table and `denom export --what rejects`). */
export const REJECTS_LISTED = 100;

export const SUCCESS_DEFINITION =
  "the attempt's status is success (after aliases); a violated hard constraint makes it a failure, a grader error makes it aborted; a late pass (timeout that passed verification) is not a success";

/** Reads the report from an open session; with `charts`, the HTML report's chart figures too. Throws DenomError when a query file fails. */
export async function runReport(session: Session, options: ReportOptions): Promise<ReportData> {
  const data = await readReport(session, options);
  if (options.charts) data.charts = await readChartData(session);
  return data;
}

/** The named SELECTs readReport runs: all of select/report/ and select/meta/ but the charts'. */
function reportSelects(session: Session): string[] {
  return [...session.selectsIn("report"), ...session.selectsIn("meta")].filter((name) => !CHART_SELECTS.includes(name));
}

const REJECTS_PARAMS = { limit: REJECTS_LISTED };

/** The parameters readReport runs its SELECTs with that take some. */
const REPORT_PARAMS: Readonly<Record<string, Params>> = {
  "report/rejects": REJECTS_PARAMS,
  "report/missing_tasks": INVENTORY_PARAMS,
  "report/unexpected_tasks": INVENTORY_PARAMS,
  "report/incomplete_tasks": INVENTORY_PARAMS,
};

/** Begins the statements of readReport at once (Session.prefetch): RunsOptions.prefetch of `denom report`. */
export function prefetchReport(session: Session): void {
  session.prefetch(reportSelects(session), REPORT_PARAMS);
}

/** Reads the report from a session (the relations it reads are created as needed). */
export async function readReport(
  session: Session,
  options: Pick<ReportOptions, "statusMap" | "thresholds" | "expectation" | "excludedTasks" | "by" | "pool" | "successThreshold" | "floor">,
): Promise<ReportData> {
  // what follows runs every SELECT of select/report/ and select/meta/ but the charts': created at once
  await session.needFor(reportSelects(session), REPORT_PARAMS);
  const meta = await readMeta(session, options.thresholds, options.statusMap, options.successThreshold ?? null, options.excludedTasks ?? null);
  const accounting: ReportData["accounting"] = await session.selectOne("meta/accounting");
  // the rate grid with its intervals (rate_grid's cells, from figure_intervals)
  const { rates, ...metrics } = await readMetrics(session, options);
  meta.grouping = groupingOf(meta.pooling, metrics.by, metrics.groups.length, Boolean(options.pool));
  const statusRows = await session.select("report/status_counts");
  const status_counts: ReportData["status_counts"] = { first: {}, final: {} };
  for (const r of statusRows) status_counts[r.basis as "first" | "final"][r.status] = r.trials;
  const status_detail_counts = (await session.select("report/status_detail_counts")).map((r) => ({
    status: r.status,
    status_detail: r.status_detail,
    first: r.first_trials,
    final: r.final_trials,
  }));
  const transitions = (await session.select("report/transitions")).map((r) => ({
    first: r.first_status,
    final: r.final_status,
    count: r.trials,
  }));
  const timeout_causes: Record<string, number> = {};
  const timeout_cause_shares: Record<string, number | null> = {};
  for (const r of await session.select("report/timeout_causes")) {
    timeout_causes[r.timeout_cause] = r.attempts;
    timeout_cause_shares[r.timeout_cause] = r.share;
  }
  const diagnostics: ReportData["diagnostics"] = await session.selectOne("report/diagnostics");
  const timeout_rate: ReportData["timeout_rate"] = await session.selectOne("report/timeout_rate");
  const denominator_steps: ReportData["denominator_steps"] = await session.select("report/denominator_steps");
  const unrecognized_statuses = (await session.select("report/unrecognized_statuses")).map((r) => ({
    value: r.raw_status,
    attempts: r.attempts,
  }));
  const rejects: ReportData["rejects"] = await session.select("report/rejects", REJECTS_PARAMS);
  const verdicts = await readVerdicts(session);
  const coverage = options.floor ? await session.selectOne("report/floor_coverage") : null;
  const floor = options.floor && coverage ? { inputs: options.floor.inputs, coverage, cells: await session.select("report/floor_lift") } : null;
  return {
    meta,
    accounting,
    rates,
    status_counts,
    status_detail_counts,
    transitions,
    timeout_causes,
    timeout_cause_shares,
    timeout_rate,
    diagnostics,
    denominator_steps,
    unrecognized_statuses,
    rejects,
    verdicts,
    floor,
    ...metrics,
  };
}

/** The verdict of every format that declares one (FormatAdapter.verdict), in the formats' order. */
async function readVerdicts(session: Session): Promise<HarnessVerdict[]> {
  const verdicts: HarnessVerdict[] = [];
  for (const f of ALL_FORMATS) {
    const hook = "verdict" in f ? f.verdict : undefined;
    if (!hook) continue;
    const rows = await session.select(hook.select);
    verdicts.push({ format: f.name, key: hook.key, heading: hook.heading, rows, lines: rows.length ? hook.describe(rows) : [] });
  }
  return verdicts;
}

/** The meta block (docs/commands.md), also the header of every export; `successThreshold` is `--success-threshold` (null: none). */
export async function readMeta(
  session: Session,
  thresholds: Thresholds,
  statusMap: Record<string, string>,
  successThreshold: number | null = null,
  excludedTasks: ExcludedTasks | null = null,
): Promise<Meta> {
  const sources: SourceInfo[] = await session.select("meta/sources");
  const skipped_files: Meta["skipped_files"] = (await session.select("meta/skipped_files")).map((r) => ({
    name: r.name,
    reason: r.reason,
    top_keys: typeof r.top_keys === "string" ? (JSON.parse(r.top_keys) as string[]) : null,
  }));
  const summary = await session.selectOne("meta/run_summary");
  const timeout_limits: Meta["timeout_limits"] = await session.select("meta/timeout_limits");
  const policy = await session.selectOne("meta/retry_policy");
  const retried: Record<string, number> = {};
  for (const s of policy.retried_statuses ?? []) retried[s.status] = s.attempts;
  const denominators: Meta["definitions"]["denominators"] = await session.select("meta/denominators");
  const exclusions: Removal[] = await session.select("meta/exclusions");
  const secrets_masked: Meta["secrets_masked"] = await session.select("meta/secrets_masked");
  const run_logs: RunLogInfo[] = await session.select("meta/run_logs");
  const ledger = await session.selectOne("meta/attempt_ledger");
  return {
    ...(await readNotices(session)),
    tool: `denom ${VERSION}`,
    sources,
    skipped_files,
    notes: formatNotes(sources.map((s) => s.adapter)),
    run_logs,
    window: { start: summary.window_start, end: summary.window_end },
    tasks: num(summary.tasks),
    trials: num(summary.trials),
    attempts: num(summary.attempts),
    runs: num(summary.runs),
    concurrency: summary.concurrency ?? null,
    timeout_limits,
    retry_policy: {
      max_attempts: policy.max_attempts ?? null,
      trials_retried: num(policy.trials_retried),
      retried_statuses: retried,
    },
    attempt_ledger: {
      planned_trials: num(ledger.planned_trials),
      recorded_trials: num(ledger.recorded_trials),
      missing_trials: num(ledger.missing_trials),
      observed_attempts: num(ledger.observed_attempts),
      dropped_attempts: num(ledger.dropped_attempts),
      first_tries_gone: num(ledger.first_tries_gone),
      reruns: ledger.reruns.map((r) => ({ ...r, recognised_by: r.recognised_by as RerunInfo["recognised_by"] })),
    },
    definitions: {
      success: SUCCESS_DEFINITION,
      basis: {
        first: "the outcome of each trial's first attempt: as if there were no retries",
        final: "the outcome of each trial's last attempt, after retries",
      },
      denominators,
      excluded_tasks: excludedTasks,
    },
    score_rule: scoreRule(
      sources.map((s) => s.adapter),
      successThreshold,
    ),
    exclusions,
    thresholds: { queue_share: thresholds.queueShare, loop_min: thresholds.loopMin, sluggish_ratio: thresholds.sluggishRatio },
    status_map: statusMap,
    secrets_masked,
    // set by readReport once the groups are read
    grouping: { figure_to_quote: "overall", pool: false, groups: 0 },
  };
}

/** Which figure to quote (Grouping), from what pools and how the report is grouped. */
export function groupingOf(pooling: Meta["pooling"], by: ReportData["by"], groups: number, pool: boolean): Grouping {
  const quoted: Grouping["figure_to_quote"] =
    pooling.length === 0 || pool ? "overall" : by === "identity" || (by !== null && pooling.every((p) => !p.within_groups)) ? "each_group" : "none";
  return { figure_to_quote: quoted, pool, groups };
}

function num(v: Cell | undefined): number {
  return typeof v === "number" ? v : 0;
}

/** The rule behind the successes a score decides (ScoreRule), over the formats that read a source (`sources.adapter`). */
export function scoreRule(adapters: readonly (string | null)[], successThreshold: number | null): ScoreRule {
  const used = new Set(adapters.flatMap((a) => (a ? a.split(", ") : [])));
  const formats = ALL_FORMATS.filter((f) => used.has(f.name) && f.success).map((f) => ({
    format: f.name,
    score_scale: ("traits" in f && f.traits?.scoreScale) || null,
    success: f.success!,
  }));
  const rule = successThreshold === null ? "declared by each format" : `score >= ${successThreshold} (--success-threshold)`;
  return { success_threshold: successThreshold, rule, formats };
}

/** The notes of every format that read a source (`sources.adapter`: names joined with ", "), in the formats' order. */
function formatNotes(adapters: readonly (string | null)[]): string[] {
  const used = new Set(adapters.flatMap((a) => (a ? a.split(", ") : [])));
  return ALL_FORMATS.filter((f) => used.has(f.name)).flatMap((f) => ("notes" in f && f.notes ? [...f.notes] : []));
}
