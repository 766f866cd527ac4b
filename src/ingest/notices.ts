/**
 * What the loaded inputs could make wrong without anyone noticing (issue 15),
 * read from its views and said in words: differing duplicates whose copies come
 * from two different sources (view source_duplicates, DESIGN section 4), ids
 * that differ only by case or surrounding whitespace (id_lookalikes), and the
 * agents, models, benchmarks or Inspect tasks pooled under one figure (pooling).
 * The same lines go to stderr as warnings and open the text report.
 */
import type { Session } from "../db/session.js";
import type { GroupKey } from "../definitions.js";

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

/** A dimension the loaded trials mix: its values (a null value = trials that name none) with their trials, and the --by that splits them. */
export interface Pooling {
  dimension: "agent" | "model" | "benchmark" | "inspect_task" | "run";
  values: number;
  split_by: GroupKey;
  groups: { value: string | null; trials: number }[];
  /** under --by: a group of --by still holds more than one of these values (view pooled_within_groups); false without --by */
  within_groups: boolean;
}

export interface Notices {
  duplicate_sources: SourceDuplicates[];
  id_lookalikes: IdLookalikes[];
  pooling: Pooling[];
}

/** The named SELECTs readNotices runs. */
const NOTICE_SELECTS = ["meta/source_duplicates", "meta/id_lookalikes", "meta/pooling"] as const;

/**
 * Reads the three views (queries/select/meta/: source_duplicates, id_lookalikes, pooling),
 * their relations and rows made at once first (on two connections when the session has them).
 */
export async function readNotices(session: Session): Promise<Notices> {
  await session.needFor(NOTICE_SELECTS);
  const duplicate_sources: SourceDuplicates[] = await session.select("meta/source_duplicates");
  const id_lookalikes = (await session.select("meta/id_lookalikes")).map((l) => ({ ...l, field: l.field as IdLookalikes["field"] }));
  const pooling = (await session.select("meta/pooling")).map((p) => ({ ...p, dimension: p.dimension as Pooling["dimension"], split_by: p.split_by as GroupKey }));
  return { duplicate_sources, id_lookalikes, pooling };
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
    else lines.push(`the inputs hold ${what}: ${p.dimension === "run" ? "each run is its own group (nothing says they are one model)" : "each group has its own figure"}, none is quoted for all; --pool pools them`);
  }
  if (n.id_lookalikes.length) {
    const shown = n.id_lookalikes.slice(0, LISTED).map((l) => l.variants.map((v) => JSON.stringify(v)).join(" / "));
    const more = n.id_lookalikes.length > LISTED ? `, and ${n.id_lookalikes.length - LISTED} more` : "";
    const fields = [...new Set(n.id_lookalikes.map((l) => l.field))].join(" and ");
    lines.push(`${n.id_lookalikes.length} set${n.id_lookalikes.length === 1 ? "" : "s"} of ${fields} values differ only by case or surrounding whitespace and are kept apart: ${shown.join("; ")}${more} (view id_lookalikes)`);
  }
  return lines;
}

const DIMENSION_WORDS: Record<Pooling["dimension"], { one: string; many: string; none?: string }> = {
  agent: { one: "agent", many: "agents" },
  model: { one: "model", many: "models" },
  benchmark: { one: "benchmark", many: "benchmarks (adapter and category)" },
  inspect_task: { one: "Inspect task", many: "Inspect tasks" },
  run: { one: "run", many: "runs that name no model", none: "(runs naming a model)" },
};
