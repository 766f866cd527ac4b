/**
 * The `-- Empty when:` lines of queries/ (src/db/empty-when.ts): a relation whose
 * conditions hold is created with its columns and no rows instead of computed. A wrong
 * line would drop rows from a figure, so every line is checked against the relation's
 * own SQL: over the inputs of the tests, wherever a line's conditions hold, the
 * relation's statement, run in full over what the session created, gives no row, and
 * the table made in its place has the statement's columns and types. Each line must
 * hold on at least one of those inputs (else nothing here checks it). Then the session
 * is shown to use the lines: it computes what they let it skip only when they do not hold.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Database } from "../src/db/database.js";
import { parseEmptyWhen, parseRelation, queryCatalog, type EmptyCondition, type Relation } from "../src/db/queries.js";
import type { Definitions } from "../src/db/layer-cache.js";
import type { Session } from "../src/db/session.js";
import { DEFAULT_THRESHOLDS, type Expectation } from "../src/definitions.js";
import type { IngestResult } from "../src/ingest/ingest.js";
import { openRuns } from "../src/ingest/runs.js";
import { CASES, FIXTURES, jsonl, ROOT, tempDir } from "./helpers.js";

const catalog = queryCatalog();
const ruled: Relation[] = catalog.relations.filter((r) => r.emptyWhen.length > 0);

/** Whether every condition of `rule` holds in the session, asked of DuckDB directly. */
async function holds(db: Database, rule: EmptyCondition[]): Promise<boolean> {
  for (const condition of rule) {
    const sql =
      "empty" in condition ? `SELECT NOT EXISTS (SELECT 1 FROM ${condition.empty}) AS yes` : `SELECT getvariable('${condition.isNull}') IS NULL AS yes`;
    if ((await db.one(sql))?.yes !== true) return false;
  }
  return true;
}

type Options = Partial<Definitions>;

/** `--expect-count n`. */
const expectCount = (count: number): Expectation => ({ tasks: null, count, source: `--expect-count ${count}` });

async function open(inputs: string[], options: Options = {}): Promise<Session<IngestResult>> {
  return openRuns({ inputs, statusMap: {}, thresholds: DEFAULT_THRESHOLDS, stdin: Readable.from([]), onWarning: () => {}, ...options });
}

const folders = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());

/** The inputs of the tests: the cases, the samples, the fixtures of harnesses and real logs, a few with flags that give the skipped relations rows. */
const INPUTS: { name: string; inputs: string[]; options?: Options }[] = [
  ...folders(CASES).map((e) => ({
    name: `case ${e.name}`,
    inputs: readdirSync(join(CASES, e.name))
      .filter((f) => f !== "expected.json" && f !== "tasks.jsonl")
      .map((f) => join(CASES, e.name, f)),
  })),
  ...["timeouts-mix.jsonl", "two-agents.jsonl"].map((f) => ({ name: `sample ${f}`, inputs: [join(ROOT, "samples", f)] })),
  ...["inspect", "agentcompass-run", "tau2-split", "harbor-job", "hal-upload-scicode", "swe-bench-pro", "skillsbench-leaderboard"].map((f) => ({
    name: f,
    inputs: [join(FIXTURES, f)],
  })),
  ...folders(join(FIXTURES, "real")).map((e) => ({ name: `real ${e.name}`, inputs: [join(FIXTURES, "real", e.name)] })),
  { name: "seed-100 --expect-count 120", inputs: [join(CASES, "seed-100", "attempts.jsonl")], options: { expectation: expectCount(120) } },
  { name: "two-agents --by agent", inputs: [join(ROOT, "samples", "two-agents.jsonl")], options: { by: "agent" } },
];

