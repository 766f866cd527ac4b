/**
 * The rows of the named SELECTs that the adapters' own verdicts run
 * (VerdictHook.select: `queries/select/report/formats/<name>.sql`), in db/rows.ts's
 * tags, which gathers them into SELECT_ROWS (checked against DuckDB's DESCRIBE
 * like the rest). A file without imports, so that db/rows.ts reads it without
 * a cycle through formats/types.ts.
 */
export const VERDICT_ROWS = {
  "report/formats/agentcompass_verdict": {
    run_id: "text?",
    evaluation_failed: "bool",
    value: "num?",
    reference_value: "num?",
    tasks: "int",
    tasks_invalidated: "int",
    trials: "int",
    evaluated: "int",
    unavailable: "int",
    invalidated: "int",
    errors: "int",
    passes: "int",
  },
} as const;
