-- timeout_gaps: one row per kept timeout attempt with a timed agent event: the gaps between
--   the agent's own events (roles call, request, other; timeout_events) in time order, their
--   count n and the means of the first and of the last floor(n/3) gaps (seconds; NULL when
--   floor(n/3) = 0). The trailing gap to ended_at is not between two events.
-- Reads: timeout_events.
-- Empty when: timeout_events is empty.
--
-- n gaps between n + 1 sorted times t[1..n+1]: the k = floor(n/3) first gaps sum to
-- t[k+1] - t[1] and the k last to t[n+1] - t[n+1-k], so the means need two ranks, not the
-- list of gaps. A window rank, not a list per attempt: it spills past the memory limit.
create or replace view timeout_gaps as
with

times as (
    select
        attempt_id,
        ts_s,
        row_number() over (partition by attempt_id order by ts_s) as rank,
        count(*) over (partition by attempt_id) - 1 as gap_count
    from timeout_events
    where role in ('call', 'request', 'other') and ts is not null
)

select
    attempt_id,
    gap_count,
    (max(ts_s) filter (where rank = gap_count // 3 + 1) - min(ts_s)) / nullif(gap_count // 3, 0) as first_third_gap_mean_s,
    (max(ts_s) - max(ts_s) filter (where rank = gap_count + 1 - gap_count // 3)) / nullif(gap_count // 3, 0) as last_third_gap_mean_s
from times
group by attempt_id, gap_count;
