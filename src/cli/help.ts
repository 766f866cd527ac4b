/**
 * The help text of the commands: examples, the definitions in brief and the
 * exit codes, shown after each command's options (`denom CMD --help`), and the
 * longer help of the flags several commands share.
 */

export const REPORT_EXAMPLES = `
Examples:
  $ denom report samples/seed-100.jsonl
  $ denom report logs/                       # every .jsonl/.json/.gz below logs/
  $ denom report task_logs.tar.gz --json     # archive members streamed, nothing extracted
  $ cat results.json | denom report -        # stdin
  $ denom report runs.jsonl --status-map unsuccessful=failure --strict
  $ denom report logs/graded.json --success-threshold 7   # grades 0-10: a grade of 7 or more passes
  $ denom report --db runs.duckdb            # runs kept by denom ingest, nothing read again
  $ denom report runs.jsonl --format md -o report.md   # GitHub markdown for a PR or an issue
  $ denom report runs.jsonl --format html -o report.html   # one self-contained page with charts
  $ denom report runs/ --by model            # every figure again per model, side by side
  $ denom report runs.jsonl --floor noop.jsonl   # each cell beside a do-nothing agent's, and the lift over it
  $ denom report results.json --expect task_ids.txt   # absent tasks count as missing
  $ denom report results.json --expect-count 500
  $ denom report results.json --input-format NAME   # skip detection (denom formats lists the names)

The grid shows successes/trials on two bases (first try, final after retries)
over four denominators, each removing one named class from the one before:
  total         every trial (the strict figure)
  valid         minus broken tasks and unrecognized outcomes
  attributable  minus environment failures (infrastructure, external API, queue)
  completable   minus the remaining timeouts (internal diagnosis only)

Scores: a success a score decides follows the 0-1 rule its format declares
(denom formats names the formats a score decides, and the rule); a run
with a score off that scale (grades 0-10) is unscored, with a warning, until
--success-threshold X decides (score >= X); the meta block names the rule.

Beside the grid: pass@k and pass^k (k = 1 .. the most trials of a task), 95%
intervals (Wilson over single trials; a task-clustered bootstrap, 2000 resamples,
fixed seed, when tasks have several trials; from 5,000 such tasks the analytic
cluster-robust interval), duration p50/p95, agent time vs wall
time, tokens, cost per success (retries included), retries, per-call outcomes.

Exit codes: 0 ok, 1 data error (inputs that yield no record too; with --strict, any rejected line or broken source), 2 usage error.`;

export const AUDIT_EXAMPLES = `
Examples:
  $ denom audit samples/seed-100.jsonl --claim 87.5%
  $ denom audit logs/ --claim 0.3696 --claim 36% --json
  $ denom audit results/ --claims claims.txt     # one claim a line: CLAIM [LABEL]

The family searched (2 x 2 x 3^4 x 2 = 648 definitions):
  basis         first attempt, or final attempt (after retries)
  numerator     successes, or successes plus late passes (timeouts that passed verification)
  exclusions    any of invalid, environment, timeout, unrecognized, each judged
                on the basis attempt or on any attempt of the trial
  aggregation   pooled over trials, or the mean of per-run rates (a run = run_id x trial)
A claim printed with d decimals matches rates within half a unit of its last digit,
bounds included (87.5% -> 87.45%..87.55%; 0.128 -> 0.1275..0.1285), compared exactly;
70/80 matches rates equal to 7/8. Definitions that keep the same trials on the
records are shown once, the simplest; the strict figure is printed beside them.

Exit codes: 0 every claim reproduced, 3 a claim not reproduced, 1 data error, 2 usage error.`;

