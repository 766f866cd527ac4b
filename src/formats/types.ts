/**
 * What every format adapter provides (STYLE convention 6).
 *
 * Two kinds:
 * - FormatAdapter (a *record* adapter, the original interface, unchanged and
 *   backwards compatible): one raw record (a JSONL line, or an element of a
 *   JSON document's array) -> canonical attempts, judged by its `shapes`.
 * - DocumentAdapter (kind "document"): a JSON document whose
 *   top-level *object* holds the records as its entries (`{instance_id: bool}`,
 *   `{instance_id: {resolved, cost}}`) or as id lists (`{resolved: [ids], ...}`).
 *   The reader streams the object entry by entry (stream-json tokens, never the
 *   whole document), judges its first entries by the adapter's `shape`, and then
 *   hands every entry (or every element of an entry's array) to `adaptEntry`.
 *
 * Both kinds may declare `reads` (the fields they read, for `denom formats` and
 * the README); a record adapter without it is listed with "(not declared)".
 * Both declare the shape of what they read (shape.ts), and detection is exact
 * (formats/index.ts): `--input-format NAME` forces one; else a document adapter
 * claims an object document whose first entries fit its shape, and a record is
 * read by the one record adapter whose shape it fits (the canonical one only
 * when no other's fits, for records that look like attempts: a task id or a
 * status). Two adapters that claim one record, or a record only close to an
 * adapter's shape, are an error naming them; a source none recognises is an
 * error naming the file and the formats tried.
 */

import type { RowOf, SelectName } from "../db/session.js";
import type { DocumentShape, RecordShape } from "./shape.js";

/** Where a raw record came from, for adapters that derive a run identity from it. */
export interface AdaptContext {
  /** display name of the source (file path, `archive!member`, or `-`) */
  source: string;
  /**
   * The keys of a JSON document read before its container array (Inspect's
   * `eval`, tau2-bench's `info`), for adapters that need run-level facts beside
   * each element; absent for JSONL lines and documents without a container.
   */
  header?: Record<string, unknown> | null;
  /** `--score-key KEY`: the key of a dict-valued score that decides success (Inspect); null or absent = none chosen */
  scoreKey?: string | null;
}

/**
 * A harness log's own account of one run (Inspect's header): what it says of
 * itself, kept beside the attempts (table run_logs) and shown in the meta block,
 * and the trials it owes (table owed_trials, promised_by `run_log`): those with
 * no record enter `total` as missing.
 */
export interface RunLog {
  run_id: string;
  /** the invocation or eval set the run belongs to (Inspect: `eval_set_id`, else `run_id`) */
  invocation: string | null;
  task: string | null;
  model: string | null;
  /** as the log writes it: Inspect `started`, `success`, `cancelled`, `error` */
  status: string | null;
  error_message: string | null;
  /** the trials the log says it ran and completed (Inspect `results.total_samples`, `completed_samples`) */
  total_samples: number | null;
  completed_samples: number | null;
  /** true when the log was never finished (no header.json, status `started`) */
  incomplete: boolean;
  /** more of the log's identity, as JSON text (Inspect: eval_id, run_id, eval_set_id, task_id, inspect version) */
  detail: string | null;
  /** the (task_id, trial) pairs the run owes (Inspect: dataset.sample_ids x epochs) */
  owed: OwedTrials[];
}

/**
 * Trials a run owes, as a harness states them (table owed_trials; those with no
 * record enter `total` as missing, queries: trial_outcomes): one trial of a
 * task (`trial`: a log's sample id x epoch); or `trials` of a task (trials
 * 0..trials-1); or, `task_id` null, `trials` trials of the run in all, their
 * tasks unnamed. Who promised them (a run's log, or its metadata) is the
 * table's `promised_by`, and decides the words a missing trial gets.
 */
export type OwedTrials = { task_id: string; trial: number; trials?: undefined } | { task_id: string | null; trials: number; trial?: undefined };

