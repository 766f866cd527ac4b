/**
 * The adapters' FormatTraits (types.ts) as the SQL reference tables that
 * queries/ reads instead of a harness's name:
 * queries/reference/format_traits.sql (one row per format) and
 * queries/reference/phase_markers.sql (the phase events that bound the agent's
 * own phase). Generated, never edited by hand: test/format-traits.test.ts
 * checks that the files are what this module renders; regenerate with
 *   node -e 'import("./dist/formats/traits.js").then((m) => m.writeTraitFiles("queries/reference"))'
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_FORMATS } from "./index.js";
import type { Adapter, FormatTraits } from "./types.js";

const GENERATED = [
  "--",
  "-- Generated from the adapters' declarations (src/formats/traits.ts, FormatAdapter.traits):",
  "-- do not edit by hand; test/format-traits.test.ts checks it.",
];

function traitsOf(f: Adapter): FormatTraits {
  return ("traits" in f && f.traits) || {};
}

/** A SQL literal of a constant declared in this repository (a name, a key): quoted, `'` doubled; null as NULL. */
function literal(v: string | boolean | null): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return String(v);
  return `'${v.replaceAll("'", "''")}'`;
}

function values(rows: (string | boolean | null)[][]): string {
  return rows.map((r) => `        (${r.map(literal).join(", ")})`).join(",\n");
}

/** queries/reference/format_traits.sql: one row per format, in `denom formats` order. */
export function formatTraitsSql(formats: readonly Adapter[] = ALL_FORMATS): string {
  const rows = formats.map((f) => {
    const t = traitsOf(f);
    return [
      f.name,
      t.trialNumbering ?? "as_recorded",
      t.trialTiebreak ?? null,
      t.attemptNumbering ?? "as_recorded",
      t.summaryRecord ?? false,
      t.ownViews ?? null,
      t.rerunRecognition ?? "named_only",
      t.scoreScale ?? null,
      t.subBenchmark?.field ?? null,
    ];
  });
  return [
    "-- format_traits: what each input format's adapter declares the SQL must know of its attempts",
    "--   (src/formats/types.ts FormatTraits), one row per format, so that queries/ tests a",
    "--   declared property, never a harness's name: trial_numbering (`as_recorded`, or",
    "--   `start_order`: the records carry no trial index, a task's trials of a run are numbered by",
    "--   started_at, then by the raw field trial_tiebreak), attempt_numbering (`as_recorded`, or",
    "--   `start_order`: a trial holding an attempt of this format has its attempts numbered by",
    "--   started_at, one without a start last), is_summary_record (a record stands for a",
    "--   whole trial, its spend on the final attempt), own_views (the folder of queries/ holding",
    "--   the harness's own views, which read its attempts), rerun_recognition (`named_only`, or",
    "--   `errored_trials`: a later run over only the tasks an earlier run of the same agent, model",
    "--   and benchmark errored on is recognised as its re-run; run_reruns), score_scale (`0-1`:",
    "--   the number whose rule decides a success is a score in [0, 1], full marks 1, and an attempt",
    "--   it decided carries extra.score_decides; null: successes are booleans or id lists;",
    "--   stg_score_rule) and sub_benchmark_field (the raw field of attempts.extra naming the",
    "--   sub-benchmark a trial belongs to within its run, a pooling dimension named by the field;",
    "--   null: one benchmark a run; trial_identities).",
    "-- Reads: nothing.",
    ...GENERATED,
    "create or replace table format_traits as",
    "select",
    "    format::varchar as format,",
    "    trial_numbering::varchar as trial_numbering,",
    "    trial_tiebreak::varchar as trial_tiebreak,",
    "    attempt_numbering::varchar as attempt_numbering,",
    "    is_summary_record::boolean as is_summary_record,",
    "    own_views::varchar as own_views,",
    "    rerun_recognition::varchar as rerun_recognition,",
    "    score_scale::varchar as score_scale,",
    "    sub_benchmark_field::varchar as sub_benchmark_field",
    "from (",
    "    values",
    values(rows),
    ") as t (format, trial_numbering, trial_tiebreak, attempt_numbering, is_summary_record, own_views, rerun_recognition, score_scale, sub_benchmark_field);",
    "",
  ].join("\n");
}

/**
 * queries/reference/phase_markers.sql: the names of the `phase` events that mark
 * where the agent's own phase starts (`agent_start`) and ends (`agent_end`), as
 * the formats declare them. Throws Error when two formats give one name two meanings.
 */
export function phaseMarkersSql(formats: readonly Adapter[] = ALL_FORMATS): string {
  const marks = new Map<string, string>();
  for (const f of formats) {
    const phase = traitsOf(f).agentPhase;
    if (!phase) continue;
    for (const [name, mark] of [
      [phase.start, "agent_start"],
      [phase.end, "agent_end"],
    ] as const) {
      const key = name.toLowerCase();
      if (marks.has(key) && marks.get(key) !== mark) throw new Error(`phase event ${name}: ${marks.get(key)} in one format, ${mark} in ${f.name}`);
      marks.set(key, mark);
    }
  }
  return [
    "-- phase_markers: the `phase` events (by name, lower-case) that mark where the agent's own phase",
    "--   starts (`agent_start`) and ends (`agent_end`), as the formats declare them",
    "--   (FormatTraits.agentPhase); the timeout",
    "--   classifier's setup and agent-phase times and its agent_never_started read them.",
    "-- Reads: nothing.",
    ...GENERATED,
    "create or replace table phase_markers as",
    "select event_name::varchar as event_name, marks::varchar as marks",
    "from (",
    "    values",
    values([...marks].map(([name, mark]) => [name, mark])),
    ") as t (event_name, marks);",
    "",
  ].join("\n");
}

/** Writes both files into `dir` (queries/reference). */
export function writeTraitFiles(dir: string): void {
  writeFileSync(join(dir, "format_traits.sql"), formatTraitsSql());
  writeFileSync(join(dir, "phase_markers.sql"), phaseMarkersSql());
}