describe("the Empty when lines of queries/", () => {
  it("are on the relations a session copies, and name what they read", () => {
    expect(ruled.map((r) => r.name).sort()).toEqual([
      "agentcompass_verdict",
      "bootstrap_intervals",
      "call_outcomes",
      "clustered_intervals",
      "missing_trials",
      "named_run_keys",
      "off_scale_runs",
      "pooled_within_groups",
      "rerun_attempts",
      "run_groups",
      "run_log_status",
      "secrets_masked",
      "stg_attempt_marks",
      "stg_run_defaults",
      "timeout_call_runs",
      "timeout_events",
      "timeout_gaps",
      "timeout_last_events",
    ]);
    expect(catalog.byName.get("missing_trials")!.emptyWhen).toEqual([[{ empty: "owed_trials" }, { isNull: "expected_tasks" }, { isNull: "expected_count" }]]);
    expect(catalog.byName.get("pooled_within_groups")!.emptyWhen).toEqual([[{ empty: "pooling" }], [{ isNull: "group_by" }]]);
  });

  it("read as conditions of what the Reads line names, any other form refused", () => {
    const header = "-- Reads: a, b; getvariable('v').\n-- Empty when: a is empty, getvariable('v') is null.\n-- Empty when: b is empty.\n";
    expect(parseEmptyWhen("x.sql", header, ["a", "b"], ["v"])).toEqual([[{ empty: "a" }, { isNull: "v" }], [{ empty: "b" }]]);
    expect(() => parseEmptyWhen("x.sql", "-- Empty when: c is empty.\n", ["a"], [])).toThrow(/"c is empty"/);
    expect(() => parseEmptyWhen("x.sql", "-- Empty when: getvariable('w') is null.\n", ["a"], ["v"])).toThrow(/getvariable\('w'\)/);
    expect(() => parseEmptyWhen("x.sql", "-- Empty when: a has no rows.\n", ["a"], [])).toThrow(/"a has no rows"/);
    // a view read through is never a table of its own: nothing to create empty
    expect(() =>
      parseRelation("intermediate/x.sql", "-- Reads: a.\n-- Not materialized: why.\n-- Empty when: a is empty.\ncreate or replace view x as select * from a;"),
    ).toThrow(/only a view past reference/);
  });

  const held = new Set<string>();
  for (const input of INPUTS)
    it(`hold only where the relation's own statement gives no row: ${input.name}`, async () => {
      const session = await open(input.inputs, input.options);
      try {
        await session.need(ruled.map((r) => r.name));
        for (const relation of ruled)
          for (const [i, rule] of relation.emptyWhen.entries()) {
            if (!(await holds(session.db, rule))) continue;
            held.add(`${relation.name} ${i}`);
            // the file's own statement, as a view of another name: computed in full
            const check = `check_${relation.name}`;
            await session.db.run(relation.sql.replace(/^create or replace view \w+ as/m, `create or replace temp view ${check} as`));
            expect(await session.db.one(`SELECT count(*) AS n FROM ${check}`), `${relation.name}: line ${i + 1} holds, and its statement gives rows`).toEqual({
              n: 0,
            });
            const columns = (name: string) => session.db.all(`SELECT column_name, column_type FROM (DESCRIBE ${name})`);
            expect(await columns(relation.name)).toEqual(await columns(check));
          }
      } finally {
        session.close();
      }
    });

  it("each hold on one of those inputs at least", () => {
    const lines = ruled.flatMap((r) => r.emptyWhen.map((_, i) => `${r.name} ${i}`));
    expect(lines.filter((line) => !held.has(line))).toEqual([]);
  });
});

describe("a session", () => {
  afterEach(() => void vi.restoreAllMocks());

  /** The statements a session ran creating `names` over `records`, by relation name. */
  async function statements(records: object[], names: string[], options: Options = {}): Promise<Map<string, string>> {
    const seen: string[] = [];
    for (const method of ["one", "run"] as const) {
      const original = Database.prototype[method] as (sql: string, params?: never) => Promise<unknown>;
      vi.spyOn(Database.prototype, method).mockImplementation(function (this: Database, sql: string, params?: never) {
        seen.push(sql);
        return original.call(this, sql, params);
      } as never);
    }
    const session = await open([join(tempDir({ "runs.jsonl": jsonl(...records) }), "runs.jsonl")], options);
    try {
      await session.need(names);
    } finally {
      session.close();
    }
    const byName = new Map<string, string>();
    for (const sql of seen) {
      const made = /^create or replace (?:TEMP )?TABLE (\w+) as/m.exec(sql);
      if (made) byName.set(made[1], sql);
    }
    return byName;
  }

  // one agent, one model, one trial per task, no events, no run metadata
  const plain = [
    { task_id: "a", status: "success" },
    { task_id: "b", status: "failure" },
  ];

  it("creates a relation empty, uncomputed, where a line holds", async () => {
    const made = await statements(plain, ["missing_trials", "run_groups", "bootstrap_intervals"]);
    // nothing owed, no --expect: missing_trials; one agent: pooling has no row, so run_groups;
    // one trial per task: several_trial_scopes has no row, so bootstrap_intervals
    for (const name of ["missing_trials", "run_groups", "bootstrap_intervals"]) expect(made.get(name), name).toMatch(/\) limit 0$/);
    // what they read was computed: pooling and several_trial_scopes state no line
    for (const name of ["pooling", "several_trial_scopes", "trials"]) expect(made.get(name), name).not.toMatch(/limit 0$/);
  });

  it("computes it where no line holds", async () => {
    // --expect-count 3: a third task is expected; two agents: pooling has rows;
    // task a has two trials: several_trial_scopes has a row
    const records = [...plain, { task_id: "a", trial: 1, status: "failure", agent: "other" }];
    const made = await statements(records, ["missing_trials", "run_groups", "bootstrap_intervals"], {
      expectation: expectCount(3),
    });
    for (const name of ["missing_trials", "run_groups", "bootstrap_intervals"]) expect(made.get(name), name).not.toMatch(/limit 0$/);
  });
});