/**
 * What one raw record becomes:
 * - `attempts`: records keyed by canonical field names (canonical-record.ts checks their types);
 *   an empty list is a record that holds no attempt (e.g. a published claim);
 * - `metadata`: a harness's run description holding no attempts (kept in the run_metadata table,
 *   the trials it announces in owed_trials, promised_by `run_metadata`);
 * - `error`: why the record cannot be read (the line is rejected).
 */
export type Adapted = { attempts: Record<string, unknown>[] } | { metadata: RunMetadata } | { error: string };

/**
 * A harness's description of a run. `owed`: the trials the run announces
 * (Harbor's `n_total_trials`, tau2-bench's tasks x `num_trials`): per task
 * (`task_id`: trials 0..trials-1), or for the run as a whole (`task_id` null:
 * that many trials in all, their tasks unnamed); the ones with no record enter
 * `total` as missing (queries: trial_outcomes).
 */
export interface RunMetadata {
  run_id: string | null;
  agent: string | null;
  model: string | null;
  concurrency: number | null;
  owed?: readonly OwedTrials[];
  /** one line for stderr about the run as read (tau2-bench: a results file whose simulations are empty) */
  warning?: string;
}

/**
 * One field an adapter reads, for `denom formats` and the README's mapping tables:
 * test/readme.test.ts checks that README.md holds every declared row as
 * `| \`source\` | canonical | note |` (so declare `reads`, then paste the rows).
 */
export interface FieldRead {
  /** the source field as the harness writes it (`resolved`, `<instance_id>`, `incomplete_ids[]`) */
  source: string;
  /** the canonical field(s) it becomes, or `-` when only checked */
  canonical: string;
  /** how values map, what is ambiguous and how denom decides */
  note: string;
}

/**
 * What the SQL of queries/ must know of one format's attempts, declared by its
 * adapter so that the SQL tests a declared property, never a harness's name:
 * queries/reference/format_traits.sql and phase_markers.sql are
 * generated from these (formats/traits.ts; test/format-traits.test.ts checks them).
 */
export interface FormatTraits {
  /**
   * `start_order`: the records carry no trial index (Harbor's repeats are
   * exchangeable), so a task's trials of one run are numbered 0, 1, ... in
   * started_at order, then by the attempt's raw field `trialTiebreak`; absent:
   * the trial as recorded.
   */
  trialNumbering?: "start_order";
  trialTiebreak?: string;
  /**
   * `start_order`: this format's records are attempts of trials that another
   * format's records grade (mini-swe-agent's exit-status passes, whose last
   * pass the evaluation report grades), numbered by the harness in no field: a
   * trial holding one has all its attempts numbered 1, 2, ... in started_at
   * order, an attempt without a start (the evaluation's verdict) last, then by
   * the attempt as recorded; absent: the attempt as recorded.
   */
  attemptNumbering?: "start_order";
  /**
   * `errored_trials`: a later run of this harness may be a re-run of an earlier
   * run's errored trials (Harbor: a second job over the first job's crashed
   * tasks), recognised on its own when it has the same agent, model and
   * benchmark, started after the earlier run's last attempt ended, and holds
   * only tasks whose trials the earlier run errored on; its attempts are then
   * further attempts of those trials (queries: run_reruns). Absent: a re-run is
   * only what `--rerun-of` names.
   */
  rerunRecognition?: "errored_trials";
  /**
   * A record stands for a whole trial (first and final attempt loaded, the ones
   * between only counted): its spend, tokens and calls sit on the final attempt,
   * so an earlier one lacks none of them (task-summary).
   */
  summaryRecord?: boolean;
  /** the `phase` events (by name) where the agent's own phase starts and ends (Terminal-Bench: agent_started, agent_ended) */
  agentPhase?: { start: string; end: string };
  /** the folder of queries/ holding this harness's own views, which read its attempts (agentcompass/) */
  ownViews?: string;
  /**
   * The scale of the number whose rule decides this format's successes
   * (docs/metrics.md, "Scores"): `0-1` = a score or reward in [0, 1], full
   * marks 1 (Inspect's value_to_float, Harbor's and tau-bench's rewards,
   * AgentCompass's score). Absent: success is decided by booleans or id lists.
   * The adapter marks each attempt whose status its score decided with
   * `score_decides: true` (kept in `attempts.extra`) and the score in `score`;
   * a run in which such an attempt's score lies off the scale has all of them
   * unscored, detail `score_scale`, unless `--success-threshold X` decides
   * (queries: stg_score_rule).
   */
  scoreScale?: "0-1";
  /**
   * The raw field (kept in `attempts.extra`) that names the sub-benchmark a
   * trial of this format belongs to within its run (Inspect's task): its
   * values are a dimension of pooling of their own, named by the field, so a
   * headline never pools two of them in silence; `one` and `many` are the words
   * the warning names them with. Absent: the format's runs hold one benchmark.
   */
  subBenchmark?: { field: string; one: string; many: string };
}

