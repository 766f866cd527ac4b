-- unrecognized_statuses: the raw statuses no alias maps, with their attempts.
-- Reads: attempts_classified.
create or replace view unrecognized_statuses as
select
    raw_status,
    count(*) as attempts
from attempts_classified
where status = 'unrecognized'
group by raw_status;
