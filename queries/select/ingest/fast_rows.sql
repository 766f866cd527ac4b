-- fast_rows: one row per line of a fast-path piece file (src/ingest/fast.ts): its number, its
--   text, whether it is plain (a canonical attempt whose every value this SQL reads exactly as
--   src/ingest/canonical.ts reads it), and for a plain line its typed attempt values and events.
-- Reads: nothing (read_csv of the piece file $path that denom wrote: `LINE_NO \x01 LINE` a line).
-- A line that is not plain goes back through the per-line Node path (its reject, masking and
-- accounting as ever), so a condition here may say "not plain" too often, never too seldom.
-- Node sends elsewhere first (fast.ts SUSPECT): lines that are not UTF-8 or hold a NUL, \x01 or
-- \r byte, a `\u` escape, a trailing comma, blanks before a colon, a number -0, or a hint of a
-- secret (secrets.ts maySecret). The values are read from one json_transform into JSON leaves,
-- each leaf's JSON type told by its text: absent and null read alike, as canonical.ts reads them;
-- a string leaf's value is its text between the quotes, unescaped by DuckDB only when it holds a `\`.
with

raw as (
    select line_no, coalesce(line, '') as line
    from read_csv(
        $path, delim = chr(1), quote = '', escape = '', header = false, auto_detect = false,
        columns = {'line_no': 'BIGINT', 'line': 'VARCHAR'}, max_line_size = $max_line_bytes,
        buffer_size = $buffer_bytes, null_padding = false, strict_mode = true
    )
),

parsed as (
    -- try(): a line that is no JSON gives null
    select
        line_no,
        line,
        case when starts_with(line, '{') and ends_with(line, '}') then try(json_transform(line,
            '{"run_id": "JSON", "task_id": "JSON", "trial": "JSON", "attempt": "JSON", "status": "JSON", "status_detail": "JSON", "fault": "JSON", "submitted_at": "JSON", "started_at": "JSON", "ended_at": "JSON", "timeout_limit_s": "JSON", "waiting_s": "JSON", "last_event": "JSON", "last_event_ts": "JSON", "repeated_tool_calls": "JSON", "llm_tokens": "JSON", "tool_call_count": "JSON", "cost_usd": "JSON", "score": "JSON", "resolved": "JSON", "constraint_ok": "JSON", "grader_error": "JSON", "error_message": "JSON", "agent": "JSON", "model": "JSON", "category": "JSON", "difficulty": "JSON", "invocation": "JSON", "events": [{"ts": "JSON", "type": "JSON", "name": "JSON", "args": "MAP(VARCHAR, JSON)", "status": "JSON"}]}'
        )) end as j
    from raw
),

keyed as (
    select
        *,
        -- the keys as written (a key written twice twice), and each event's
        case when j is not null then try(json_keys(line)) end as keys,
        case when j.events is not null then try(json_keys(line, '$.events[*]')) end as event_keys
    from parsed
),