/**
 * A harness's own verdict on its runs, shown beside denom's figures in the
 * report (AgentCompass: a run with a task invalidated by a FATAL has failed).
 * The report reads `select` (a named SELECT of queries/select/) whatever the
 * inputs, puts its rows under `key` in `denom report --json` (an empty list
 * when no run is this harness's), and, when there is a row, prints `heading`
 * and `describe(rows)`: indented lines, as the text report shows them.
 */
export interface VerdictHook<N extends SelectName = SelectName> {
  key: string;
  select: N;
  heading: string;
  describe(rows: RowOf<N>[]): string[];
}

/**
 * A published figure as a harness's own file states it (`denom audit --claims
 * FILE`; claims.ts turns `claim` into a Claim, its tolerance from the digits).
 */
export interface PublishedClaim {
  /** the figure as printed: `68.1%`, `0.5` */
  claim: string;
  /** where it stands in the file, appended to its name in an error: `[3]`, ` custom.overall.acc` */
  at: string;
  label: string;
  /** the benchmark the claim is about: audited only against the records of that benchmark (the attempts' `category`) */
  benchmark?: string;
}

/** A file of a folder that another file beside it replaces (FormatAdapter.supersededFiles). */
export interface SupersededFile {
  file: RegExp;
  by: RegExp;
  /** text the replacing file's first 64 KiB must hold for the rule to apply; absent = its name decides */
  holding?: string;
  reason: string;
}

