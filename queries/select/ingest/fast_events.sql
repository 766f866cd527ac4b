-- fast_events: the events rows of the plain lines in fast_rows, each with its attempt's id (as
--   fast_attempts gave it); `args` as canonical.ts canonicalJson writes it: keys sorted, no blanks.
-- Reads: fast_rows, attempts.
with

plain_events as (
    select line_no, unnest(events) as e, generate_subscripts(events, 1) - 1 as seq
    from fast_rows
    where plain and events is not null
)

select
    attempts.attempt_id,
    plain_events.seq::INTEGER as seq,
    try_cast(substr(e.ts::VARCHAR, 2, length(e.ts::VARCHAR) - 2) as TIMESTAMPTZ) as ts,
    case when contains(e.type::VARCHAR, '\') then e.type ->> '$' else substr(e.type::VARCHAR, 2, length(e.type::VARCHAR) - 2) end as type,
    case when contains(e.name::VARCHAR, '\') then e.name ->> '$' else substr(e.name::VARCHAR, 2, length(e.name::VARCHAR) - 2) end as name,
    case when e.args is not null then
        '{' || array_to_string(list_transform(list_sort(map_entries(e.args)),
            x -> '"' || x.key || '":' || coalesce(x.value::VARCHAR, 'null')), ',') || '}'
    end as args,
    case when contains(e.status::VARCHAR, '\') then e.status ->> '$' else substr(e.status::VARCHAR, 2, length(e.status::VARCHAR) - 2) end as status
from plain_events
join attempts on attempts.source_id = $source_id and attempts.line = plain_events.line_no
