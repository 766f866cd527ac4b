-- fast_other_lines: the lines of fast_rows that are not plain, in line order, for the per-line path.
-- Reads: fast_rows.
select line_no, line from fast_rows where not plain order by line_no