export interface FormatAdapter {
  /** absent or "record" (an adapter without `kind` is a record adapter) */
  kind?: "record";
  /** short name, stored with every attempt (`attempts.format`); what `--input-format` takes */
  name: string;
  /** one line for the README: which harness, which file */
  describes: string;
  /**
   * What decides a success in this format's records: the field and the rule
   * (docs/formats.md lists it per format); absent for a format whose records
   * hold no attempt.
   */
  success?: string;
  /** the fields read (optional, for `denom formats`) */
  reads?: readonly FieldRead[];
  /** what the meta block says whenever this format read a source (meta.notes), e.g. what the harness does not record */
  notes?: readonly string[];
  /** top-level keys of a JSON document whose array elements are this format's records */
  containerKeys?: readonly string[];
  /**
   * Container keys whose *empty* array makes the document's header (the keys
   * before it, and the key with `[]`) one record, so a run that announces
   * trials and holds none is still read (tau2-bench's `simulations: []`).
   */
  emptyContainerKeys?: readonly string[];
  /**
   * Top-level keys never assembled when a source with a matching name is read
   * as a JSON document (its bulk that this adapter does not read, e.g. a
   * SWE-agent `.traj`'s `trajectory`); see ingest/types.ts DocumentOptions.
   */
  skipKeys?: { names: RegExp; keys: readonly string[] };
  /**
   * Files of a folder that another file beside them replaces: `file` (a name)
   * is left out, and listed in meta.skipped_files with `reason`, when a file
   * whose name matches `by` lies in the same folder, so that no trial is read
   * twice (OpenHands' `output.jsonl` beside `output.swebench_eval.jsonl`).
   * With `holding`, only when the first 64 KiB of the replacing file hold that
   * text (a key only a replacing file has: AgentBench's `"raw_results"`).
   */
  supersededFiles?: readonly SupersededFile[];
  /**
   * Endings (without the dot) of the harness's files that hold one JSON
   * document although they end neither `.json` nor `.jsonl` (SWE-agent's
   * `.traj`): a folder walk and an archive read them as records.
   */
  documentEndings?: readonly string[];
  /**
   * Endings (without the dot) of the harness's zip archives, read by its
   * `archive` reader (Inspect's `.eval`): a folder walk and an archive take them.
   */
  archiveEndings?: readonly string[];
  /**
   * Files the harness writes beside its records that hold no trial (Inspect's
   * log listing): a file or archive member whose name (without its folder)
   * matches `names` is skipped with `reason` (meta.skipped_files), never read.
   */
  sideFiles?: { names: RegExp; reason: string };
  /**
   * Text files that are one record each although their ending is not a record
   * one (OpenHands' per-instance evaluation logs): a folder walk keeps a file
   * whose path matches `walked`; a source whose name matches `named` (archive
   * members too) is read whole and `record` keeps what matters of its text
   * (records/reader.ts readTextRecord).
   */
  textRecords?: { walked: RegExp; named: RegExp; record(text: string, source: string): Record<string, unknown> };
  /**
   * A run header read before the records (a JSON document's keys before its
   * container array, an archive's header member): `detect` says whether it is
   * this format's, `adapt` what it says of the run.
   */
  header?: { detect(header: Record<string, unknown>): boolean; adapt(header: Record<string, unknown>, context: AdaptContext): RunLog };
  /** what the SQL must know of this format's attempts (FormatTraits) */
  traits?: FormatTraits;
  /** the harness's own verdict, printed beside denom's figures (VerdictHook) */
  verdict?: VerdictHook;
  /**
   * Reads a file of the harness's published claims (`denom audit --claims`):
   * its claims, or null when `text` (the whole file, named `name`) is not one.
   * Throws UsageError when it is one but holds none.
   */
  claims?(text: string, name: string): PublishedClaim[] | null;
  /**
   * The records this adapter reads, as data (shape.ts): one shape per kind of
   * record. Detection is exact: a record is this adapter's when it fits one of
   * them, and no other adapter's (formats/index.ts).
   */
  shapes: readonly RecordShape[];
  adapt(record: Record<string, unknown>, context: AdaptContext): Adapted;
}

/**
 * One top-level entry of an object document, as a DocumentAdapter sees it:
 * `{key, value, index: null}` for an entry read whole, or one element of an
 * entry's array (`unitsOf(key) === "elements"`) as `{key, value: element, index}`.
 */
export interface DocumentEntry {
  key: string;
  value: unknown;
  /** 0-based element index inside the entry's array; null for a whole entry */
  index: number | null;
}

/** What the reader does with a top-level entry of a document adapter's object. */
export type EntryUnits = "entry" | "elements" | "skip";

export interface DocumentAdapter {
  kind: "document";
  /** short name, stored with every attempt (`attempts.format`); what `--input-format` takes */
  name: string;
  describes: string;
  /** what decides a success in this format's records: the field and the rule (FormatAdapter.success) */
  success?: string;
  reads: readonly FieldRead[];
  /**
   * The object documents this adapter reads, as data (shape.ts), judged on
   * their first top-level entries: up to DETECT_ENTRIES (3) whole entries
   * (fewer when the object has fewer), each `{key, value, index: null}`, and
   * the source's name.
   */
  shape: DocumentShape;
  /**
   * How the entries under `key` are read: `entry` = the entry is one record;
   * `elements` = each element of its array is one record (an id list), streamed
   * one by one; `skip` = not a record (counts, bookkeeping lists), not counted
   * as a line of the source, as Terminal-Bench's top-level keys beside `results`.
   */
  unitsOf(key: string): EntryUnits;
  adaptEntry(entry: DocumentEntry, context: AdaptContext): Adapted;
}

/** Either kind of adapter. */
export type Adapter = FormatAdapter | DocumentAdapter;

/** How many whole top-level entries a DocumentAdapter's `shape` is judged on at most. */
export const DETECT_ENTRIES = 3;

/** True for a document adapter. */
export function isDocumentAdapter(a: Adapter): a is DocumentAdapter {
  return a.kind === "document";
}
