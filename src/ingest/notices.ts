/**
 * What the loaded inputs could make wrong without anyone noticing,
 * read from its views and said in words: differing duplicates whose copies come
 * from two different sources (view source_duplicates, docs/metrics.md), ids
 * that differ only by case or surrounding whitespace (id_lookalikes), the
 * agents, models, benchmarks or sub-benchmarks pooled under one figure (pooling),
 * and the runs whose scores leave their format's declared scale, unscored
 * until `--success-threshold X` decides (off_scale_runs, docs/metrics.md).
 * The same lines go to stderr as warnings and open the text report.
 */
import type { Session } from "../db/session.js";
import type { GroupKey } from "../definitions.js";
import { SUB_BENCHMARKS } from "../formats/index.js";

/** Two sources holding differing copies of the same (run, task, trial, attempt): the kept copies came from `kept_source`. */
export interface SourceDuplicates {
  kept_source: string;
  dropped_source: string;
  /** copies dropped from `dropped_source` that differ from the copy kept from `kept_source` */
  duplicates: number;
}

/** Ids (task_id or run_id) that are one id once case and surrounding whitespace are ignored: kept apart. */
export interface IdLookalikes {
  field: "task_id" | "run_id";
  folded: string;
  variants: string[];
}

/**
 * A dimension the loaded trials mix: its values (a null value = trials that name none) with their trials, and the --by that splits them.
 * `dimension`: agent, model, benchmark, run, or the field a format declares as naming a sub-benchmark (FormatTraits.subBenchmark).
 */
export interface Pooling {
  dimension: "agent" | "model" | "benchmark" | "run" | (string & {});
  values: number;
  split_by: GroupKey;
  groups: { value: string | null; trials: number }[];
  /** under --by: a group of --by still holds more than one of these values (view pooled_within_groups); false without --by */
  within_groups: boolean;
}

/**
 * A run whose deciding scores leave its format's declared scale (a 0-1 format
 * graded 0..10): the lowest and highest such score, the trials a score decides,
 * and whether they are unscored (`unscored`: no --success-threshold) or decided
 * by `success_threshold` (score >= it).
 */
export interface OffScaleRun {
  run_id: string | null;
  agent: string | null;
  model: string | null;
  /** the formats that read the run, comma-separated */
  formats: string;
  min_score: number;
  max_score: number;
  trials: number;
  unscored: boolean;
  success_threshold: number | null;
}

export interface Notices {
  duplicate_sources: SourceDuplicates[];
  id_lookalikes: IdLookalikes[];
  pooling: Pooling[];
  off_scale_runs: OffScaleRun[];
}

/** The named SELECTs readNotices runs. */
const NOTICE_SELECTS = ["meta/source_duplicates", "meta/id_lookalikes", "meta/pooling", "meta/off_scale_runs"] as const;

/**
 * Reads the four views (queries/select/meta/: source_duplicates, id_lookalikes, pooling, off_scale_runs),
 * their relations and rows made at once first (on two connections when the session has them).
 */
export async function readNotices(session: Session): Promise<Notices> {
  await session.needFor(NOTICE_SELECTS);
  const duplicate_sources: SourceDuplicates[] = await session.select("meta/source_duplicates");
  const id_lookalikes = (await session.select("meta/id_lookalikes")).map((l) => ({ ...l, field: l.field as IdLookalikes["field"] }));
  const pooling = (await session.select("meta/pooling")).map((p) => ({
    ...p,
    dimension: p.dimension as Pooling["dimension"],
    split_by: p.split_by as GroupKey,
  }));
  const off_scale_runs = await readOffScaleRuns(session);
  return { duplicate_sources, id_lookalikes, pooling, off_scale_runs };
}

/** The runs scored off their format's scale (view off_scale_runs), by run_id. */
export async function readOffScaleRuns(session: Session): Promise<OffScaleRun[]> {
  return (await session.select("meta/off_scale_runs")).map(({ is_unscored, ...r }) => ({ ...r, unscored: is_unscored }));
}

/** Lookalike families and pooled values named one by one before the rest are counted. */
const LISTED = 5;

/**
 * The notices in words, one line each, most serious first. `by` is the `--by`
 * key of the report, whose own dimension needs no advice to split it; `pool`
 * is `--pool`: the one figure pools what varies, and says so. Without either,
 * what varies makes groups (view run_groups), each with its own figure.
 */
