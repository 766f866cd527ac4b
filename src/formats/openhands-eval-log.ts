/**
 * OpenHands' SWE-bench evaluation logs: `<run>/output.swebench_eval.logs/instance_<id>.log`,
 * one text log per instance, written by `evaluation/benchmarks/swe_bench/eval_infer.py`
 * (a real run in test/fixtures/real/openhands-v0-swebench-eval-report/). When the
 * run's `output.swebench_eval.jsonl` is gone, the logs are the per-instance
 * record of the evaluation. A log is not JSON: the reader hands its whole text
 * to `evalLogRecord` (the adapter's `textRecords`; records/reader.ts
 * readTextRecord), which keeps the lines that matter as one record; the
 * adapter maps that record.
 */
import { folderOf } from "./shared.js";
import type { FieldRead, FormatAdapter } from "./types.js";

/** A per-instance evaluation log, by its source name (an archive member's too). */
const EVAL_LOG_FILE = /(^|[/\\!])output\.swebench_eval\.logs[/\\]instance_[^/\\]+\.log$/i;

/** A per-instance evaluation log, by its path in a folder walk, which keeps such files although they end `.log`. */
const WALKED_EVAL_LOG = /(^|[/\\])output\.swebench_eval\.logs[/\\]instance_[^/\\]+\.log$/i;

const RESULT = /^Result for (.+?): resolved: (True|False)\s*$/m;
const STARTED = /Starting evaluation for instance /g;
const ERROR = /^Error in instance \[[^\]]*\]: (.*?)(?:\. Stacktrace:.*)?$/gm;
const APPLIED = /APPLY_PATCH_PASS|Evaluation process started/;
const STAMP = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) - /gm;

/** The lines of one log that decide its instance's outcome, as a record (`eval_log` marks it). */
export function evalLogRecord(text: string, source: string): Record<string, unknown> {
  const own = source.slice(Math.max(source.lastIndexOf("/"), source.lastIndexOf("\\"), source.lastIndexOf("!")) + 1);
  const result = RESULT.exec(text);
  const errors = [...text.matchAll(ERROR)].map((m) => m[1].trim());
  const stamps = [...text.matchAll(STAMP)].map((m) => `${m[1]}.${m[2]}`);
  return {
    eval_log: {
      instance_id: own.replace(/^instance_/, "").replace(/\.log$/i, ""),
      resolved: result ? result[2] === "True" : null,
      evaluations_started: (text.match(STARTED) ?? []).length,
      patch_applied: APPLIED.test(text),
      errors,
      first_ts: stamps[0] ?? null,
      last_ts: stamps[stamps.length - 1] ?? null,
    },
  };
}

const READS: readonly FieldRead[] = [
  { source: "(file) instance_<id>.log", canonical: "task_id", note: "the instance id from the log's name" },
  { source: "(path) <run>/output.swebench_eval.logs/", canonical: "run_id", note: "the run folder's name" },
  { source: "Result for <id>: resolved: True", canonical: "status success", note: "" },
  { source: "Result for <id>: resolved: False", canonical: "status failure", note: "the patch applied and the tests failed" },
  {
    source: "Error in instance [<id>]: <message>",
    canonical: "status aborted, status_detail eval_error",
    note: "the evaluation failed (HTTP 504 from the runtime, ...) and no result line followed: not the agent's fault, whatever the summary .md says",
  },
  {
    source: "(no result, no patch applied)",
    canonical: "status failure, status_detail empty_patch",
    note: "the log stops after `Starting evaluation`: nothing to evaluate (the empty-patch instance)",
  },
  { source: "(no result, patch applied)", canonical: "status aborted, status_detail unfinished", note: "the evaluation started and never reported" },
  { source: "Starting evaluation for instance (count)", canonical: "evaluations_started", note: "evaluation-side restarts, kept; one attempt per instance" },
  { source: "YYYY-MM-DD HH:MM:SS,mmm (first, last)", canonical: "started_at, ended_at", note: "of the evaluation, not the agent; naive (counted)" },
];

export const openHandsEvalLogFormat: FormatAdapter = {
  name: "openhands-eval-log",
  describes: "OpenHands SWE-bench evaluation logs output.swebench_eval.logs/instance_<id>.log (text, one instance each)",
  success: "`Result for <id>: resolved: True`",
  reads: READS,
  textRecords: { walked: WALKED_EVAL_LOG, named: EVAL_LOG_FILE, record: evalLogRecord },
  shapes: [
    {
      kind: "an instance's evaluation log (text, as read)",
      required: { eval_log: "object" },
      path: { pattern: EVAL_LOG_FILE, shown: "output.swebench_eval.logs/instance_<id>.log" },
    },
  ],
  adapt(record, context) {
    const log = record.eval_log as ReturnType<typeof evalLogRecord>["eval_log"] & Record<string, unknown>;
    const errors = log.errors as string[];
    let status: string;
    let detail: string | null = null;
    if (log.resolved === true) status = "success";
    else if (log.resolved === false) status = "failure";
    else if (errors.length) [status, detail] = ["aborted", "eval_error"];
    else if (!log.patch_applied) [status, detail] = ["failure", "empty_patch"];
    else [status, detail] = ["aborted", "unfinished"];
    return {
      attempts: [
        {
          run_id: folderOf(context.source, 2),
          task_id: log.instance_id,
          trial: 0,
          attempt: 1,
          status,
          status_detail: detail,
          error_message: errors.length ? errors.join("; ") : null,
          started_at: log.first_ts,
          ended_at: log.last_ts,
          evaluations_started: log.evaluations_started,
        },
      ],
    };
  },
};