export const TIMEOUTS_EXAMPLES = `
Examples:
  $ denom timeouts runs.jsonl
  $ denom timeouts logs/ --cause loop              # only the agents stuck repeating a call
  $ denom timeouts runs.jsonl --json               # the same rows as a JSON array
  $ denom timeouts runs.jsonl --loop-min 8 --queue-share 0.5

Rules, in order (the first that fires wins):
  queue     the queue wait (started_at - submitted_at), or queued/waiting_for_slot
            events, cover --queue-share of timeout_limit_s; or the agent phase
            never started
  external  the last agent event is a request still waiting (status pending or
            waiting, or an api/llm/http request with no response); without
            events, last_event names such a wait
  loop      >= --loop-min identical consecutive tool calls (same name and
            arguments; results between them do not break the run); without
            events, repeated_tool_calls
  sluggish  >= 4 gaps between events, and the last third of the gaps averages
            >= --sluggish-ratio x the first third (the trailing gap to ended_at
            is not a gap)
  unknown   none of these, or no events at all
queue and external are the environment's (they leave the attributable denominator).

Exit codes: 0 ok, 1 data error (inputs that yield no record too; with --strict, any rejected line or broken source), 2 usage error.`;

export const COMPARE_EXAMPLES = `
Examples:
  $ denom compare runs/agent-a/ runs/agent-b/             # A = baseline, B = candidate
  $ denom compare a.jsonl b.jsonl --json                  # one JSON object (keys in docs/compare.md)
  $ denom compare results/ --by agent --baseline agent-a  # every other agent against agent-a
  $ denom compare a.jsonl b.jsonl --format md             # markdown for a pull-request comment
  $ denom compare a.jsonl b.jsonl --fail-if-worse final/attributable   # exit 4 when B is worse
  $ denom compare a.jsonl b.jsonl --fail-if-inconclusive      # exit 4 unless B is better on final/total
  $ denom compare a.jsonl b.jsonl --label A=gpt-4o,B=claude   # the sides' names (default: the model or agent that differs)

Tasks are paired by task id; tasks on one side only are listed, never paired.
For every cell (basis x denominator) a task enters when both sides keep a trial
of it there; p = a side's share of successes among those trials. B - A = mean
over the tasks of p_B - p_A, se = sd / sqrt(tasks) (the trials of one task are
one cluster), 95% CI = B - A +- 1.96 se. Test: exact McNemar when every task has
one kept trial per side, else a z test on the differences (approximate).
mde80 = (1.96 + 0.84) se; tasks needed = (1.96 + 0.84)^2 var / (B - A)^2
(Miller 2024, "Adding Error Bars to Evals").
Verdict per cell: better (95% interval above 0), worse (below 0), inconclusive
(spans 0: mde80 and tasks needed say what would settle it), nothing compared
(fewer than 2 paired tasks). The verdict line quotes the gated cell, else final/total.

Exit codes: 0 ok, 4 --fail-if-worse and the cell's 95% interval is below 0, with
--fail-if-inconclusive also when it spans 0, or nothing to judge (an empty side,
fewer paired tasks than --min-tasks, default 2), 1 data error, 2 usage error.`;

export const GATE_EXAMPLES = `
Examples:
  $ denom gate runs.jsonl --min final/total=0.8 --max timeout_rate=0.1
  $ denom gate logs/ --min final/attributable=85% --max environment_share=0.05 --max p95_s=600
  $ denom gate runs.jsonl --max grader_errors=0 --max rejected=0 --json

CELL: basis/denominator (first or final; total, valid, attributable, completable), its rate.
METRIC: timeout_rate (final timeouts / trials), environment_share (final environment
failures / trials), constraint_violations, grader_errors (attempts), rejected (lines),
p95_s (attempt duration, seconds, nearest rank), cost_per_success (USD: all spend /
final successes), cost_per_success/DENOMINATOR (the spend of the trials it keeps /
their final successes, e.g. --max cost_per_success/attributable=2.5).
Rates take 0.85 or 85% (a bare number above 1 is a usage error). A figure that is
n/a, or stands on fewer tasks than --min-tasks, fails its condition; so does a --max
on a cost_per_success/DENOMINATOR that is a lower bound (attempts without a cost).

Exit codes: 0 every condition holds, 4 a condition fails or the inputs yield no
record, 1 data error (with --strict, any rejected line), 2 usage error.`;