checked as (
    select
        *,
        -- known keys only (no alias, no `retry`, nothing for `extra`), none written twice
        coalesce(
            len(keys) = len(list_distinct(keys))
            and list_has_all(['run_id', 'task_id', 'trial', 'attempt', 'status', 'status_detail', 'fault', 'submitted_at', 'started_at', 'ended_at', 'timeout_limit_s', 'waiting_s', 'last_event', 'last_event_ts', 'repeated_tool_calls', 'llm_tokens', 'tool_call_count', 'cost_usd', 'score', 'resolved', 'constraint_ok', 'grader_error', 'error_message', 'agent', 'model', 'category', 'difficulty', 'invocation', 'events'], keys)
            and (j.run_id is null or starts_with(j.run_id::VARCHAR, '"'))
            and starts_with(j.task_id::VARCHAR, '"') and regexp_matches(case when contains(j.task_id::VARCHAR, '\') then j.task_id ->> '$' else substr(j.task_id::VARCHAR, 2, length(j.task_id::VARCHAR) - 2) end, '[!-~\pL\pN]')
            and (j.trial is null or (regexp_full_match(j.trial::VARCHAR, '0|[1-9][0-9]{0,9}') and try_cast(j.trial::VARCHAR as BIGINT) <= 2147483647))
            and (j.attempt is null or (regexp_full_match(j.attempt::VARCHAR, '[1-9][0-9]{0,9}') and try_cast(j.attempt::VARCHAR as BIGINT) <= 2147483647))
            and starts_with(j.status::VARCHAR, '"')
            and (j.status_detail is null or starts_with(j.status_detail::VARCHAR, '"'))
            and (j.fault is null or j.fault::VARCHAR in ('"agent"', '"environment"'))
            and (j.submitted_at is null or regexp_full_match(j.submitted_at::VARCHAR, $iso))
            and (j.started_at is null or regexp_full_match(j.started_at::VARCHAR, $iso))
            and (j.ended_at is null or regexp_full_match(j.ended_at::VARCHAR, $iso))
            and (j.timeout_limit_s is null or (regexp_matches(j.timeout_limit_s::VARCHAR, '^-?[0-9]') and isfinite(try_cast(j.timeout_limit_s::VARCHAR as DOUBLE)) and try_cast(j.timeout_limit_s::VARCHAR as DOUBLE) > 0))
            and (j.waiting_s is null or (regexp_matches(j.waiting_s::VARCHAR, '^-?[0-9]') and isfinite(try_cast(j.waiting_s::VARCHAR as DOUBLE)) and try_cast(j.waiting_s::VARCHAR as DOUBLE) >= 0))
            and (j.last_event is null or starts_with(j.last_event::VARCHAR, '"'))
            and (j.last_event_ts is null or regexp_full_match(j.last_event_ts::VARCHAR, $iso))
            and (j.repeated_tool_calls is null or (regexp_full_match(j.repeated_tool_calls::VARCHAR, '0|[1-9][0-9]{0,9}') and try_cast(j.repeated_tool_calls::VARCHAR as BIGINT) <= 2147483647))
            and (j.llm_tokens is null or (regexp_full_match(j.llm_tokens::VARCHAR, '0|[1-9][0-9]{0,15}') and try_cast(j.llm_tokens::VARCHAR as BIGINT) <= 9007199254740991))
            and (j.tool_call_count is null or (regexp_full_match(j.tool_call_count::VARCHAR, '0|[1-9][0-9]{0,9}') and try_cast(j.tool_call_count::VARCHAR as BIGINT) <= 2147483647))
            and (j.cost_usd is null or (regexp_matches(j.cost_usd::VARCHAR, '^-?[0-9]') and isfinite(try_cast(j.cost_usd::VARCHAR as DOUBLE)) and try_cast(j.cost_usd::VARCHAR as DOUBLE) >= 0))
            and (j.score is null or (regexp_matches(j.score::VARCHAR, '^-?[0-9]') and isfinite(try_cast(j.score::VARCHAR as DOUBLE))))
            and (j.resolved is null or j.resolved::VARCHAR in ('true', 'false'))
            and (j.constraint_ok is null or j.constraint_ok::VARCHAR in ('true', 'false'))
            and (j.grader_error is null or j.grader_error::VARCHAR in ('true', 'false') or (starts_with(j.grader_error::VARCHAR, '"') and (j.grader_error::VARCHAR = '""' or regexp_matches(case when contains(j.grader_error::VARCHAR, '\') then j.grader_error ->> '$' else substr(j.grader_error::VARCHAR, 2, length(j.grader_error::VARCHAR) - 2) end, '[!-~\pL\pN]'))))
            and (j.error_message is null or j.error_message::VARCHAR in ('true', 'false') or (starts_with(j.error_message::VARCHAR, '"') and (j.error_message::VARCHAR = '""' or regexp_matches(case when contains(j.error_message::VARCHAR, '\') then j.error_message ->> '$' else substr(j.error_message::VARCHAR, 2, length(j.error_message::VARCHAR) - 2) end, '[!-~\pL\pN]'))))
            and (j.agent is null or starts_with(j.agent::VARCHAR, '"'))
            and (j.model is null or starts_with(j.model::VARCHAR, '"'))
            and (j.category is null or starts_with(j.category::VARCHAR, '"'))
            and (j.difficulty is null or starts_with(j.difficulty::VARCHAR, '"'))
            and (j.invocation is null or starts_with(j.invocation::VARCHAR, '"'))
            -- events absent, null or an array (a non-array reads as null: told apart from null here)
            and (j.events is not null or not list_contains(keys, 'events') or try(json_type(line, '$.events')) = 'NULL')
            and coalesce(list_bool_and(list_transform(list_zip(j.events, event_keys), p ->
                len(p[2]) > 0
                and len(p[2]) = len(list_distinct(p[2]))
                and list_has_all(['ts', 'type', 'name', 'args', 'status'], p[2])
                and (p[1].ts is null or regexp_full_match(p[1].ts::VARCHAR, $iso))
                and (p[1].type is null or starts_with(p[1].type::VARCHAR, '"'))
                and (p[1].name is null or starts_with(p[1].name::VARCHAR, '"'))
                and (p[1].status is null or starts_with(p[1].status::VARCHAR, '"'))
                -- args: absent, or a flat object: keys plain ASCII written once; values strings,
                -- safe integers, decimals written without exponent, booleans or null: DuckDB writes
                -- them back as JSON.stringify does (no `\u` escape can be left: Node sent those aside)
                and (not list_contains(p[2], 'args') or (
                    p[1].args is not null
                    and cardinality(p[1].args) = len(list_distinct(map_keys(p[1].args)))
                    and not regexp_matches(array_to_string(map_keys(p[1].args), ''), '[^ !#-\[\]-~]')
                    and coalesce(list_bool_and(list_transform(map_values(p[1].args), v ->
                        v is null
                        or v::VARCHAR in ('true', 'false')
                        or starts_with(v::VARCHAR, '"')
                        or (regexp_full_match(v::VARCHAR, '-?(0|[1-9][0-9]*)\.[0-9]*[1-9]')
                            and abs(try_cast(v::VARCHAR as DOUBLE)) between 1e-6 and 1e21)
                        or (regexp_full_match(v::VARCHAR, '0|-?[1-9][0-9]{0,15}') and abs(try_cast(v::VARCHAR as BIGINT)) <= 9007199254740991)
                    )), true)
                ))
            )), true),
            false
        ) as well_typed
    from keyed
),

typed as (
    select
        line_no,
        line,
        well_typed,
        case when contains(j.run_id::VARCHAR, '\') then j.run_id ->> '$' else substr(j.run_id::VARCHAR, 2, length(j.run_id::VARCHAR) - 2) end as run_id,
        case when contains(j.task_id::VARCHAR, '\') then j.task_id ->> '$' else substr(j.task_id::VARCHAR, 2, length(j.task_id::VARCHAR) - 2) end as task_id,
        coalesce(try_cast(j.trial::VARCHAR as INTEGER), 0) as trial,
        coalesce(try_cast(j.attempt::VARCHAR as INTEGER), 1) as attempt,
        case when contains(j.status::VARCHAR, '\') then j.status ->> '$' else substr(j.status::VARCHAR, 2, length(j.status::VARCHAR) - 2) end as raw_status,
        case when contains(j.status_detail::VARCHAR, '\') then j.status_detail ->> '$' else substr(j.status_detail::VARCHAR, 2, length(j.status_detail::VARCHAR) - 2) end as status_detail,
        case when contains(j.fault::VARCHAR, '\') then j.fault ->> '$' else substr(j.fault::VARCHAR, 2, length(j.fault::VARCHAR) - 2) end as fault,
        try_cast(substr(j.submitted_at::VARCHAR, 2, length(j.submitted_at::VARCHAR) - 2) as TIMESTAMPTZ) as submitted_at,
        try_cast(substr(j.started_at::VARCHAR, 2, length(j.started_at::VARCHAR) - 2) as TIMESTAMPTZ) as started_at,
        try_cast(substr(j.ended_at::VARCHAR, 2, length(j.ended_at::VARCHAR) - 2) as TIMESTAMPTZ) as ended_at,
        try_cast(j.timeout_limit_s::VARCHAR as DOUBLE) as timeout_limit_s,
        try_cast(j.waiting_s::VARCHAR as DOUBLE) as waiting_s,
        case when contains(j.last_event::VARCHAR, '\') then j.last_event ->> '$' else substr(j.last_event::VARCHAR, 2, length(j.last_event::VARCHAR) - 2) end as last_event,
        try_cast(substr(j.last_event_ts::VARCHAR, 2, length(j.last_event_ts::VARCHAR) - 2) as TIMESTAMPTZ) as last_event_ts,
        try_cast(j.repeated_tool_calls::VARCHAR as INTEGER) as repeated_tool_calls,
        try_cast(j.llm_tokens::VARCHAR as BIGINT) as llm_tokens,
        try_cast(j.tool_call_count::VARCHAR as INTEGER) as tool_call_count,
        try_cast(j.cost_usd::VARCHAR as DOUBLE) as cost_usd,
        try_cast(j.score::VARCHAR as DOUBLE) as score,
        try_cast(j.resolved::VARCHAR as BOOLEAN) as resolved,
        try_cast(j.constraint_ok::VARCHAR as BOOLEAN) as constraint_ok,
        case when j.grader_error::VARCHAR = 'true' then 'true' when j.grader_error::VARCHAR = 'false' then null else nullif(case when contains(j.grader_error::VARCHAR, '\') then j.grader_error ->> '$' else substr(j.grader_error::VARCHAR, 2, length(j.grader_error::VARCHAR) - 2) end, '') end as grader_error,
        case when j.error_message::VARCHAR = 'true' then 'true' when j.error_message::VARCHAR = 'false' then null else nullif(case when contains(j.error_message::VARCHAR, '\') then j.error_message ->> '$' else substr(j.error_message::VARCHAR, 2, length(j.error_message::VARCHAR) - 2) end, '') end as error_message,
        case when contains(j.agent::VARCHAR, '\') then j.agent ->> '$' else substr(j.agent::VARCHAR, 2, length(j.agent::VARCHAR) - 2) end as agent,
        case when contains(j.model::VARCHAR, '\') then j.model ->> '$' else substr(j.model::VARCHAR, 2, length(j.model::VARCHAR) - 2) end as model,
        case when contains(j.category::VARCHAR, '\') then j.category ->> '$' else substr(j.category::VARCHAR, 2, length(j.category::VARCHAR) - 2) end as category,
        case when contains(j.difficulty::VARCHAR, '\') then j.difficulty ->> '$' else substr(j.difficulty::VARCHAR, 2, length(j.difficulty::VARCHAR) - 2) end as difficulty,
        case when contains(j.invocation::VARCHAR, '\') then j.invocation ->> '$' else substr(j.invocation::VARCHAR, 2, length(j.invocation::VARCHAR) - 2) end as invocation,
        j.events as events
    from checked
)

select
    line_no,
    line,
    well_typed and (started_at is null or ended_at is null or ended_at >= started_at) as plain,
    * exclude (line_no, line, well_typed)
from typed