export function noticeLines(n: Notices, by: GroupKey | "identity" | null = null, pool = false): string[] {
  const lines: string[] = [];
  const offScale = offScaleLine(n.off_scale_runs);
  if (offScale) lines.push(offScale);
  for (const d of n.duplicate_sources) {
    lines.push(
      `${d.kept_source} and ${d.dropped_source} hold ${d.duplicates} differing ${d.duplicates === 1 ? "copy" : "copies"} of the same (run, task, trial, attempt), so they count as one run: the copies of ${d.kept_source} are kept, those of ${d.dropped_source} dropped; if they are two runs, --run-per-file makes each file its own run`,
    );
  }
  for (const p of n.pooling) {
    // the report is split that way already, or its groups each hold one value
    if (by === p.split_by || (by && by !== "identity" && !p.within_groups)) continue;
    const words = DIMENSION_WORDS[p.dimension];
    const shown = p.groups.slice(0, LISTED).map((g) => `${g.value ?? words.none ?? `(no ${words.one})`} ${g.trials}`);
    const more = p.groups.length > LISTED ? `, and ${p.groups.length - LISTED} more` : "";
    const what = `${p.values} ${DIMENSION_WORDS[p.dimension].many} (trials: ${shown.join(", ")}${more})`;
    if (pool) lines.push(`the figure pools ${what}, as --pool asks`);
    else if (by && by !== "identity") lines.push(`each group of --by ${by} pools ${what}; --by ${p.split_by} splits them`);
    else
      lines.push(
        `the inputs hold ${what}: ${p.dimension === "run" ? "each run is its own group (nothing says they are one model)" : "each group has its own figure"}, none is quoted for all; --pool pools them`,
      );
  }
  if (n.id_lookalikes.length) {
    const shown = n.id_lookalikes.slice(0, LISTED).map((l) => l.variants.map((v) => JSON.stringify(v)).join(" / "));
    const more = n.id_lookalikes.length > LISTED ? `, and ${n.id_lookalikes.length - LISTED} more` : "";
    const fields = [...new Set(n.id_lookalikes.map((l) => l.field))].join(" and ");
    lines.push(
      `${n.id_lookalikes.length} set${n.id_lookalikes.length === 1 ? "" : "s"} of ${fields} values differ only by case or surrounding whitespace and are kept apart: ${shown.join("; ")}${more} (view id_lookalikes)`,
    );
  }
  return lines;
}

/**
 * The runs left unscored because their scores leave their format's scale, in
 * one line: each run (run_id, agent, model) with its format, the score range
 * seen and its trials, and the flag that decides; null when there is none.
 */
export function offScaleLine(runs: readonly OffScaleRun[]): string | null {
  const unscored = runs.filter((r) => r.unscored);
  if (unscored.length === 0) return null;
  const trials = unscored.reduce((t, r) => t + r.trials, 0);
  const shown = unscored.slice(0, LISTED).map((r) => {
    const who = [r.agent, r.model].filter((v): v is string => v !== null).join(" x ");
    const name = `${r.run_id ?? "(no run_id)"}${who ? ` (${who})` : ""}`;
    return `${name}: ${r.formats}, scores ${score(r.min_score)}..${score(r.max_score)}, ${r.trials} trial${r.trials === 1 ? "" : "s"}`;
  });
  const more = unscored.length > LISTED ? `, and ${unscored.length - LISTED} more` : "";
  const runWord = unscored.length === 1 ? "1 run has scores" : `${unscored.length} runs have scores`;
  return (
    `${runWord} off the 0-1 scale their format declares, so ${trials} trial${trials === 1 ? " is" : "s are"} unscored (in total only, never a success): ` +
    `${shown.join("; ")}${more}; --success-threshold X decides (a success when score >= X, on the scores' own scale)`
  );
}

/** A score as written: up to 4 decimals, no trailing zeros. */
function score(v: number): string {
  return String(Number(v.toFixed(4)));
}

type DimensionWords = { one: string; many: string; none?: string };

/** The words of each pooling dimension; a sub-benchmark's are its format's (FormatTraits.subBenchmark). */
const DIMENSION_WORDS: Readonly<Record<string, DimensionWords>> = {
  agent: { one: "agent", many: "agents" },
  model: { one: "model", many: "models" },
  benchmark: { one: "benchmark", many: "benchmarks (adapter and category)" },
  ...Object.fromEntries(SUB_BENCHMARKS.map((s) => [s.field, { one: s.one, many: s.many }])),
  run: { one: "run", many: "runs that name no model", none: "(runs naming a model)" },
};
