-- fast_attempts: the attempts rows of the plain lines in fast_rows (one attempt a line), with the
--   ids the per-line path would have given them: in line order from $first_id, around the
--   attempts the per-line path has already loaded from the piece's other lines.
-- Reads: fast_rows, attempts.
-- $run_per_file: --run-per-file, the run becomes $source_name or `$source_name#run_id`.
with

loaded_per_line as (
    select line, count(*) as n
    from attempts
    where source_id = $source_id and line between $first_line and $last_line
    group by line
),

loaded_before as (
    -- attempts the per-line path loaded up to and including each line
    select line, sum(n) over (order by line) as upto
    from loaded_per_line
),

plain as (
    select *, row_number() over (order by line_no) - 1 as plain_before
    from fast_rows
    where plain
)

select
    ($first_id + plain.plain_before + coalesce(loaded_before.upto, 0))::BIGINT as attempt_id,
    $source_id::INTEGER as source_id,
    plain.line_no as line,
    null::VARCHAR as location,
    'canonical' as format,
    to_base64(unhex(sha1(plain.line))) as line_hash,
    case
        when not $run_per_file then plain.run_id
        when plain.run_id is null then $source_name
        else $source_name || '#' || plain.run_id
    end as run_id,
    task_id, trial, attempt, raw_status, status_detail, fault, submitted_at, started_at, ended_at,
    timeout_limit_s, last_event, last_event_ts, repeated_tool_calls, llm_tokens, tool_call_count,
    cost_usd, score, resolved, constraint_ok, grader_error, error_message, agent, model, category,
    difficulty,
    coalesce(len(events), 0)::INTEGER as event_count,
    0 as naive_timestamps,
    0 as non_finite,
    null::VARCHAR as extra,
    waiting_s,
    invocation
from plain
asof left join loaded_before on plain.line_no > loaded_before.line