export const EXPORT_EXAMPLES = `
Examples:
  $ denom export runs.jsonl -o trials.csv                      # one row per trial, and trials.csv.meta.json
  $ denom export runs.jsonl --what rates                       # the grid as CSV on stdout
  $ denom export runs.jsonl -o attempts.parquet --what attempts
  $ denom export --db runs.duckdb --what rates --json          # a JSON array on stdout
  $ denom export logs/ -o rejects.tsv --what rejects

--what, rows: trials (one per trial: first and final attempt), attempts (with the
source file), rejects (with the source file), timeouts (every timeout attempt, its
cause and the evidence).
--what, figures (every trial, or one row set per group of --by FIELD): rates (the
grid with its 95% interval), pass_at_k (pass@k and pass^k), durations (seconds,
per attempt status), efficiency (time, tokens, cost, retries), per_success (cost,
tokens and agent time per solved task under each denominator), per_call (call-level
outcomes), timeout_causes. Rates are fractions (0.875), times in seconds, cost in USD,
timestamps ISO 8601 UTC.
--format csv (RFC 4180, UTF-8, header row, CRLF), tsv, parquet, json (one array) or
jsonl; without it, -o's extension names the format (csv for stdout).
FILE.meta.json beside -o FILE holds the meta block: sources with sha256,
definitions, exclusions, thresholds, tool version (none for stdout).
In CSV and TSV, text cells starting with = + - @ tab or CR get a leading apostrophe
so a spreadsheet does not run them as formulas; --raw-csv writes them as they are.`;

export const INGEST_EXAMPLES = `
Examples:
  $ denom ingest logs/ --db runs.duckdb
  $ denom ingest more-logs/ task_logs.tar.gz --db runs.duckdb   # adds; known sources are skipped
  $ denom report --db runs.duckdb
  $ denom ingest host-a-logs/ --lake runs.lake   # Parquet; other processes may write at once
  $ denom report runs.lake --lake-filter model=gpt-4o

A source (file, or archive member) whose sha256 is already in FILE is skipped and
listed, never counted twice. One call adds all or nothing; with --strict, any
rejected line or broken source (a truncated gzip or tar) adds nothing. A lake
(docs/lake.md) commits each source on its own; --strict writes nothing there.`;

export const QUERY_EXAMPLES = `
Examples:
  $ denom query --db runs.duckdb "SELECT basis, denominator, successes, count, rate FROM rate_grid ORDER BY basis_order, step"
  $ denom query --db runs.duckdb --csv "SELECT * FROM trials WHERE final_status = 'timeout' ORDER BY task_id" > timeouts.csv
  $ denom query --db runs.duckdb --schema      # tables and views with their columns
  $ denom query --lake runs.lake --lake-filter model=gpt-4o "SELECT count(*) FROM attempts"

The file is opened read-only (a lake's Parquet files are read once, before the query); the views are today's, built on its tables. The session
cannot reach other files, the network or extensions; only one query runs (SELECT, WITH,
FROM, VALUES, TABLE, PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW) over the stored tables
and views, as DuckDB's own parser reads it; anything else exits 2.`;

export const MAX_DECODED_HELP =
  "the most bytes one input may decode to, its gzip layers and archive members summed (e.g. 200GiB; default 64GiB); past it the input is refused";

export const MAX_MEMBERS_HELP = "the most members one tar or zip archive may hold (default 100000); past it the archive is refused";

export const MAX_LINE_HELP = "the longest JSONL line read (e.g. 256MiB; default 64MiB); a longer line is a reject, skipped without being held in memory";

export const SUCCESS_THRESHOLD_HELP =
  "a trial whose status a score decides (denom formats names the formats) is a success when its score >= X, on the scores' own scale (e.g. 7 for grades 0-10); without it each format's declared 0-1 rule decides, and a run with a score off that scale is unscored";

export const SCORE_KEY_HELP = "the key of a dict-valued score (e.g. {problem: 1, subproblem: 0.4}) that decides success; without it such trials are unscored";

export const POOL_HELP =
  "one figure over every agent, model and benchmark loaded, saying what it pools; by default inputs that hold several are grouped, each group with its own figure to quote (runs that name no model are groups of their own)";
