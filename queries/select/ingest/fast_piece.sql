-- fast_piece: what fast_rows holds: lines, plain lines, the first plain line and the last line.
-- Reads: fast_rows.
select
    count(*) as lines,
    count(*) filter (where plain) as plain,
    min(line_no) filter (where plain) as first_plain,
    min(line_no) as first_line,
    max(line_no) as last_line
from fast_rows
